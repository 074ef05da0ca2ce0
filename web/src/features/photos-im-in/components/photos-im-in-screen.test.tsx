import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

describe("photos I'm in (/photos-i'm-in)", () => {
  it('shows each photo with its tags or No tags; a click opens the detail with the list and the origin', async () => {
    setToken(fakeToken());
    stubFetch({
      'GET /photosUserTaggedIn': {
        body: {
          data: [
            { id: 'p1', imageUrl: '/media/p1-thumb.webp', imageName: 'party.jpg', tags: ['friends', 'cake'] },
            { id: 'p2', imageUrl: '/media/p2-thumb.webp', imageName: 'hike.jpg', tags: [] },
          ],
        },
      },
      'GET /api/images/p2': { body: makeImage('p2') },
    });
    const { router } = renderApp("/photos-i'm-in");
    const grid = await screen.findByRole('list', { name: "Photos I'm in" });
    const [first, second] = within(grid).getAllByRole('listitem');
    expect(within(first!).getByRole('img', { name: 'party.jpg' })).toHaveAttribute('src', '/media/p1-thumb.webp');
    expect(first).toHaveTextContent('#friends #cake');
    expect(second).toHaveTextContent(texts.NO_TAGS);
    await userEvent.click(within(second!).getByRole('img', { name: 'hike.jpg' }));
    expect(router.state.location.pathname).toBe('/image/p2');
    expect(router.state.location.state).toEqual({ ids: ['p1', 'p2'], origin: "/photos-i'm-in" });
  });
});
