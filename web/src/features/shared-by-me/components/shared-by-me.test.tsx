import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

describe('/users-i-sharedWith', () => {
  it('shows a folder per recipient: Files count and Shared With + the recipient, opening their photos', async () => {
    setToken(fakeToken());
    stubFetch({
      'GET /api/users-i-shared-with': {
        body: { sharedUsers: [{ sharedWith: 'ann@example.com', countImages: 12 }, { sharedWith: 'cy@example.com', countImages: 1 }], count: 2 },
      },
    });
    renderApp('/users-i-sharedWith');
    const folders = await screen.findByRole('list', { name: 'People I shared with' });
    const links = within(folders).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/shared-photos/ann%40example.com', '/shared-photos/cy%40example.com']);
    expect(links[0]).toHaveTextContent('Files: 12');
    expect(links[0]).toHaveTextContent('Shared With');
    expect(links[0]).toHaveTextContent('ann@example.com');
    expect(links[1]).toHaveTextContent('Files: 1');
  });

  it('shows the empty text when I shared nothing', async () => {
    setToken(fakeToken());
    stubFetch({ 'GET /api/users-i-shared-with': { body: { sharedUsers: [], count: 0 } } });
    renderApp('/users-i-sharedWith');
    expect(await screen.findByRole('heading', { name: texts.NOTHING_SHARED_YET })).toBeInTheDocument();
  });

  it('treats any failure as no shares (spec §8)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({ 'GET /api/users-i-shared-with': { status: 500, body: { message: 'down' } } });
    renderApp('/users-i-sharedWith');
    expect(await screen.findByRole('heading', { name: texts.NOTHING_SHARED_YET })).toBeInTheDocument();
  });
});

describe('/shared-photos/:userName', () => {
  const answer = {
    images: [makeImage('s1', { tags: ['beach'] }), makeImage('s2')],
    count: 2,
    accessType: 'restrictedAccess',
    userEmail: 'ann@example.com',
    sharedByName: 'bob',
  };

  it('asks for the person’s images, shows the count and opens /image/{id} with the list and context', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch({ 'POST /api/shared-with-user': { body: answer } });
    const { router } = renderApp('/shared-photos/ann%40example.com');
    const grid = await screen.findByRole('list', { name: 'Images shared with ann@example.com' });
    expect(screen.getByText('Images: 2')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/api/shared-with-user');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ userName: 'ann@example.com' });

    const tiles = within(grid).getAllByRole('link');
    expect(tiles.map((tile) => tile.getAttribute('href'))).toEqual(['/image/s1', '/image/s2']);
    await userEvent.click(tiles[1]!);
    expect(router.state.location.pathname).toBe('/image/s2');
    expect(router.state.location.state).toMatchObject({ ids: ['s1', 's2'], origin: '/shared-photos/ann%40example.com' });
  });

  it('says no images were shared with this person yet', async () => {
    setToken(fakeToken());
    stubFetch({ 'POST /api/shared-with-user': { body: { ...answer, images: [], count: 0 } } });
    renderApp('/shared-photos/ann%40example.com');
    expect(await screen.findByRole('heading', { name: texts.NO_IMAGES_FOR_USER })).toBeInTheDocument();
    expect(screen.getByText('Images: 0')).toBeInTheDocument();
  });

  it('on failure empties the list, says so and leads back to the shared folders', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({ 'POST /api/shared-with-user': { status: 500, body: { message: 'down' } } });
    const { router } = renderApp('/shared-photos/ann%40example.com');
    expect(await screen.findByRole('heading', { name: texts.SHARED_WITH_USER_FAILED })).toBeInTheDocument();
    expect(screen.getByText('Images: 0')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: /Images shared with/ })).not.toBeInTheDocument();
    const back = screen.getByRole('link', { name: 'Back to Shared Folders' });
    expect(back).toHaveAttribute('href', '/my-shared-photos');
    await userEvent.click(back);
    // /my-shared-photos is where spec §2 sends it; the app forwards it to the folders.
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/users-i-sharedWith'));
  });
});
