import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

type Routes = Parameters<typeof stubFetch>[0];

async function openDetail(image = makeImage('a'), routes: Routes = {}, token = fakeToken()) {
  setToken(token);
  const fetchMock = stubFetch({ [`GET /api/images/${image._id}`]: { body: image }, ...routes });
  renderApp({ pathname: `/image/${image._id}`, state: { origin: '/' } });
  const panel = await screen.findByRole('complementary', { name: 'Image actions' });
  return { fetchMock, panel, user: userEvent.setup() };
}

const bodiesTo = (mock: ReturnType<typeof stubFetch>, path: string) =>
  mock.mock.calls.filter(([url]) => String(url) === path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);
const heartFill = (panel: HTMLElement) => within(panel).getByRole('button', { name: /^(Like|Unlike)$/ }).querySelector('svg')!.getAttribute('fill');

describe('like', () => {
  it('toggles at once, sends the opposite of the current state, and takes the server’s count', async () => {
    let answer = { likes: 3, totalLikes: 3, liked: true };
    const { fetchMock, panel, user } = await openDetail(makeImage('a', { likes: 0 }), {
      'POST /images/a/like': () => ({ body: answer }),
    });
    expect(within(panel).getByText('0 Likes')).toBeInTheDocument();
    expect(heartFill(panel)).toBe('none');
    await user.click(within(panel).getByRole('button', { name: 'Like' }));
    expect(await within(panel).findByText('3 Likes')).toBeInTheDocument();
    expect(heartFill(panel)).toBe('currentColor');
    answer = { likes: 1, totalLikes: 1, liked: false };
    await user.click(within(panel).getByRole('button', { name: 'Unlike' }));
    expect(await within(panel).findByText('1 Like')).toBeInTheDocument();
    // Someone else's like still fills the heart.
    expect(heartFill(panel)).toBe('currentColor');
    expect(within(panel).getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false');
    expect(bodiesTo(fetchMock, '/images/a/like')).toEqual([{ liked: true }, { liked: false }]);
  });

  it('shows the new count before the server answers, and reverts when it fails', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail: () => void = () => {};
    const failed = new Promise<void>((resolve) => (fail = resolve));
    const { fetchMock, panel, user } = await openDetail(makeImage('a', { likes: 1 }));
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (input === '/images/a/like') {
        await failed;
        return Response.json({ message: 'down' }, { status: 500 });
      }
      return answer(input, init);
    });
    await user.click(within(panel).getByRole('button', { name: 'Like' }));
    expect(within(panel).getByText('2 Likes')).toBeInTheDocument();
    fail();
    expect(await within(panel).findByText('1 Like')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false');
    expect(logged).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('without a token stays as it was, silently, and sends nothing', async () => {
    const { fetchMock, panel, user } = await openDetail(makeImage('a', { likes: 2 }));
    clearToken();
    await user.click(within(panel).getByRole('button', { name: 'Like' }));
    expect(within(panel).getByText('2 Likes')).toBeInTheDocument();
    expect(bodiesTo(fetchMock, '/images/a/like')).toEqual([]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('tags in the detail', () => {
  it('lists the tags, suggests from 2 characters, and Enter saves the typed tag', async () => {
    let tags = ['beach'];
    const { fetchMock, panel, user } = await openDetail(makeImage('a', { tags }), {
      'GET /api/images/a': () => ({ body: makeImage('a', { tags }) }),
      'GET /api/search/suggestions': { body: ['sunset', 'sunrise'] },
      'POST /images/a/addTag': () => {
        tags = ['beach', 'sun'];
        return { body: { tags } };
      },
    });
    expect(within(within(panel).getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((tag) => tag.textContent)).toEqual(['#beach×']);
    const input = within(panel).getByRole('textbox', { name: 'New tag' });
    await user.type(input, 's');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/search/suggestions'))).toBe(false);
    await user.type(input, 'u');
    const list = await within(panel).findByRole('listbox', { name: 'Tag suggestions' });
    expect(within(list).getAllByRole('option').map((option) => option.textContent)).toEqual(['#sunset', '#sunrise']);
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/search/suggestions?query=su');
    // Nothing highlighted: Enter saves the text as typed (spec §5: Enter saves one tag).
    await user.type(input, 'n{Enter}');
    await waitFor(() => expect(within(panel).getByRole('list', { name: 'Tags' })).toHaveTextContent('#beach×#sun×'));
    expect(bodiesTo(fetchMock, '/images/a/addTag')).toEqual([{ tag: 'sun' }]);
    expect(input).toHaveValue('');
  });

  it('saves a suggestion chosen with the arrow keys, or clicked', async () => {
    const { fetchMock, panel, user } = await openDetail(makeImage('a'), {
      'GET /api/search/suggestions': { body: ['sunset', 'sunrise'] },
      'POST /images/a/addTag': ({ init }) => ({ body: { tags: [(JSON.parse(String(init?.body)) as { tag: string }).tag] } }),
    });
    const input = within(panel).getByRole('textbox', { name: 'New tag' });
    await user.type(input, 'sun');
    await within(panel).findByRole('listbox');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(bodiesTo(fetchMock, '/images/a/addTag')).toEqual([{ tag: 'sunrise' }]));
    await user.type(input, 'sun');
    await user.click(await within(panel).findByRole('option', { name: '#sunset' }));
    await waitFor(() => expect(bodiesTo(fetchMock, '/images/a/addTag')).toEqual([{ tag: 'sunrise' }, { tag: 'sunset' }]));
  });

  it('removes a tag; a refused removal shows the server’s reason and keeps the tag', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let tags = ['beach', 'sun'];
    const { fetchMock, panel, user } = await openDetail(makeImage('a', { tags }), {
      'GET /api/images/a': () => ({ body: makeImage('a', { tags }) }),
      'POST /remove-tag': ({ init }) => {
        const [name] = (JSON.parse(String(init?.body)) as { tagName: string[] }).tagName;
        if (name === 'sun') return { status: 404, body: { message: 'The tag "sun" on image a can only be removed by whoever added it.' } };
        tags = tags.filter((tag) => tag !== name);
        return { body: { message: 'Tag removed.' } };
      },
    });
    await user.click(within(panel).getByRole('button', { name: 'Remove tag beach' }));
    await waitFor(() => expect(within(panel).getByRole('list', { name: 'Tags' })).toHaveTextContent(/^#sun×$/));
    expect(bodiesTo(fetchMock, '/remove-tag')).toEqual([{ tagName: ['beach'], imageId: 'a' }]);
    await user.click(within(panel).getByRole('button', { name: 'Remove tag sun' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('can only be removed by whoever added it');
    expect(within(panel).getByRole('list', { name: 'Tags' })).toHaveTextContent('#sun×');
  });

  it('offers × only where removing can succeed: others’ tags have none, a tag I added here has one', async () => {
    let tags = ['iceland'];
    const { fetchMock, panel, user } = await openDetail(
      makeImage('a', { tags, uploadedBy: 'u1' }),
      {
        'GET /api/images/a': () => ({ body: makeImage('a', { tags, uploadedBy: 'u1' }) }),
        'POST /images/a/addTag': () => {
          tags = ['iceland', 'sunn'];
          return { body: { tags } };
        },
        'POST /remove-tag': () => {
          tags = ['iceland'];
          return { body: { message: 'Tag removed.' } };
        },
      },
      fakeToken({ id: 'u2' }),
    );
    const list = () => within(panel).getByRole('list', { name: 'Tags' });
    expect(list()).toHaveTextContent(/^#iceland$/);
    expect(within(panel).queryByRole('button', { name: /^Remove tag/ })).not.toBeInTheDocument();

    // A mistyped tag of my own can be taken back at once (typed with capitals: stored lower-case).
    await user.type(within(panel).getByRole('textbox', { name: 'New tag' }), ' Sunn {Enter}');
    await waitFor(() => expect(list()).toHaveTextContent(/^#iceland#sunn×$/));
    expect(within(panel).queryByRole('button', { name: 'Remove tag iceland' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Remove tag sunn' }));
    await waitFor(() => expect(list()).toHaveTextContent(/^#iceland$/));
    expect(bodiesTo(fetchMock, '/remove-tag')).toEqual([{ tagName: ['sunn'], imageId: 'a' }]);
  });

  it('offers × on every tag to an admin, whoever uploaded the photo', async () => {
    const { panel } = await openDetail(makeImage('a', { tags: ['iceland', 'sun'], uploadedBy: 'u1' }), {}, fakeToken({ id: 'u9', role: 'admin' }));
    expect(within(panel).getByRole('button', { name: 'Remove tag iceland' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Remove tag sun' })).toBeInTheDocument();
  });

  it('shows No tags when there are none', async () => {
    const { panel } = await openDetail(makeImage('a'));
    expect(within(panel).getByText(texts.NO_TAGS)).toBeInTheDocument();
  });
});

describe("I'm in this photo", () => {
  it('marks me once, then is disabled, and names who is in it', async () => {
    let people: string[] = ['Bob'];
    let marked = false;
    const { fetchMock, panel, user } = await openDetail(makeImage('a'), {
      'GET /isUserInPhoto/a': () => ({ body: { isUserInPhoto: marked } }),
      'GET /getTaggedUser/a': () => ({ body: people }),
      'POST /inPhoto': () => {
        marked = true;
        people = ['Bob', 'alice'];
        return { body: { message: 'ok' } };
      },
    });
    const button = within(panel).getByRole('button', { name: texts.IM_IN_THIS_PHOTO });
    await waitFor(() => expect(button).toBeEnabled());
    expect(within(panel).getByText('Bob')).toBeInTheDocument();
    await user.click(button);
    await waitFor(() => expect(button).toBeDisabled());
    expect(await within(panel).findByText('Bob, alice')).toBeInTheDocument();
    expect(bodiesTo(fetchMock, '/inPhoto')).toEqual([{ imageId: 'a' }]);
  });

  it('is disabled when I am already marked', async () => {
    const { panel } = await openDetail(makeImage('a'), { 'GET /isUserInPhoto/a': { body: { isUserInPhoto: true } } });
    await waitFor(() => expect(within(panel).getByRole('button', { name: texts.IM_IN_THIS_PHOTO })).toBeDisabled());
  });
});
