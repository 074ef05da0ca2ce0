import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch, type StubResponse } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

const sharedWithMe = {
  hasAccess: true,
  data: {
    sharedBy: [
      {
        sharedByUserName: 'bob',
        totalImagesShared: 2,
        images: [
          { imageId: 'i1', imageName: 'beach.jpg', imageThumbnail: '/media/t1.webp', tags: ['beach', 'summer'] },
          { imageId: 'i2', imageName: 'hills.jpg', imageThumbnail: '/media/t2.webp', tags: [] },
        ],
      },
      { sharedByUserName: 'Carol Ann', totalImagesShared: 7, images: [] },
    ],
  },
  userAccessData: [makeImage('i1', { width: 300, height: 600 }), makeImage('i2')],
};

function signedIn(answer: StubResponse = { body: sharedWithMe }) {
  setToken(fakeToken());
  return stubFetch({ 'GET /sharedWithMe': answer });
}

describe('/sharedMedia', () => {
  it('shows a folder per sharer: Files count, Shared By and the name, linking to their page', async () => {
    signedIn();
    renderApp('/sharedMedia');
    const folders = await screen.findByRole('list', { name: 'People who shared with me' });
    const links = within(folders).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/sharedMedia/sharedWithMe/bob',
      '/sharedMedia/sharedWithMe/Carol%20Ann',
    ]);
    expect(links[0]).toHaveTextContent('Files: 2');
    expect(links[0]).toHaveTextContent('Shared By');
    expect(links[0]).toHaveTextContent('bob');
    expect(links[1]).toHaveTextContent('Files: 7');
  });

  it('says "User has no access" when nothing is shared with me', async () => {
    signedIn({ body: { hasAccess: false, data: { sharedBy: [] }, userAccessData: [] } });
    renderApp('/sharedMedia');
    expect(await screen.findByRole('heading', { name: texts.NO_ACCESS_TITLE })).toBeInTheDocument();
    expect(screen.getByText(texts.NO_ACCESS_TEXT)).toBeInTheDocument();
  });

  it('keeps the session on a 401 from sharedWithMe (spec §4 exception)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    signedIn({ status: 401, body: { message: 'Unauthorized' } });
    const { router } = renderApp('/sharedMedia');
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sharedMedia');
    expect(window.localStorage.getItem('token')).not.toBeNull();
  });
});

describe('/sharedMedia/sharedWithMe/:userName', () => {
  it('shows the Images count, Images Collection and tiles with tags that open /image/{imageId}', async () => {
    signedIn();
    const { router } = renderApp('/sharedMedia/sharedWithMe/bob');
    expect(await screen.findByRole('heading', { name: 'Images Collection' })).toBeInTheDocument();
    expect(screen.getByText('Images: 2')).toBeInTheDocument();
    const grid = screen.getByRole('list', { name: 'Images shared by bob' });
    const tiles = within(grid).getAllByRole('link');
    expect(tiles.map((tile) => tile.getAttribute('href'))).toEqual(['/image/i1', '/image/i2']);
    expect(within(grid).getByRole('img', { name: 'beach.jpg' })).toHaveAttribute('src', '/media/t1.webp');
    expect(within(grid).getByText('#beach #summer')).toBeInTheDocument();
    expect(within(grid).getByText(texts.NO_TAGS)).toBeInTheDocument();
    // The tile takes the picture's shape from the full record (300×600 is portrait).
    expect(within(grid).getByRole('img', { name: 'beach.jpg' }).parentElement!.style.aspectRatio).toBe('300 / 600');

    await userEvent.click(tiles[0]!);
    expect(router.state.location.pathname).toBe('/image/i1');
    expect(router.state.location.state).toMatchObject({ ids: ['i1', 'i2'], origin: '/sharedMedia/sharedWithMe/bob' });
  });

  it('reads the shares again on the way back from an image, so new tags show', async () => {
    let tags = ['beach'];
    setToken(fakeToken());
    stubFetch({
      'GET /sharedWithMe': () => ({
        body: { ...sharedWithMe, data: { sharedBy: [{ ...sharedWithMe.data.sharedBy[0]!, images: [{ ...sharedWithMe.data.sharedBy[0]!.images[0]!, tags }] }] } },
      }),
    });
    const { router } = renderApp('/sharedMedia/sharedWithMe/bob');
    expect(await screen.findByText('#beach')).toBeInTheDocument();
    await router.navigate('/image/i1');
    await screen.findByRole('dialog', { name: 'Image detail' });
    tags = ['beach', 'grandpa'];
    await router.navigate(-1);
    expect(await screen.findByText('#beach #grandpa')).toBeInTheDocument();
  });

  it('counts every image shared, even when the list holds fewer', async () => {
    signedIn();
    renderApp('/sharedMedia/sharedWithMe/Carol%20Ann');
    expect(await screen.findByText('Images: 7')).toBeInTheDocument();
  });

  it('says "User Not Found" and names the sharer it could not find', async () => {
    signedIn();
    renderApp('/sharedMedia/sharedWithMe/mallory');
    expect(await screen.findByRole('heading', { name: texts.USER_NOT_FOUND })).toBeInTheDocument();
    expect(screen.getByText('No shared images were found for "mallory".')).toBeInTheDocument();
  });
});
