import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TrashedImage } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

const trashed = (id: string): TrashedImage => ({
  ...makeImage(id, { trimmedURL: null, thumbnailURL: `/media/i/${id}/trash?v=u1&exp=1&sig=s` }),
  trashedAt: '2026-01-02T03:04:05.000Z',
  trashedBy: 'alice',
});

const trashAnswer = (images: TrashedImage[]) => ({
  body: { images, pagination: { currentPage: 1, hasMore: false, totalImages: images.length }, trashDays: 30 },
});

const bodyOf = (mock: ReturnType<typeof stubFetch>, key: string) => {
  const call = mock.mock.calls.find(([url, init]) => `${init?.method ?? 'GET'} ${String(url).split('?')[0]}` === key);
  return call ? JSON.parse(String(call[1]?.body ?? 'null')) : undefined;
};

describe('the Trash (/trash)', () => {
  it('lists deleted photos with their thumbnails and how long they stay', async () => {
    setToken(fakeToken());
    stubFetch({ 'GET /api/trash': trashAnswer([trashed('t2'), trashed('t1')]) });
    renderApp('/trash');
    expect(await screen.findByRole('heading', { name: 'Trash' })).toBeInTheDocument();
    const grid = screen.getByRole('list', { name: 'Photos in the Trash' });
    const tiles = within(grid).getAllByRole('listitem');
    expect(tiles).toHaveLength(2);
    expect(within(tiles[0]!).getByRole('img', { name: 'photo-t2.jpg' })).toHaveAttribute('src', '/media/i/t2/trash?v=u1&exp=1&sig=s');
    expect(screen.getByText(/deleted for good 30 days after/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restore' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete forever' })).toBeDisabled();
  });

  it('restores the selected photos', async () => {
    setToken(fakeToken());
    const mock = stubFetch({
      'GET /api/trash': trashAnswer([trashed('t2'), trashed('t1')]),
      'POST /api/trash/restore': { body: { message: 'Image restored.' } },
    });
    renderApp('/trash');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-t1.jpg' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Image restored.')).toBeInTheDocument();
    expect(bodyOf(mock, 'POST /api/trash/restore')).toEqual({ imageIds: ['t1'] });
  });

  it('deletes the selection forever, and empties the Trash, each after asking', async () => {
    setToken(fakeToken());
    const mock = stubFetch({
      'GET /api/trash': trashAnswer([trashed('t2'), trashed('t1')]),
      'POST /api/trash/delete': { body: { message: '2 images deleted for good.' } },
      'POST /api/trash/empty': { body: { message: 'The Trash is empty: 2 images deleted for good.' } },
    });
    renderApp('/trash');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Delete forever' }));
    const ask = screen.getByRole('dialog', { name: 'Delete 2 photos forever?' });
    await user.click(within(ask).getByRole('button', { name: 'Delete forever' }));
    expect(await screen.findByText('2 images deleted for good.')).toBeInTheDocument();
    expect(bodyOf(mock, 'POST /api/trash/delete')).toEqual({ imageIds: ['t2', 't1'] });

    await user.click(screen.getByRole('button', { name: 'Empty Trash' }));
    const empty = screen.getByRole('dialog', { name: 'Empty the Trash?' });
    await user.click(within(empty).getByRole('button', { name: 'Empty Trash' }));
    expect(await screen.findByText('The Trash is empty: 2 images deleted for good.')).toBeInTheDocument();
  });

  it('says so when the Trash is empty', async () => {
    setToken(fakeToken());
    stubFetch({ 'GET /api/trash': trashAnswer([]) });
    renderApp('/trash');
    expect(await screen.findByRole('heading', { name: 'The Trash is empty' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Empty Trash' })).not.toBeInTheDocument();
  });
});
