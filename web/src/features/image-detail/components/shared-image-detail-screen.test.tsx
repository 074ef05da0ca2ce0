import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts, type Image } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';
import { DATE_PLACEHOLDER } from './shared-image-detail-screen';

type Stubs = Parameters<typeof stubFetch>[0];

function open(image: Image, stubs: Stubs = {}) {
  setToken(fakeToken());
  const fetchMock = stubFetch({
    [`GET /api/images/${image._id}`]: { body: image },
    [`GET /isUserInPhoto/${image._id}`]: { body: { isUserInPhoto: false } },
    ...stubs,
  });
  renderApp(`/shared/image/${image._id}`);
  return { fetchMock, user: userEvent.setup() };
}

const likeText = () => screen.getByText(/^\d+ Likes?$/);
const heart = () => screen.getByRole('button', { name: /^(Like|Unlike)$/ });
const likeBodies = (mock: ReturnType<typeof stubFetch>, id: string) =>
  mock.mock.calls.filter(([url]) => String(url) === `/images/${id}/like`).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

describe('/shared/image/:id', () => {
  it('shows the large image, its name, the date line, I’m in this photo, Tags with the add form and the likes', async () => {
    open(makeImage('x', { imageName: 'beach.jpg', tags: ['sea'], customTags: ['family', 'sea'], likes: 0 }));
    expect(await screen.findByRole('heading', { level: 1, name: 'beach.jpg' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'beach.jpg' })).toHaveAttribute('src', makeImage('x').trimmedURL);
    expect(screen.getByText(DATE_PLACEHOLDER)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: texts.IM_IN_THIS_PHOTO })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Tags' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Add a new tag')).toBeInTheDocument();
    expect(screen.getByText('#', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['#sea', '#family']);
    expect(likeText()).toHaveTextContent('0 Likes');
    expect(heart().querySelector('svg')).toHaveAttribute('fill', 'none');
  });

  it('shows when the photo was taken, if it says so', async () => {
    open(makeImage('x', { takenAt: '2021-07-04T10:00:00Z' }));
    expect(await screen.findByText(/^Taken .*2021/)).toBeInTheDocument();
    expect(screen.queryByText(DATE_PLACEHOLDER)).not.toBeInTheDocument();
  });

  it('likes with the opposite of the current state; the server’s userAccessData replaces the record', async () => {
    const image = makeImage('x', { likes: 0, liked: false });
    const { fetchMock, user } = open(image, {
      'POST /images/x/like': {
        body: { likes: 3, totalLikes: 3, liked: true, userAccessData: { ...image, likes: 3, liked: true, customTags: ['from-server'] } },
      },
    });
    await screen.findByText('0 Likes');
    await user.click(heart());
    expect(await screen.findByText('3 Likes')).toBeInTheDocument();
    expect(screen.getByText('#from-server')).toBeInTheDocument();
    expect(heart()).toHaveAttribute('aria-pressed', 'true');
    expect(heart().querySelector('svg')).toHaveAttribute('fill', 'currentColor');
    expect(likeBodies(fetchMock, 'x')).toEqual([{ liked: true }]);
  });

  it('says "1 Like" and unlikes with liked: false when there is no record in the answer', async () => {
    const { fetchMock, user } = open(makeImage('x', { likes: 2, liked: true }), {
      'POST /images/x/like': { body: { likes: 1, totalLikes: 1, liked: false } },
    });
    await screen.findByText('2 Likes');
    await user.click(heart());
    expect(await screen.findByText('1 Like')).toBeInTheDocument();
    expect(heart()).toHaveAttribute('aria-pressed', 'false');
    expect(likeBodies(fetchMock, 'x')).toEqual([{ liked: false }]);
  });

  it('shows the like at once and reverts it when the server refuses, only logging', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    let refuse: () => void = () => {};
    const refused = new Promise<void>((resolve) => (refuse = resolve));
    const { fetchMock, user } = open(makeImage('x', { likes: 0 }));
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input) === '/images/x/like') {
        await refused;
        return new Response(JSON.stringify({ message: 'no' }), { status: 500, headers: { 'Content-Type': 'application/json' } });
      }
      return answer(input, init);
    });
    await screen.findByText('0 Likes');
    await user.click(heart());
    expect(screen.getByText('1 Like')).toBeInTheDocument();
    refuse();
    expect(await screen.findByText('0 Likes')).toBeInTheDocument();
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Error updating like:', expect.anything()));
  });

  it('adds a tag with Add and shows it once the image is read again', async () => {
    let image = makeImage('x');
    const { fetchMock, user } = open(image, {
      'GET /api/images/x': () => ({ body: image }),
      'POST /images/x/addTag': ({ init }) => {
        // The server keeps tags lower-case (DECISIONS §3).
        image = { ...image, customTags: [(JSON.parse(String(init?.body)) as { tag: string }).tag.toLowerCase()] };
        return { body: { tags: image.customTags } };
      },
    });
    await user.type(await screen.findByPlaceholderText('Add a new tag'), 'Grandma');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('#grandma')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === '/images/x/addTag').map(([, init]) => JSON.parse(String(init?.body)) as unknown)).toEqual([{ tag: 'Grandma' }]);
    expect(screen.getByPlaceholderText('Add a new tag')).toHaveValue('');
  });

  it('says Image not found for an image I cannot see', async () => {
    setToken(fakeToken());
    stubFetch();
    renderApp('/shared/image/nope');
    expect(await screen.findByRole('heading', { name: texts.IMAGE_NOT_FOUND })).toBeInTheDocument();
  });
});
