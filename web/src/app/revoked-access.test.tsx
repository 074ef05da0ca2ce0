import { act, screen, waitFor, within } from '@testing-library/react';
import { focusManager } from '@tanstack/react-query';
import { texts, type Image } from '@photo/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { REVOCABLE_REFRESH_MS } from '@/lib/live-queries';
import { fakeToken, stubFetch, type StubResponse } from '@/testing/fetch-stub';
import { makeImage, timelineMonthAnswer, timelineRoutes } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

/**
 * A sharer switches a recipient's access off: the recipient's open tab loses those images within
 * ~30 s (the lists read themselves again while the tab is visible), and a failed refresh never
 * empties what is on screen.
 */

const names = (list: HTMLElement) => within(list).queryAllByRole('img').map((img) => img.getAttribute('alt'));
const waitOneRefresh = () => act(() => vi.advanceTimersByTimeAsync(REVOCABLE_REFRESH_MS + 100));
const reads = (mock: ReturnType<typeof stubFetch>, path: string) =>
  mock.mock.calls.filter(([url]) => String(url).split('?')[0] === path).length;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  setToken(fakeToken());
});

afterEach(() => {
  focusManager.setFocused(undefined);
  vi.useRealTimers();
});

describe('the gallery', () => {
  it('drops images that are no longer visible at the next refresh', async () => {
    let visible: Image[] = [makeImage('mine'), makeImage('shared')];
    stubFetch(timelineRoutes(() => visible));
    renderApp('/');
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    await waitFor(() => expect(names(grid)).toEqual(['photo-mine.jpg', 'photo-shared.jpg']));

    visible = [makeImage('mine')];
    await waitOneRefresh();
    await waitFor(() => expect(names(grid)).toEqual(['photo-mine.jpg']));
  });

  it('keeps the loaded photos when a refresh fails', async () => {
    const photos = [makeImage('a'), makeImage('b')];
    let answer: (url: string) => StubResponse = (url) => timelineMonthAnswer(photos, '2024-01', url);
    const fetchMock = stubFetch({ ...timelineRoutes(photos), 'GET /api/timeline/2024-01': ({ url }) => answer(url) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/');
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    await waitFor(() => expect(names(grid)).toHaveLength(2));

    answer = () => ({ status: 503, body: { message: 'Down for a moment' } });
    const before = reads(fetchMock, '/api/timeline/2024-01');
    await waitOneRefresh();
    await waitFor(() => expect(reads(fetchMock, '/api/timeline/2024-01')).toBeGreaterThan(before));
    expect(names(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-a.jpg', 'photo-b.jpg']);
  });

  it('asks nothing while the tab is hidden', async () => {
    const fetchMock = stubFetch(timelineRoutes([makeImage('a')]));
    renderApp('/');
    await screen.findByRole('list', { name: 'Gallery' });
    const before = fetchMock.mock.calls.length;
    act(() => focusManager.setFocused(false));
    await waitOneRefresh();
    await waitOneRefresh();
    expect(fetchMock.mock.calls.length).toBe(before);
  });
});

describe('shared with me', () => {
  const sharedBy = (images: { imageId: string; imageName: string }[]) => ({
    hasAccess: images.length > 0,
    data: {
      sharedBy: images.length
        ? [{ sharedByUserName: 'bob', totalImagesShared: images.length, images: images.map((image) => ({ ...image, imageThumbnail: '/media/t.webp', tags: [] })) }]
        : [],
    },
    userAccessData: [],
  });

  it('a sharer’s page loses the images, /sharedMedia the folder', async () => {
    let answer = sharedBy([{ imageId: 'i1', imageName: 'beach.jpg' }, { imageId: 'i2', imageName: 'hills.jpg' }]);
    stubFetch({ 'GET /sharedWithMe': () => ({ body: answer }) });
    const { router } = renderApp('/sharedMedia/sharedWithMe/bob');
    const grid = await screen.findByRole('list', { name: 'Images shared by bob' });
    expect(names(grid)).toEqual(['beach.jpg', 'hills.jpg']);

    answer = sharedBy([{ imageId: 'i1', imageName: 'beach.jpg' }]);
    await waitOneRefresh();
    await waitFor(() => expect(names(screen.getByRole('list', { name: 'Images shared by bob' }))).toEqual(['beach.jpg']));

    await act(() => router.navigate('/sharedMedia'));
    expect(await screen.findByRole('list', { name: 'People who shared with me' })).toBeInTheDocument();
    answer = sharedBy([]);
    await waitOneRefresh();
    expect(await screen.findByRole('heading', { name: texts.NO_ACCESS_TITLE })).toBeInTheDocument();
  });
});

describe('one image', () => {
  it('the open detail turns into "Image not found" once the image is gone', async () => {
    let answer: StubResponse = { body: makeImage('a') };
    stubFetch({ 'GET /api/images/a': () => answer });
    renderApp('/image/a');
    expect(await screen.findByRole('img', { name: 'photo-a.jpg' })).toBeInTheDocument();

    answer = { status: 404, body: { message: 'Image not found' } };
    await waitOneRefresh();
    expect(await screen.findByRole('heading', { name: texts.IMAGE_NOT_FOUND })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'photo-a.jpg' })).not.toBeInTheDocument();
  });

  it('stays when a refresh fails for another reason', async () => {
    let answer: StubResponse = { body: makeImage('a') };
    const fetchMock = stubFetch({ 'GET /api/images/a': () => answer });
    renderApp('/image/a');
    await screen.findByRole('img', { name: 'photo-a.jpg' });

    answer = { status: 502, body: null };
    await waitOneRefresh();
    await waitFor(() => expect(reads(fetchMock, '/api/images/a')).toBe(2));
    expect(screen.getByRole('img', { name: 'photo-a.jpg' })).toBeInTheDocument();
  });
});

describe('the public share-all page', () => {
  it('empties once the link is switched off', async () => {
    let answer: StubResponse = { body: { success: true, images: [makeImage('p1')], message: '' } };
    stubFetch({ 'GET /shared-images/tok': () => answer });
    renderApp('/share-all/tok');
    expect(await screen.findByRole('list', { name: 'Shared images' })).toBeInTheDocument();

    answer = { status: 404, body: { message: 'This link is no longer active.' } };
    await waitOneRefresh();
    expect(await screen.findByText('Error: This link is no longer active.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Shared images' })).not.toBeInTheDocument();
  });
});
