import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { texts } from '@photo/contract';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage } from '@/testing/images';
import { renderApp } from '@/testing/render-app';
import { parseCustomTags } from './custom-tags-form';

const bodiesTo = (mock: ReturnType<typeof stubFetch>, path: string) =>
  mock.mock.calls.filter(([url]) => String(url) === path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

describe('search results (/search/:query)', () => {
  it('shows a loading state, then the images carrying the searched tag', async () => {
    setToken(fakeToken());
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = stubFetch({ 'POST /api/headerSearchTags': { body: { images: [makeImage('a', { tags: ['red car'] })] } } });
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (input === '/api/headerSearchTags') await answered;
      return answer(input, init);
    });
    renderApp('/search/red%20car');
    expect(await screen.findByText('Searching...')).toBeInTheDocument();
    release();
    const grid = await screen.findByRole('list', { name: 'Search results for red car' });
    expect(within(grid).getByRole('listitem')).toHaveTextContent('#red car');
    expect(bodiesTo(fetchMock, '/api/headerSearchTags')).toEqual([{ query: 'red car' }]);
  });

  it.each([
    ['a "No images found" answer', { body: { message: 'No images found' } }],
    ['a 404', { status: 404, body: { message: 'No images found' } }],
  ])('shows No results found for %s, with a way back', async (_, answer) => {
    setToken(fakeToken());
    stubFetch({ 'POST /api/headerSearchTags': answer });
    renderApp('/search/zebra');
    expect(await screen.findByRole('heading', { name: texts.NO_RESULTS_TITLE })).toBeInTheDocument();
    expect(screen.getByText(texts.NO_RESULTS_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Gallery' })).toHaveAttribute('href', '/');
  });

  it('adds comma-separated custom tags, trimmed and lower-cased, to the selected images only', async () => {
    setToken(fakeToken());
    let tagged = false;
    const fetchMock = stubFetch({
      'POST /api/headerSearchTags': () => ({
        body: { images: [makeImage('a', { tags: tagged ? ['beach', 'summer 2024'] : ['beach'] }), makeImage('b', { tags: ['beach'] })] },
      }),
      'POST /api/addUserTags': () => {
        tagged = true;
        return { body: { message: 'Tags added.' } };
      },
    });
    renderApp('/search/beach');
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Custom tags for 0 selected');
    await user.type(field, 'x');
    await user.click(screen.getByRole('button', { name: 'Add Tags' }));
    expect(screen.getByRole('alert')).toHaveTextContent(texts.SELECT_ONE_IMAGE);
    expect(bodiesTo(fetchMock, '/api/addUserTags')).toEqual([]);

    await user.click(screen.getByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.clear(field);
    await user.type(field, ' Summer 2024 , ,BEACH');
    await user.click(screen.getByRole('button', { name: 'Add Tags' }));
    expect(await screen.findByText('Tags added to 1 image.')).toBeInTheDocument();
    expect(bodiesTo(fetchMock, '/api/addUserTags')).toEqual([{ tags: ['summer 2024', 'beach'], imageIds: ['a'] }]);
    const grid = screen.getByRole('list', { name: 'Search results for beach' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')[0]).toHaveTextContent('#beach #summer 2024'));
    expect(screen.getByRole('checkbox', { name: 'Select photo-a.jpg' })).not.toBeChecked();
  });

  it('asks for a tag, and says so when saving fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFetch({
      'POST /api/headerSearchTags': { body: { images: [makeImage('a')] } },
      'POST /api/addUserTags': { status: 500, body: { message: 'down' } },
    });
    renderApp('/search/beach');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Add Tags' }));
    expect(screen.getByRole('alert')).toHaveTextContent(texts.ENTER_ONE_TAG);
    await user.type(screen.getByLabelText('Custom tags for 1 selected'), 'sea');
    await user.click(screen.getByRole('button', { name: 'Add Tags' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(texts.TAGS_SAVE_FAILED));
  });

  it('parses custom tags', () => {
    expect(parseCustomTags(' A, b ,a,, C d ')).toEqual(['a', 'b', 'c d']);
  });

  it('drops a leading "#" from custom tags (tags are shown with one)', () => {
    expect(parseCustomTags('#Beach, ## sun, c#, #')).toEqual(['beach', 'sun', 'c#']);
  });

  it('shows the server’s reason beside the message when it refuses a custom tag', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    const reason = 'tags.0: A tag can have at most 64 characters (counted as stored: lower-cased).';
    stubFetch({
      'POST /api/headerSearchTags': { body: { images: [makeImage('a')] } },
      'POST /api/addUserTags': { status: 400, body: { message: reason } },
    });
    renderApp('/search/beach');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select photo-a.jpg' }));
    await user.type(screen.getByLabelText('Custom tags for 1 selected'), 'y'.repeat(80));
    await user.click(screen.getByRole('button', { name: 'Add Tags' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(reason));
    expect(screen.getByRole('alert')).toHaveTextContent(texts.TAGS_SAVE_FAILED);
  });
});
