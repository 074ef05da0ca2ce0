import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage as image, pagedAnswer, scrollWindowTo } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

function stubGallery(overrides: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /api/gridimages': ({ url }) => {
      const page = new URL(url, 'http://x').searchParams.get('page');
      return page === '1'
        ? { body: { images: [image('a'), image('b', { trimmedURL: null }), image('c', { imageName: 'DISABLED-c' })], pagination: { currentPage: 1, hasMore: true, totalImages: 4 } } }
        : { body: { images: [image('d')], pagination: { currentPage: 2, hasMore: false, totalImages: 4 } } };
    },
    ...overrides,
  });
}

const gridCalls = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/gridimages'));
const tileNames = (grid: HTMLElement) => within(grid).queryAllByRole('img').map((img) => img.getAttribute('alt'));

afterEach(() => {
  Reflect.deleteProperty(document.documentElement, 'scrollHeight');
  scrollWindowTo(0);
});

describe('gallery', () => {
  it('loads pages of 50 as the reader nears the bottom and hides unready or disabled images', async () => {
    setToken(fakeToken());
    const fetchMock = stubGallery();
    renderApp('/');
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    // jsdom has no layout, so the page is always "near the bottom": page 2 follows at once.
    await waitFor(() => expect(tileNames(grid)).toEqual(['photo-a.jpg', 'photo-d.jpg']));
    expect(gridCalls(fetchMock)).toEqual(['/api/gridimages?page=1&limit=50', '/api/gridimages?page=2&limit=50']);
    expect(within(grid).getAllByRole('link')[0]).toHaveAttribute('href', '/image/a');
  });

  it('asks for the next page only within 1000px of the page bottom (spec §9)', async () => {
    setToken(fakeToken());
    const all = Array.from({ length: 120 }, (_, index) => image(`i${index}`));
    const fetchMock = stubFetch({ 'GET /api/gridimages': ({ url }) => pagedAnswer(all, url) });
    Object.defineProperty(document.documentElement, 'scrollHeight', { value: 10_000, configurable: true });
    renderApp('/');
    await screen.findByRole('list', { name: 'Gallery' });
    // jsdom's window is 768px tall: 768 + 8200 is 1032px from the bottom, 768 + 8240 is 992px.
    act(() => scrollWindowTo(8200));
    expect(gridCalls(fetchMock)).toHaveLength(1);
    act(() => scrollWindowTo(8240));
    await waitFor(() => expect(gridCalls(fetchMock)).toEqual(['/api/gridimages?page=1&limit=50', '/api/gridimages?page=2&limit=50']));
  });

  it('shows 12 skeletons while the first page loads, then "Loading more images..." while the next one does', async () => {
    setToken(fakeToken());
    let releaseFirst: () => void = () => {};
    let releaseSecond: () => void = () => {};
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    const second = new Promise<void>((resolve) => (releaseSecond = resolve));
    const fetchMock = stubGallery();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.includes('page=1')) await first;
      if (url.includes('page=2')) await second;
      return answer(input, init);
    });
    renderApp('/');
    await waitFor(() => expect(screen.getAllByTestId('grid-skeleton')).toHaveLength(12));
    releaseFirst();
    expect(await screen.findByText(texts.LOADING_MORE)).toBeInTheDocument();
    expect(screen.queryByTestId('grid-skeleton')).not.toBeInTheDocument();
    releaseSecond();
    await waitFor(() => expect(screen.queryByText(texts.LOADING_MORE)).not.toBeInTheDocument());
  });

  it('keeps only the rows near the viewport in the DOM, however many images are loaded', async () => {
    setToken(fakeToken());
    const all = Array.from({ length: 1000 }, (_, index) => image(`i${index}`));
    stubFetch({ 'GET /api/gridimages': { body: { images: all, pagination: { currentPage: 1, hasMore: false, totalImages: 1000 } } } });
    renderApp('/');
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    await waitFor(() => expect(tileNames(grid)).toContain('photo-i0.jpg'));
    const tiles = within(grid).getAllByRole('listitem');
    expect(tiles.length).toBeLessThan(60);
    expect(tiles[0]).toHaveAttribute('aria-setsize', '1000');
    // The list is as tall as all its rows, so the page scrolls as if every image were there.
    expect(parseFloat(grid.style.height)).toBeGreaterThan(40_000);

    act(() => scrollWindowTo(40_000));
    await waitFor(() => expect(tileNames(grid)).not.toContain('photo-i0.jpg'));
    const positions = within(grid).getAllByRole('listitem').map((tile) => Number(tile.getAttribute('aria-posinset')));
    expect(Math.min(...positions)).toBeGreaterThan(300);
    expect(positions.length).toBeLessThan(60);
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

  it('deletes the selected images after confirmation: gone from the grid, with the server’s message', async () => {
    setToken(fakeToken());
    const fetchMock = stubGallery({ 'POST /api/deleteImages': { body: { message: '1 image deleted.' } } });
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Gallery actions' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 image?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('1 image deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(tileNames(screen.getByRole('list', { name: 'Gallery' }))).toEqual(['photo-d.jpg']);
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/deleteImages');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ imageIds: ['a'] });
    // The loaded pages are not fetched again.
    expect(gridCalls(fetchMock)).toHaveLength(2);
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
