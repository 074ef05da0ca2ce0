import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage, scrollWindowTo, timelineRoutes } from '@/testing/images';
import { renderApp } from '@/testing/render-app';
import { MAX_SHOWN_TAGS, tagsToShow } from './tag-panel';

type Answer = { status?: number; body?: unknown };

/** A library of three photos (the timeline), the vocabulary, and the tag search answering `filter`. */
function stubFilter(filter: (tags: string[]) => Answer) {
  return stubFetch({
    ...timelineRoutes([makeImage('a'), makeImage('b'), makeImage('c')]),
    'GET /exisiting-tag': { body: { tags: ['beach', 'city', 'dog'] } },
    'POST /api/headerSearchTags': ({ init }) => filter((JSON.parse(String(init?.body)) as { query: string[] }).query),
  });
}

const tileNames = () => within(screen.getByRole('list', { name: 'Gallery' })).queryAllByRole('img').map((img) => img.getAttribute('alt'));
const timelineCalls = (mock: ReturnType<typeof stubFetch>) => mock.mock.calls.filter(([url]) => String(url).startsWith('/api/timeline')).length;

async function openPanel() {
  const user = userEvent.setup();
  await waitFor(() => expect(tileNames()).toEqual(['photo-a.jpg', 'photo-b.jpg', 'photo-c.jpg']));
  await user.click(screen.getByRole('button', { name: 'Show All Tags' }));
  const panel = await screen.findByRole('region', { name: 'Filter by tag' });
  await within(panel).findByRole('button', { name: '#beach' });
  return { user, panel };
}

describe('gallery tag filter', () => {
  it('lists every tag in a panel at most 258px tall', async () => {
    setToken(fakeToken());
    stubFilter(() => ({ body: { images: [] } }));
    renderApp('/');
    const { panel } = await openPanel();
    const list = within(panel).getByRole('list');
    expect(list).toHaveClass('max-h-[258px]', 'overflow-y-auto');
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual(['#beach', '#city', '#dog']);
  });

  it('shows the whole library’s matches for the chosen tags, stops paging, and restores the loaded list when none is chosen', async () => {
    setToken(fakeToken());
    const asked: string[][] = [];
    const fetchMock = stubFilter((tags) => {
      asked.push(tags);
      return { body: { images: tags.includes('dog') ? [makeImage('z'), makeImage('a')] : [makeImage('z')] } };
    });
    renderApp('/');
    const { user, panel } = await openPanel();
    const calls = timelineCalls(fetchMock);

    await user.click(within(panel).getByRole('button', { name: '#beach' }));
    expect(within(panel).getByRole('button', { name: '#beach' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(tileNames()).toEqual(['photo-z.jpg']));
    await user.click(within(panel).getByRole('button', { name: '#dog' }));
    await waitFor(() => expect(tileNames()).toEqual(['photo-z.jpg', 'photo-a.jpg']));
    expect(asked).toEqual([['beach'], ['beach', 'dog']]);
    // Filtered results are the whole answer: scrolling asks for no more of the library.
    act(() => scrollWindowTo(5000));
    expect(timelineCalls(fetchMock)).toBe(calls);

    await user.click(within(panel).getByRole('button', { name: '#beach' }));
    await user.click(within(panel).getByRole('button', { name: '#dog' }));
    await waitFor(() => expect(tileNames()).toEqual(['photo-a.jpg', 'photo-b.jpg', 'photo-c.jpg']));
  });

  it('says no image has the tags when the search answers 404 "No images found"', async () => {
    setToken(fakeToken());
    stubFilter(() => ({ status: 404, body: { message: 'No images found' } }));
    renderApp('/');
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: '#city' }));
    const empty = (await screen.findByRole('heading', { name: 'No images with these tags' })).closest('section')!;
    await user.click(within(empty).getByRole('button', { name: 'Reset Filter' }));
    await waitFor(() => expect(tileNames()).toEqual(['photo-a.jpg', 'photo-b.jpg', 'photo-c.jpg']));
  });

  it('goes back to the loaded list when the filter fails, and only logs it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubFilter(() => ({ status: 500, body: { message: 'down' } }));
    renderApp('/');
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: '#city' }));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Error filtering by tags:', expect.anything()));
    expect(tileNames()).toEqual(['photo-a.jpg', 'photo-b.jpg', 'photo-c.jpg']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('a large vocabulary', () => {
  it('shows a bounded list with a find box; chosen tags stay in place and always show', async () => {
    const many = Array.from({ length: MAX_SHOWN_TAGS + 50 }, (_, index) => `tag${String(index).padStart(4, '0')}`);
    const chosen = new Set(['tag0340']);
    expect(tagsToShow(many, new Set(), '').shown).toHaveLength(MAX_SHOWN_TAGS);
    expect(tagsToShow(many, new Set(), '').matching).toBe(many.length);
    const narrowed = tagsToShow(many, chosen, 'tag001');
    expect(narrowed.shown).toEqual([...Array.from({ length: 10 }, (_, index) => `tag001${index}`), 'tag0340']);
    expect(tagsToShow(many, chosen, '').shown.at(-1)).toBe('tag0340');

    setToken(fakeToken());
    stubFetch({
      ...timelineRoutes([makeImage('a')]),
      'GET /exisiting-tag': { body: { tags: many } },
    });
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show All Tags' }));
    const panel = await screen.findByRole('region', { name: 'Filter by tag' });
    await waitFor(() => expect(within(panel).getAllByRole('button')).toHaveLength(MAX_SHOWN_TAGS));
    expect(panel).toHaveTextContent(`Showing ${MAX_SHOWN_TAGS} of ${many.length} tags`);
    await user.type(within(panel).getByRole('searchbox', { name: 'Find a tag' }), 'tag0349');
    expect(within(panel).getAllByRole('button').map((button) => button.textContent)).toEqual(['#tag0349']);
  });
});
