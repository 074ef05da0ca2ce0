import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

const urls = (mock: ReturnType<typeof stubFetch>) => mock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

describe('edit profile', () => {
  it('has the spec fields and buttons', async () => {
    setToken(fakeToken());
    stubFetch();
    renderApp('/editProfile');
    expect(await screen.findByRole('heading', { name: 'Update Profile' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('placeholder', 'New Username');
    expect(screen.getByLabelText('Profile Image')).toHaveAttribute('accept', 'image/*');
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/profile');
  });

  it('sends only what was filled in and always ends on /profile', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    const fetchMock = stubFetch({ 'PUT /update-profile': { status: 500, body: { message: 'down' } } });
    const { router } = renderApp('/editProfile');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name'), 'Grace');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(urls(fetchMock)).toContain('PUT /update-profile');
    expect(urls(fetchMock)).not.toContain('POST /upload-profile-image');
    const put = fetchMock.mock.calls.find(([url]) => url === '/update-profile');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ username: 'Grace' });
  });

  it('refuses a file that is not an image, and sends nothing for it', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch();
    const { router } = renderApp('/editProfile');
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(await screen.findByLabelText('Profile Image'), new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please choose an image file.');
    expect(screen.queryByRole('img', { name: 'Preview of the new profile image' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(urls(fetchMock)).not.toContain('POST /upload-profile-image');
  });

  it('uploads a chosen picture as multipart profileImage, without a name', async () => {
    setToken(fakeToken());
    const fetchMock = stubFetch({ 'POST /upload-profile-image': { body: { message: 'ok', profileImage: '/media/p.jpg' } } });
    const { router } = renderApp('/editProfile');
    const user = userEvent.setup();
    const file = new File(['x'], 'me.png', { type: 'image/png' });
    await user.upload(await screen.findByLabelText('Profile Image'), file);
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(urls(fetchMock)).not.toContain('PUT /update-profile');
    const post = fetchMock.mock.calls.find(([url]) => url === '/upload-profile-image');
    const body = post?.[1]?.body;
    expect(body).toBeInstanceOf(FormData);
    expect((body as FormData).get('profileImage')).toBeInstanceOf(File);
  });
});
