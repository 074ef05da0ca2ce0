import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage, timelineRoutes } from '@/testing/images';
import { renderApp } from '@/testing/render-app';

const VOCABULARY = ['beach', 'beach house', 'bear', 'bee', 'beetle', 'bell', 'belt', 'summer 2024', 'sun'];

/** A gallery of two images, the suggestions call answering prefix matches of VOCABULARY. */
function stubTagging(addTags: { status?: number } = {}) {
  return stubFetch({
    ...timelineRoutes([makeImage('a'), makeImage('b')]),
    'GET /api/search/suggestions': ({ url }) => {
      const query = new URL(url, 'http://x').searchParams.get('query') ?? '';
      return { body: VOCABULARY.filter((tag) => tag.startsWith(query)) };
    },
    'POST /add-tags': { status: addTags.status ?? 200, body: addTags.status ? { message: 'down' } : { message: 'Tags added.' } },
  });
}

async function openDialog(selected: string[] = ['photo-a.jpg', 'photo-b.jpg']) {
  setToken(fakeToken());
  const user = userEvent.setup();
  for (const name of selected) await user.click(await screen.findByRole('checkbox', { name: `Select ${name}` }));
  await user.click(within(screen.getByRole('toolbar', { name: 'Gallery actions' })).getByRole('button', { name: 'Add Tags' }));
  const dialog = screen.getByRole('dialog', { name: 'Add Tags' });
  return { user, dialog, input: within(dialog).getByRole('combobox') };
}

const chips = (dialog: HTMLElement) => within(within(dialog).getByRole('list', { name: 'Tags to add' })).queryAllByRole('listitem').map((chip) => chip.textContent?.replace('×', ''));
const options = () => within(screen.getByRole('listbox', { name: 'Tag suggestions' })).getAllByRole('option').map((option) => option.textContent);
const postedBodies = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([url]) => url === '/add-tags').map(([, init]) => JSON.parse(String(init?.body)) as unknown);

describe('gallery Add Tags', () => {
  it('suggests from 1 character, at most 5, leaving out chosen tags; Tab and Enter take the first', async () => {
    setToken(fakeToken());
    stubTagging();
    renderApp('/');
    const { user, dialog, input } = await openDialog();
    await waitFor(() => expect(input).toHaveFocus());
    await user.keyboard('b');
    await waitFor(() => expect(options()).toEqual(['#beach', '#beach house', '#bear', '#bee', '#beetle']));
    await user.keyboard('{Tab}');
    expect(chips(dialog)).toEqual(['#beach']);
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
    await user.type(input, 'be');
    await waitFor(() => expect(options()).toEqual(['#beach house', '#bear', '#bee', '#beetle', '#bell']));
    await user.keyboard('{Enter}');
    expect(chips(dialog)).toEqual(['#beach', '#beach house']);
  });

  it('Space commits the typed text, Backspace in the empty box removes the last tag, arrows pick another suggestion', async () => {
    setToken(fakeToken());
    stubTagging();
    renderApp('/');
    const { user, dialog, input } = await openDialog();
    await user.type(input, 'Sunny ');
    expect(chips(dialog)).toEqual(['#sunny']);
    await user.type(input, 'dog,');
    expect(chips(dialog)).toEqual(['#sunny', '#dog']);
    await user.keyboard('{Backspace}');
    expect(chips(dialog)).toEqual(['#sunny']);
    await user.type(input, 'bea');
    await waitFor(() => expect(options()).toEqual(['#beach', '#beach house', '#bear']));
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(chips(dialog)).toEqual(['#sunny', '#bear']);
  });

  it('tags a whole selection with "beach" and "summer 2024": a quoted phrase or a suggestion with a space is one tag', async () => {
    setToken(fakeToken());
    const fetchMock = stubTagging();
    renderApp('/');
    const { user, dialog, input } = await openDialog();
    await user.type(input, 'beach ');
    await user.type(input, '"summer 2024"');
    expect(chips(dialog)).toEqual(['#beach', '#summer 2024']);
    await user.click(within(dialog).getByRole('button', { name: 'Remove summer 2024' }));
    await user.type(input, 'summ');
    await waitFor(() => expect(options()).toEqual(['#summer 2024']));
    await user.keyboard('{Tab}');
    expect(chips(dialog)).toEqual(['#beach', '#summer 2024']);
    // Enter in the empty box saves.
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Tags added to 2 images.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(postedBodies(fetchMock)).toEqual([{ tags: ['beach', 'summer 2024'], imageIds: ['a', 'b'] }]);
  });

  it('saves text still in the box, split on spaces and commas', async () => {
    setToken(fakeToken());
    const fetchMock = stubTagging();
    renderApp('/');
    const { user, dialog, input } = await openDialog(['photo-a.jpg']);
    await user.click(input);
    await user.paste('Dog, cat  bird');
    expect(chips(dialog)).toEqual(['#dog', '#cat', '#bird']);
    await user.type(input, 'lake');
    await user.click(within(dialog).getByRole('button', { name: 'Save Tags' }));
    await waitFor(() => expect(postedBodies(fetchMock)).toEqual([{ tags: ['dog', 'cat', 'bird', 'lake'], imageIds: ['a'] }]));
  });

  it('asks for a tag, and says so when saving fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubTagging({ status: 500 });
    renderApp('/');
    const { user, dialog, input } = await openDialog(['photo-a.jpg']);
    await user.click(within(dialog).getByRole('button', { name: 'Save Tags' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(texts.ENTER_ONE_TAG);
    await user.type(input, 'beach ');
    await user.click(within(dialog).getByRole('button', { name: 'Save Tags' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent(texts.TAGS_SAVE_FAILED));
    expect(chips(dialog)).toEqual(['#beach']);
  });

  it('adds "#beach" typed with its "#" as beach, and shows the server’s reason beside the message when it refuses a tag', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    const reason = 'tags.1: A tag can have at most 64 characters (counted as stored: lower-cased).';
    const fetchMock = stubTagging();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      input === '/add-tags' ? Response.json({ message: reason }, { status: 400 }) : answer(input, init),
    );
    renderApp('/');
    const { user, dialog, input } = await openDialog(['photo-a.jpg']);
    await user.type(input, '#beach ');
    expect(chips(dialog)).toEqual(['#beach']);
    await user.type(input, 'x'.repeat(70));
    await user.click(within(dialog).getByRole('button', { name: 'Save Tags' }));
    const alert = await within(dialog).findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent(reason));
    expect(alert).toHaveTextContent(texts.TAGS_SAVE_FAILED);
    expect(postedBodies(fetchMock)).toEqual([{ tags: ['beach', 'x'.repeat(70)], imageIds: ['a'] }]);
  });

  it('names the tags every selected image already has, and does not suggest them', async () => {
    setToken(fakeToken());
    const fetchMock = stubTagging();
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      input === '/tags'
        ? Response.json({ uniqueTags: [{ imageId: 'a', filteredTags: ['bear', 'sun'] }, { imageId: 'b', filteredTags: ['bear'] }], commantags: ['bear'] })
        : answer(input, init),
    );
    renderApp('/');
    const { user, dialog, input } = await openDialog();
    expect(await within(dialog).findByText('Already on every selected image: #bear')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/tags').map(([, init]) => JSON.parse(String(init?.body)))).toEqual([{ imageIds: ['a', 'b'] }]);
    await user.type(input, 'be');
    await waitFor(() => expect(options()).toEqual(['#beach', '#beach house', '#bee', '#beetle', '#bell']));
  });

  it('with nothing selected, says so and sends nothing', async () => {
    setToken(fakeToken());
    const fetchMock = stubTagging();
    renderApp('/');
    const { user, dialog, input } = await openDialog([]);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(texts.SELECT_ONE_IMAGE);
    await user.type(input, 'beach{Enter}');
    expect(postedBodies(fetchMock)).toEqual([]);
  });
});
