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
