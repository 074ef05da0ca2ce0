import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

const bodyOf = (mock: ReturnType<typeof stubFetch>, key: string) => {
  const [method, path] = key.split(' ');
  const call = mock.mock.calls.find(([url, init]) => String(url) === path && (init?.method ?? 'GET') === method);
  return call ? (JSON.parse(String(call[1]?.body)) as unknown) : undefined;
};

describe('/all-access', () => {
  it('shares everything with one receiver, then shows origin + /share-all/ + the link’s last segment', async () => {
    setToken(fakeToken({ role: 'admin' }));
    const fetchMock = stubFetch({ 'POST /api/share-all': { body: { link: 'http://server.example/share-all/AbC123_-x' } } });
    renderApp('/all-access');
    const user = userEvent.setup();
    const input = await screen.findByPlaceholderText('Enter receiver email');
    expect(input).toHaveAttribute('type', 'email');
    await user.type(input, '  grandma@example.com ');
    await user.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText(texts.EMAIL_SENT)).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: `${window.location.origin}/share-all/AbC123_-x` });
    expect(link).toHaveAttribute('href', `${window.location.origin}/share-all/AbC123_-x`);
    expect(bodyOf(fetchMock, 'POST /api/share-all')).toEqual({ accessTo: ['grandma@example.com'] });
  });

  it('only logs a failed share: no toast, no link', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken({ role: 'admin' }));
    stubFetch({ 'POST /api/share-all': { status: 500, body: { message: 'boom' } } });
    renderApp('/all-access');
    const user = userEvent.setup();
    await user.type(await screen.findByPlaceholderText('Enter receiver email'), 'grandma@example.com');
    await user.click(screen.getByRole('button', { name: 'Share' }));
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith('Error sharing all images:', expect.anything()));
    expect(screen.queryByText(texts.EMAIL_SENT)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /share-all/ })).not.toBeInTheDocument();
  });

  it('tells a plain user that only an admin shares everything, and sends nothing', async () => {
    setToken(fakeToken({ role: 'user' }));
    const fetchMock = stubFetch();
    renderApp('/all-access');
    expect(await screen.findByText(/Only an admin can share the whole library/)).toBeInTheDocument();
    expect(screen.queryByPlaceholderText('Enter receiver email')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('share-all'))).toBe(false);
  });
});

describe('/share-all/:link (public)', () => {
  it('shows Shared Images and the thumbnails without sign-in, as plain pictures', async () => {
    const fetchMock = stubFetch({
      'GET /shared-images/tok123': { body: { success: true, images: [makeImage('p1'), makeImage('p2')], message: '' } },
    });
    const { router } = renderApp('/share-all/tok123');
    expect(await screen.findByRole('heading', { name: 'Shared Images' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Shared images' });
    expect(within(grid).getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['photo-p1.jpg', 'photo-p2.jpg']);
    expect(within(grid).queryAllByRole('link')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/share-all/tok123');
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/shared-images/tok123');
    expect(new Headers(call?.[1]?.headers).get('Authorization')).toBeNull();
  });

  it('opens a photo large: the display image, previous/next (buttons and arrows, wrapping), Escape closes', async () => {
    const photos = [makeImage('p1'), makeImage('p2'), makeImage('p3')];
    stubFetch({ 'GET /shared-images/tok123': { body: { success: true, images: photos, message: '' } } });
    const { router } = renderApp('/share-all/tok123');
    const user = userEvent.setup();
    const grid = await screen.findByRole('list', { name: 'Shared images' });
    const tile = within(grid).getByRole('button', { name: 'photo-p2.jpg' });
    await user.click(tile);
    const viewer = screen.getByRole('dialog', { name: 'Photo viewer' });
    const shown = () => within(viewer).getByRole('img');
    expect(shown()).toHaveAccessibleName('photo-p2.jpg');
    expect(shown()).toHaveAttribute('src', photos[1]!.trimmedURL);
    expect(viewer).toHaveTextContent('2 / 3');

    await user.click(within(viewer).getByRole('button', { name: 'Next photo' }));
    expect(shown()).toHaveAttribute('src', photos[2]!.trimmedURL);
    await user.click(within(viewer).getByRole('button', { name: 'Next photo' }));
    expect(shown()).toHaveAttribute('src', photos[0]!.trimmedURL);
    await user.keyboard('{ArrowLeft}');
    expect(shown()).toHaveAttribute('src', photos[2]!.trimmedURL);
    await user.click(within(viewer).getByRole('button', { name: 'Previous photo' }));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(shown()).toHaveAccessibleName('photo-p1.jpg');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(tile).toHaveFocus();
    expect(router.state.location.pathname).toBe('/share-all/tok123');
  });

  it('shows "Error: " and the server’s message when the link is no longer active', async () => {
    stubFetch({ 'GET /shared-images/old': { status: 404, body: { message: 'This link is no longer active.' } } });
    renderApp('/share-all/old');
    expect(await screen.findByText('Error: This link is no longer active.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Shared images' })).not.toBeInTheDocument();
  });

  it('shows "Error fetching images" when the server sent no message', async () => {
    stubFetch({ 'GET /shared-images/x': { status: 502, body: null } });
    renderApp('/share-all/x');
    expect(await screen.findByText(texts.SHARED_IMAGES_FAILED)).toBeInTheDocument();
  });
});

describe('/share-all/:link?confirm=<token> (from the share mail)', () => {
  const TOKEN = 'proof_abcdefghijklmnopqrstu';
  const shared = { body: { success: true, images: [makeImage('p1')], message: '' } };

  it('shows the photos as always, with an offer to confirm the address the mail went to', async () => {
    stubFetch({
      'GET /shared-images/tok123': shared,
      [`GET /api/address-proofs/${TOKEN}`]: {
        body: { email: 'grandma@example.com', state: 'pending', account: { username: 'gran', createdAt: '2024-01-01T12:00:00Z' }, next: '/' },
      },
    });
    renderApp(`/share-all/tok123?confirm=${TOKEN}`);
    const hint = await screen.findByRole('region', { name: 'Confirm your e-mail address' });
    expect(hint).toHaveTextContent('Is grandma@example.com your e-mail address? Confirm it to see shared photos in your own gallery.');
    expect(within(hint).getByRole('link', { name: 'Confirm it to see shared photos in your own gallery.' })).toHaveAttribute(
      'href',
      `/confirm-email/${TOKEN}?next=/share-all/tok123`,
    );
    expect(await screen.findByRole('list', { name: 'Shared images' })).toBeInTheDocument();
  });

  it('offers it for an address without an account too, but not for one confirmed already', async () => {
    const proof = (state: string) => ({ body: { email: 'grandma@example.com', state, account: null, next: '/' } });
    stubFetch({ 'GET /shared-images/tok123': shared, [`GET /api/address-proofs/${TOKEN}`]: proof('signup') });
    const { unmount } = renderApp(`/share-all/tok123?confirm=${TOKEN}`);
    expect(await screen.findByRole('region', { name: 'Confirm your e-mail address' })).toBeInTheDocument();
    unmount();

    stubFetch({ 'GET /shared-images/tok123': shared, [`GET /api/address-proofs/${TOKEN}`]: proof('confirmed') });
    const { client } = renderApp(`/share-all/tok123?confirm=${TOKEN}`);
    await screen.findByRole('list', { name: 'Shared images' });
    await vi.waitFor(() => expect(client.getQueryState(['address-proof', TOKEN])?.status).toBe('success'));
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail address' })).not.toBeInTheDocument();
  });

  it('shows nothing more when the link’s proof is unknown, used or expired', async () => {
    stubFetch({
      'GET /shared-images/tok123': shared,
      [`GET /api/address-proofs/${TOKEN}`]: { status: 404, body: { message: 'Unknown link.' } },
    });
    const { client } = renderApp(`/share-all/tok123?confirm=${TOKEN}`);
    await screen.findByRole('list', { name: 'Shared images' });
    await vi.waitFor(() => expect(client.getQueryState(['address-proof', TOKEN])?.status).toBe('error'));
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail address' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
