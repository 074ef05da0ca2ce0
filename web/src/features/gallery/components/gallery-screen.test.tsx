import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Image } from '@photo/contract';
import { texts } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

function image(id: string, overrides: Partial<Image> = {}): Image {
  return {
    _id: id, imageName: `photo-${id}.jpg`, FileName: `photo-${id}.jpg`,
    trimmedURL: `/media/${id}.jpg`, thumbnailURL: `/media/${id}-thumb.jpg`, placeholder: null,
    width: 10, height: 10, takenAt: null, camera: null, gps: null,
    tags: [], allTags: [], customTags: [], likes: 0, liked: false, uploadedBy: 'u1', createdAt: '2024-01-01T00:00:00Z',
    ...overrides,
  };
}

function stubGallery() {
  return stubFetch({
    'GET /api/gridimages': ({ url }) => {
      const page = new URL(url, 'http://x').searchParams.get('page');
      return page === '1'
        ? { body: { images: [image('a'), image('b', { trimmedURL: null }), image('c', { imageName: 'DISABLED-c' })], pagination: { currentPage: 1, hasMore: true, totalImages: 4 } } }
        : { body: { images: [image('d')], pagination: { currentPage: 2, hasMore: false, totalImages: 4 } } };
    },
  });
}

describe('gallery', () => {
  it('loads pages of 50 as the reader nears the bottom and hides unready or disabled images', async () => {
    setToken(fakeToken());
    const fetchMock = stubGallery();
    renderApp('/');
    const grid = await screen.findByRole('list', { name: 'Gallery' });
    // jsdom has no layout, so the page is always "near the bottom": page 2 follows at once.
    await waitFor(() => expect(within(grid).getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['photo-a.jpg', 'photo-d.jpg']));
    const gridCalls = fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/gridimages'));
    expect(gridCalls).toEqual(['/api/gridimages?page=1&limit=50', '/api/gridimages?page=2&limit=50']);
    expect(within(grid).getAllByRole('link')[0]).toHaveAttribute('href', '/image/a');
  });

  it('enables the selection actions once an image is selected, and Select All toggles', async () => {
    setToken(fakeToken());
    stubGallery();
    renderApp('/');
    const user = userEvent.setup();
    await screen.findByRole('checkbox', { name: 'Select photo-d.jpg' });
    const bar = screen.getByRole('toolbar', { name: 'Gallery actions' });
    expect(within(bar).getByRole('button', { name: 'Delete' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select photo-a.jpg' }));
    for (const name of ['Add Tags', 'Delete', 'Selective Access']) expect(within(bar).getByRole('button', { name })).toBeEnabled();
    await user.click(within(bar).getByRole('button', { name: 'Select All' }));
    expect(screen.getByRole('checkbox', { name: 'Select photo-d.jpg' })).toBeChecked();
    await user.click(within(bar).getByRole('button', { name: 'Deselect All' }));
    expect(screen.getByRole('checkbox', { name: 'Select photo-a.jpg' })).not.toBeChecked();
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
