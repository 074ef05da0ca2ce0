import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Image } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';
import { filterChoices } from './tagged-images';

const profile = (overrides: { profileImage?: string | null; userUploadedImages?: Image[] } = {}) => ({
  id: 'u1', username: 'ada', name: 'ada', email: 'ada@example.com', role: 'user', bulkTags: [], emailConfirmed: true,
  profileImage: overrides.profileImage ?? null, image: overrides.profileImage ?? null,
  userUploadedImages: overrides.userUploadedImages ?? [],
});

const tagged = [
  { image: makeImage('t1'), tags: ['Beach', 'sun'] },
  { image: makeImage('t2'), tags: ['city'] },
  { image: makeImage('t3'), tags: ['beach', 'dog'] },
];

function stubProfile(overrides: Parameters<typeof profile>[0] = {}) {
  return stubFetch({
    'GET /api/profile': { body: profile(overrides) },
    'GET /my-liked-images': { body: { data: [makeImage('f1')] } },
    'GET /mytagged-imgs': { body: { data: tagged } },
    'GET /user-tags': { body: { data: ['beach', 'city', 'dog', 'gone'] } },
  });
}

const tileNames = (list: HTMLElement) => within(list).getAllByRole('img').map((img) => img.getAttribute('alt'));

describe('profile', () => {
  it('shows the default avatar, the username, the two buttons and the tab counts; no Uploaded tab without uploads', async () => {
    setToken(fakeToken());
    stubProfile();
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'ada' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Default avatar' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Profile' })).toHaveAttribute('href', '/editProfile');
    expect(screen.getByRole('link', { name: 'Upload Images' })).toHaveAttribute('href', '/uploadImages');
    await waitFor(() =>
      expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['My Favorite Images (1)', 'My Tagged Images (3)']),
    );
  });

  it('shows the profile picture and the Uploaded Images tab when there are uploads', async () => {
    setToken(fakeToken());
    stubProfile({ profileImage: '/media/profiles/ada.webp', userUploadedImages: [makeImage('u1'), makeImage('u2')] });
    renderApp('/profile');
    expect(await screen.findByRole('img', { name: 'Profile picture' })).toHaveAttribute('src', '/media/profiles/ada.webp');
    expect(await screen.findByRole('tab', { name: 'Uploaded Images (2)' })).toBeInTheDocument();
  });

  it('filters My Tagged Images by one of my tags, ignoring case; switching tabs clears the filter', async () => {
    setToken(fakeToken());
    stubProfile();
    renderApp('/profile?tab=tagged');
    const user = userEvent.setup();
    const select = await screen.findByRole('combobox', { name: 'Filter By' });
    // My tags (GET /user-tags) that are on these images: 'gone' is on none, 'sun' is someone else's.
    await waitFor(() =>
      expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['All My Tags', 'beach', 'city', 'dog']),
    );
    expect(tileNames(screen.getByRole('list', { name: 'My Tagged Images' }))).toEqual(['photo-t1.jpg', 'photo-t2.jpg', 'photo-t3.jpg']);

    await user.selectOptions(select, 'beach');
    expect(select).toHaveDisplayValue('beach');
    expect(tileNames(screen.getByRole('list', { name: 'My Tagged Images' }))).toEqual(['photo-t1.jpg', 'photo-t3.jpg']);

    await user.click(screen.getByRole('tab', { name: 'My Favorite Images (1)' }));
    await user.click(screen.getByRole('tab', { name: 'My Tagged Images (3)' }));
    expect(await screen.findByRole('combobox', { name: 'Filter By' })).toHaveDisplayValue('All My Tags');
    expect(tileNames(screen.getByRole('list', { name: 'My Tagged Images' }))).toHaveLength(3);
  });

  it('offers every tag of the tagged images when GET /user-tags has none of them', () => {
    expect(filterChoices([], tagged)).toEqual(['beach', 'city', 'dog', 'sun']);
    expect(filterChoices(['CITY'], tagged)).toEqual(['CITY']);
  });
});
