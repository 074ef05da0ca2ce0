import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage, pagedAnswer } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

const names = (list: HTMLElement) => within(list).getAllByRole('img').map((img) => img.getAttribute('alt'));

describe('/library', () => {
  it('is a grid titled Image Library, loaded in pages of 50, each image opening its detail', async () => {
    setToken(fakeToken());
    const all = Array.from({ length: 60 }, (_, index) => makeImage(`l${index}`));
    const fetchMock = stubFetch({ 'GET /library': ({ url }) => pagedAnswer(all, url) });
    const { router } = renderApp('/library');
    expect(await screen.findByRole('heading', { name: 'Image Library' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search the library' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Image Library' });
    // jsdom has no layout: the reader is always near the bottom, so page 2 follows.
    await waitFor(() => expect(within(grid).getAllByRole('listitem')[0]).toHaveAttribute('aria-setsize', '60'));
    const calls = fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/library'));
    expect(calls).toEqual(['/library?page=1&limit=50', '/library?page=2&limit=50']);
    expect(within(grid).getAllByRole('link')[0]).toHaveAttribute('href', '/image/l0');
    await userEvent.click(within(grid).getByRole('img', { name: 'photo-l0.jpg' }));
    expect(router.state.location.pathname).toBe('/image/l0');
    // The paged library steps through everything visible: no list handed over.
    expect(router.state.location.state).toEqual({ origin: '/library' });
  });

  it('searches by tag or name and hands the results and the text to the detail', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch({
      'GET /library': { body: { images: [makeImage('a')], pagination: { currentPage: 1, hasMore: false, totalImages: 1 } } },
      'GET /search': ({ url }) => ({ body: { images: url.includes('query=cats') ? [makeImage('c1'), makeImage('c2')] : [] } }),
    });
    const { router } = renderApp('/library');
    const user = userEvent.setup();
    await screen.findByRole('img', { name: 'photo-a.jpg' });
    await user.type(screen.getByRole('searchbox', { name: 'Search the library' }), 'cats');
    await waitFor(() => expect(names(screen.getByRole('list', { name: 'Image Library' }))).toEqual(['photo-c1.jpg', 'photo-c2.jpg']));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/search?query=cats');
    await user.click(screen.getByRole('img', { name: 'photo-c2.jpg' }));
    expect(router.state.location.state).toEqual({ ids: ['c1', 'c2'], origin: '/library', searchText: 'cats' });

    await router.navigate(-1);
    await user.type(await screen.findByRole('searchbox', { name: 'Search the library' }), 'zzz');
    expect(await screen.findByRole('heading', { name: 'No matching images' })).toBeInTheDocument();
  });
});

describe('/random', () => {
  it('shows every visible image in a shuffled order, and the detail follows that order', async () => {
    setToken(fakeToken());
    vi.spyOn(Math, 'random').mockReturnValue(0);
    stubFetch({
      'GET /api/gridimages': { body: { images: [makeImage('a'), makeImage('b'), makeImage('x', { trimmedURL: null }), makeImage('c')] } },
    });
    const { router } = renderApp('/random');
    const grid = await screen.findByRole('list', { name: 'Random images' });
    // With random() = 0 each step swaps with the first: a b c → c a b → b c a... (Fisher–Yates).
    const order = names(grid);
    expect([...order].sort()).toEqual(['photo-a.jpg', 'photo-b.jpg', 'photo-c.jpg']);
    expect(order).not.toEqual(['photo-a.jpg', 'photo-b.jpg', 'photo-c.jpg']);
    await userEvent.click(within(grid).getAllByRole('link')[0]!);
    expect(router.state.location.state).toEqual({ ids: order.map((name) => name!.slice(6, 7)), origin: '/random' });
  });
});
