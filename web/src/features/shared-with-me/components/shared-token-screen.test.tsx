import { screen, within } from '@testing-library/react';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

describe('/shared/:token', () => {
  it('shows Loading..., then lazy thumbnails linking to /image/{id}', async () => {
    setToken(fakeToken());
    stubFetch({ 'GET /shared-images': { body: { images: [makeImage('s1'), makeImage('s2')], message: '' } } });
    renderApp('/shared/tok');
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Shared images' });
    expect(within(grid).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/image/s1', '/image/s2']);
    expect(within(grid).getByRole('img', { name: 'photo-s1.jpg' })).toHaveAttribute('src', makeImage('s1').thumbnailURL);
  });

  it('shows the server’s message when nothing is shared', async () => {
    setToken(fakeToken());
    stubFetch({ 'GET /shared-images': { body: { images: [], message: 'Nothing has been shared with you.' } } });
    renderApp('/shared/tok');
    expect(await screen.findByText('Nothing has been shared with you.')).toBeInTheDocument();
  });

  it('shows the server’s message, or the fallback, when the call fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({ 'GET /shared-images': { status: 500, body: null } });
    renderApp('/shared/tok');
    expect(await screen.findByText(texts.SHARED_IMAGES_FAILED)).toBeInTheDocument();
  });
});
