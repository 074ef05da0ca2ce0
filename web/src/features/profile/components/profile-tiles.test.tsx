import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

const profile = {
  id: 'u1', username: 'ada', name: 'ada', email: 'ada@example.com', role: 'user',
  profileImage: null, image: null, bulkTags: [], emailConfirmed: true, userUploadedImages: [makeImage('u1')],
};

function stubProfile() {
  return stubFetch({
    'GET /api/profile': { body: profile },
    'GET /my-liked-images': { body: { data: [makeImage('f1', { tags: ['beach', 'sun'] }), makeImage('f2')] } },
    'GET /mytagged-imgs': { body: { data: [{ image: makeImage('t1'), tags: ['city'] }] } },
  });
}

describe('profile tiles', () => {
  it('show hashtags or No tags, and open the detail from the picture or the open icon', async () => {
    setToken(fakeToken());
    stubProfile();
    const { router } = renderApp('/profile');
    const grid = await screen.findByRole('list', { name: 'My Favorite Images' });
    const [first, second] = within(grid).getAllByRole('listitem');
    expect(first).toHaveTextContent('#beach #sun');
    expect(second).toHaveTextContent(texts.NO_TAGS);
    const open = within(first!).getByTitle('Open image details');
    expect(open).toHaveAttribute('href', '/image/f1');
    await userEvent.click(open);
    expect(router.state.location.pathname).toBe('/image/f1');
    expect(router.state.location.state).toEqual({ ids: ['f1', 'f2'], origin: '/profile?tab=favorites' });
    expect(await screen.findByRole('link', { name: 'Favorites' })).toHaveAttribute('href', '/profile?tab=favorites');
  });

  it('keeps the tab in the address, so the detail can name it and Back reopens it', async () => {
    setToken(fakeToken());
    stubProfile();
    const { router } = renderApp('/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Uploaded Images (1)' }));
    expect(router.state.location.search).toBe('?tab=uploaded');
    await user.click(within(await screen.findByRole('list', { name: 'Uploaded Images' })).getByRole('img', { name: 'photo-u1.jpg' }));
    expect(router.state.location.state).toMatchObject({ origin: '/profile?tab=uploaded' });
    expect(await screen.findByRole('link', { name: 'Uploaded Images' })).toHaveAttribute('href', '/profile?tab=uploaded');
    await user.keyboard('{Escape}');
    expect(await screen.findByRole('tab', { name: 'Uploaded Images (1)' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens a tab named in the address', async () => {
    setToken(fakeToken());
    stubProfile();
    renderApp('/profile?tab=tagged');
    expect(await screen.findByRole('tab', { name: 'My Tagged Images (1)' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('list', { name: 'My Tagged Images' })).toHaveTextContent('#city');
  });
});
