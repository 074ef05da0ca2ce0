import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage as image, timelineRoutes } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

/** Four photos of January 2024; the gallery hides b (no display image yet) and c (named "disabled", spec §3). */
const library = () => [image('a'), image('b', { trimmedURL: null }), image('c', { imageName: 'DISABLED-c' }), image('d')];

function stubGallery(overrides: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({ ...timelineRoutes(library()), ...overrides });
}

const timelineCalls = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/timeline'));
const tileNames = (grid: HTMLElement) => within(grid).queryAllByRole('img').map((img) => img.getAttribute('alt'));
const at = (id: string, sortedAt: string) => image(id, { sortedAt, dateSource: 'taken' });

describe('gallery', () => {
  it('shows the timeline: newest first under month and day headers, without unready or disabled images', async () => {
    setToken(fakeToken());
    const photos = [
      at('a', '2015-03-14T18:00:00.000Z'),
      at('b', '2015-03-14T09:00:00.000Z'),
      at('hidden', '2015-03-14T08:00:00.000Z'),
      at('c', '2015-03-02T12:00:00.000Z'),
      at('d', '2014-12-31T23:59:59.000Z'),
    ];
    photos[2] = { ...photos[2]!, trimmedURL: null };
    const fetchMock = stubFetch(timelineRoutes(photos));
    renderApp('/');
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    await waitFor(() => expect(tileNames(grid)).toEqual(['photo-a.jpg', 'photo-b.jpg', 'photo-c.jpg', 'photo-d.jpg']));
    expect(within(grid).getAllByRole('heading').map((heading) => heading.textContent)).toEqual([
      'March 2015',
      'Sat, 14 March',
      'Mon, 2 March',
      'December 2014',
      'Wed, 31 December',
    ]);
    expect(timelineCalls(fetchMock)).toEqual(['/api/timeline', '/api/timeline/2015-03?page=1&limit=100', '/api/timeline/2014-12?page=1&limit=100']);
    expect(within(grid).getAllByRole('link')[0]).toHaveAttribute('href', '/image/a');
    expect(within(grid).getAllByRole('listitem').map((tile) => tile.getAttribute('aria-posinset'))).toEqual(['1', '2', '3', '4']);
    expect(screen.getByRole('slider', { name: 'Timeline scrubber' })).toHaveAttribute('aria-valuetext', 'March 2015, 3 photos');
  });

  it('shows 12 skeletons while the timeline loads, then "Loading more images..." while its photos do', async () => {
    setToken(fakeToken());
    let releaseTimeline: () => void = () => {};
    let releaseMonth: () => void = () => {};
    const timeline = new Promise<void>((resolve) => (releaseTimeline = resolve));
    const month = new Promise<void>((resolve) => (releaseMonth = resolve));
    const fetchMock = stubGallery();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url === '/api/timeline') await timeline;
      if (url.startsWith('/api/timeline/')) await month;
      return answer(input, init);
    });
    renderApp('/');
    await waitFor(() => expect(screen.getAllByTestId('grid-skeleton')).toHaveLength(12));
    releaseTimeline();
    expect(await screen.findByText(texts.LOADING_MORE)).toBeInTheDocument();
    expect(screen.queryByTestId('grid-skeleton')).not.toBeInTheDocument();
    releaseMonth();
    await waitFor(() => expect(screen.queryByText(texts.LOADING_MORE)).not.toBeInTheDocument());
    expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-a.jpg', 'photo-d.jpg']);
  });

  it('keeps only the rows near the viewport in the DOM, and loads a month page by page as its rows come near', async () => {
    setToken(fakeToken());
    const all = Array.from({ length: 1000 }, (_, index) => image(`i${index}`));
    const fetchMock = stubFetch(timelineRoutes(all));
    renderApp('/');
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    await waitFor(() => expect(tileNames(grid)).toContain('photo-i0.jpg'));
    // The month's first page covers the screen and the next one and a half: nothing more is asked for.
    expect(timelineCalls(fetchMock)).toEqual(['/api/timeline', '/api/timeline/2024-01?page=1&limit=100']);
    const tiles = within(grid).getAllByRole('listitem');
    expect(tiles.length).toBeLessThan(60);
    expect(tiles[0]).toHaveAttribute('aria-setsize', '1000');
    // The section is as tall as all its rows, so it scrolls as if every photo were there.
    expect(parseFloat(grid.style.height)).toBeGreaterThan(40_000);

    const scroller = grid.parentElement!;
    act(() => {
      scroller.scrollTop = 40_000;
      scroller.dispatchEvent(new Event('scroll'));
    });
    await waitFor(() => expect(tileNames(grid)).not.toContain('photo-i0.jpg'));
    await waitFor(() => expect(within(grid).queryAllByRole('listitem').length).toBeGreaterThan(0));
    const positions = within(grid).getAllByRole('listitem').map((tile) => Number(tile.getAttribute('aria-posinset')));
    expect(Math.min(...positions)).toBeGreaterThan(800);
    expect(positions.length).toBeLessThan(60);
    // 40,000px down is row 193 of 206px, photo 965: page 10 (and the screen and a half around it).
    expect(timelineCalls(fetchMock)).toContain('/api/timeline/2024-01?page=10&limit=100');
    expect(timelineCalls(fetchMock)).not.toContain('/api/timeline/2024-01?page=5&limit=100');
  });

  it('hands the detail the origin, and the list only when the view is its own (shuffled)', async () => {
    setToken(fakeToken());
    vi.spyOn(Math, 'random').mockReturnValue(0);
    stubGallery();
    const { router } = renderApp('/');
    const user = userEvent.setup();
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    await waitFor(() => expect(tileNames(grid)).toEqual(['photo-a.jpg', 'photo-d.jpg']));
    await user.click(within(grid).getByRole('img', { name: 'photo-a.jpg' }));
    expect(router.state.location.pathname).toBe('/image/a');
    // Default order: the detail steps through the whole gallery (GET /api/gridimages without page).
    expect(router.state.location.state).toEqual({ origin: '/' });

    await act(() => router.navigate(-1));
    await user.click(await screen.findByRole('button', { name: 'Randomize' }));
    await waitFor(() => expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-d.jpg', 'photo-a.jpg']));
    await user.click(screen.getByRole('img', { name: 'photo-a.jpg' }));
    expect(router.state.location.state).toEqual({ ids: ['d', 'a'], origin: '/' });
  });

  it('comes back from an image to the same shuffled order', async () => {
    setToken(fakeToken());
    vi.spyOn(Math, 'random').mockReturnValue(0);
    stubGallery();
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await waitFor(() => expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-a.jpg', 'photo-d.jpg']));
    await user.click(screen.getByRole('button', { name: 'Randomize' }));
    await user.click(screen.getByRole('img', { name: 'photo-a.jpg' }));
    await screen.findByRole('dialog', { name: 'Image detail' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(tileNames(await screen.findByRole('list', { name: 'Gallery' }))).toEqual(['photo-d.jpg', 'photo-a.jpg']);
  });

  it('Escape closes a dialog over the tag panel, not the panel', async () => {
    setToken(fakeToken());
    stubGallery({ 'GET /exisiting-tag': { body: { tags: ['beach'] } } });
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Show All Tags' }));
    await user.click(screen.getByRole('button', { name: 'Add Tags' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Filter by tag' })).toBeInTheDocument();
  });

  it('Randomize clears the tag filter; Reset Filter restores the loaded order', async () => {
    setToken(fakeToken());
    vi.spyOn(Math, 'random').mockReturnValue(0);
    stubGallery({ 'GET /exisiting-tag': { body: { tags: ['beach'] } } });
    renderApp('/');
    const user = userEvent.setup();
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    await waitFor(() => expect(tileNames(grid)).toEqual(['photo-a.jpg', 'photo-d.jpg']));
    await user.click(screen.getByRole('button', { name: 'Show All Tags' }));
    expect(await screen.findByRole('region', { name: 'Filter by tag' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Randomize' }));
    expect(screen.queryByRole('region', { name: 'Filter by tag' })).not.toBeInTheDocument();
    expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-d.jpg', 'photo-a.jpg']);
    await user.click(screen.getByRole('button', { name: 'Reset Filter' }));
    expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-a.jpg', 'photo-d.jpg']);
  });

  it('selects one, all and none; the count shows', async () => {
    setToken(fakeToken());
    stubGallery();
    renderApp('/');
    const user = userEvent.setup();
    await screen.findByRole('checkbox', { name: 'Select photo-d.jpg' });
    const bar = screen.getByRole('toolbar', { name: 'Gallery actions' });
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-a.jpg' }));
    expect(bar).toHaveTextContent('1 selected');
    await user.click(within(bar).getByRole('button', { name: 'Select All' }));
    expect(screen.getByRole('checkbox', { name: 'Select photo-d.jpg' })).toBeChecked();
    expect(bar).toHaveTextContent('2 selected');
    await user.click(within(bar).getByRole('button', { name: 'Deselect All' }));
    expect(screen.getByRole('checkbox', { name: 'Select photo-a.jpg' })).not.toBeChecked();
  });

  it.each(['Add Tags', 'Delete', 'Selective Access'])('%s with nothing selected opens its dialog and says what is missing', async (name) => {
    setToken(fakeToken());
    stubGallery();
    renderApp('/');
    const user = userEvent.setup();
    await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' });
    await user.click(within(screen.getByRole('toolbar', { name: 'Gallery actions' })).getByRole('button', { name }));
    expect(within(screen.getByRole('dialog')).getByRole('alert')).toHaveTextContent(texts.SELECT_ONE_IMAGE);
  });

  it('asks for a tag before saving Add Tags', async () => {
    setToken(fakeToken());
    stubGallery();
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Add Tags' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Tags' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Tags' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(texts.ENTER_ONE_TAG);
  });

  it('deletes the selected images after confirmation: gone from the timeline, with the server’s message', async () => {
    setToken(fakeToken());
    let photos = library();
    const fetchMock = stubFetch({
      ...timelineRoutes(() => photos),
      'POST /api/deleteImages': () => {
        photos = photos.filter((photo) => photo._id !== 'a');
        return { body: { message: '1 image deleted.' } };
      },
    });
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Gallery actions' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 image?' });
    const reads = timelineCalls(fetchMock).length;
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('1 image deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-d.jpg']);
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/deleteImages');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ imageIds: ['a'] });
    // The timeline's counts and the month on screen are read again.
    await waitFor(() => expect(timelineCalls(fetchMock).slice(reads)).toEqual(['/api/timeline', '/api/timeline/2024-01?page=1&limit=100']));
    expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-d.jpg']);
  });

  it('keeps everything and shows the server’s message when the delete is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubGallery({ 'POST /api/deleteImages': { status: 404, body: { message: 'Image photo-a.jpg cannot be deleted.' } } });
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Gallery actions' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 image?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Image photo-a.jpg cannot be deleted.');
    expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-a.jpg', 'photo-d.jpg']);
  });

  it('says up front which selected photos are not yours, and deletes only yours', async () => {
    setToken(fakeToken({ id: 'u1' }));
    const photos = [image('a'), image('d', { uploadedBy: 'u2' }), image('e', { uploadedBy: 'u2' })];
    const fetchMock = stubFetch({ ...timelineRoutes(photos), 'POST /api/deleteImages': { body: { message: 'Image deleted successfully.' } } });
    renderApp('/');
    const user = userEvent.setup();
    for (const id of ['a', 'd']) await user.click(await screen.findByRole('checkbox', { name: `Select photo-${id}.jpg` }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Gallery actions' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 of 2 images?' });
    expect(dialog).toHaveTextContent('This selected photo is not yours, so it stays: only the person who uploaded a photo can delete it.');
    expect(within(within(dialog).getByRole('list', { name: 'Not yours' })).getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['photo-d.jpg']);
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1 image' }));
    expect(await screen.findByText('Image deleted successfully.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/deleteImages');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ imageIds: ['a'] });
  });

  it('offers no Delete when none of the selected photos are yours, and sends nothing', async () => {
    setToken(fakeToken({ id: 'u1' }));
    const photos = [image('d', { uploadedBy: 'u2' }), image('e', { uploadedBy: 'u2' })];
    const fetchMock = stubFetch(timelineRoutes(photos));
    renderApp('/');
    const user = userEvent.setup();
    for (const id of ['d', 'e']) await user.click(await screen.findByRole('checkbox', { name: `Select photo-${id}.jpg` }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Gallery actions' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 images?' });
    expect(dialog).toHaveTextContent('None of these photos are yours, so you cannot delete them.');
    expect(within(dialog).getAllByRole('img')).toHaveLength(2);
    expect(within(dialog).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/deleteImages')).toBe(false);
  });

  it('lets an admin delete anyone’s photos', async () => {
    setToken(fakeToken({ id: 'u1', role: 'admin' }));
    stubFetch(timelineRoutes([image('d', { uploadedBy: 'u2' })]));
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-d.jpg' }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Gallery actions' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 image?' });
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(within(dialog).queryByRole('list', { name: 'Not yours' })).not.toBeInTheDocument();
  });

  it('Filters shows the action bar on a phone', async () => {
    setToken(fakeToken());
    stubGallery();
    renderApp('/');
    const toggle = await screen.findByRole('button', { name: 'Filters' });
    const bar = screen.getByRole('toolbar', { name: 'Gallery actions' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(bar).toHaveClass('hidden');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(bar).not.toHaveClass('hidden');
  });

  it('opens the tag panel with Show All Tags and closes it with Escape', async () => {
    setToken(fakeToken());
    stubFetch({ 'GET /exisiting-tag': { body: { tags: ['beach', 'city'] } } });
    renderApp('/');
    const user = userEvent.setup();
    const toggle = await screen.findByRole('button', { name: 'Show All Tags' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByRole('button', { name: '#beach' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Filter by tag' })).not.toBeInTheDocument();
  });
});
