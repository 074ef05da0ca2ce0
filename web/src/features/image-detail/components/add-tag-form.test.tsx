import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MAX_TAG_LENGTH, type Image } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

type Stubs = Parameters<typeof stubFetch>[0];

/** The tag box of an image's detail (the shared detail holds the same form as the modal). */
function openTagBox(image: Image = makeImage('x'), stubs: Stubs = {}) {
  setToken(fakeToken());
  const fetchMock = stubFetch({
    [`GET /api/images/${image._id}`]: { body: image },
    [`GET /isUserInPhoto/${image._id}`]: { body: { isUserInPhoto: false } },
    ...stubs,
  });
  renderApp(`/shared/image/${image._id}`);
  return { fetchMock, user: userEvent.setup(), input: () => screen.findByRole('textbox', { name: 'New tag' }) };
}

const addTagBodies = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([url]) => String(url) === '/images/x/addTag').map(([, init]) => JSON.parse(String(init?.body)) as unknown);
const suggestionQueries = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/search/suggestions'));

describe('the detail’s tag box', () => {
  it('drops a "#" typed before the tag: the box shows one already', async () => {
    const { fetchMock, user, input } = openTagBox(makeImage('x'), {
      'POST /images/x/addTag': ({ init }) => ({ body: { tags: [(JSON.parse(String(init?.body)) as { tag: string }).tag] } }),
      'GET /api/search/suggestions': { body: ['hashtag'] },
    });
    await user.type(await input(), '##hash');
    // Suggestions are asked for the tag itself, not with the "#".
    await waitFor(() => expect(suggestionQueries(fetchMock)).toContain('/api/search/suggestions?query=hash'));
    expect(suggestionQueries(fetchMock).some((url) => url.includes('%23'))).toBe(false);
    await user.keyboard('{Escape}{Enter}');
    await waitFor(() => expect(addTagBodies(fetchMock)).toEqual([{ tag: 'hash' }]));
    await user.type(await input(), ' # c# {Enter}');
    await waitFor(() => expect(addTagBodies(fetchMock)).toEqual([{ tag: 'hash' }, { tag: 'c#' }]));
    // A lone "#" is no tag: nothing is sent.
    await user.type(await input(), '#{Enter}');
    expect(addTagBodies(fetchMock)).toHaveLength(2);
  });

  it(`takes at most ${MAX_TAG_LENGTH} characters, as many as a tag can have`, async () => {
    const { user, input } = openTagBox();
    const box = await input();
    expect(box).toHaveAttribute('maxLength', String(MAX_TAG_LENGTH));
    await user.type(box, 'a'.repeat(80));
    expect(box).toHaveValue('a'.repeat(MAX_TAG_LENGTH));
  });

  it('shows the server’s reason when it refuses a tag (and still logs it); typing clears it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const reason = 'tag: A tag can have at most 64 characters (counted as stored: lower-cased).';
    const { user, input } = openTagBox(makeImage('x'), { 'POST /images/x/addTag': { status: 400, body: { message: reason } } });
    await user.type(await input(), 'İİİ{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(reason);
    expect(logged).toHaveBeenCalledWith('Error adding tag:', expect.anything());
    expect(await input()).toHaveValue('İİİ');
    await user.type(await input(), 'x');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
