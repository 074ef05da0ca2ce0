import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Image, TimelineMonth } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { makeImage, timelineRoutes } from '@/testing/images';
import { renderApp } from '@/testing/render-app';
import { MAX_WINDOW_PX } from './scroll-window';

/**
 * A library of 1,000,320 photos: every month from December 2024 back to January 2005, each with 28
 * days of 148–149 photos. Month pages are made up on request, so nothing holds a million records.
 */
const MONTHS: TimelineMonth[] = (() => {
  const months: TimelineMonth[] = [];
  let offset = 0;
  for (let index = 0; index < 240; index += 1) {
    const month = `${2024 - Math.floor(index / 12)}-${String(12 - (index % 12)).padStart(2, '0')}`;
    const days = Array.from({ length: 28 }, (_, day) => [28 - day, day < 24 ? 149 : 148] as [number, number]);
    const count = days.reduce((sum, [, photos]) => sum + photos, 0);
    months.push({ month, count, offset, days });
    offset += count;
  }
  return months;
})();
const TOTAL = MONTHS.reduce((sum, month) => sum + month.count, 0);

function photoOf(month: TimelineMonth, index: number): Image {
  let first = 0;
  const [day] = month.days.find(([, count]) => (first += count) > index)!;
  return makeImage(`${month.month}-${index}`, { sortedAt: `${month.month}-${String(day).padStart(2, '0')}T12:00:00.000Z`, dateSource: 'taken' });
}

type Request = { url: string; signal: AbortSignal | undefined };

/** Stubs the timeline calls for the made-up library; `hold` keeps matching month requests waiting until aborted. */
function stubLibrary(hold: (url: string) => boolean = () => false) {
  const requests: Request[] = [];
  const fetchMock = stubFetch({ 'GET /api/timeline': { body: { totalImages: TOTAL, months: MONTHS } } });
  const answer = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const match = /^\/api\/timeline\/(\d{4}-\d{2})\?page=(\d+)&limit=(\d+)$/.exec(url);
    if (!match) return answer(input, init);
    requests.push({ url, signal: init?.signal ?? undefined });
    if (hold(url)) {
      await new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))));
    }
    const month = MONTHS.find((candidate) => candidate.month === match[1])!;
    const [page, limit] = [Number(match[2]), Number(match[3])];
    const from = (page - 1) * limit;
    const to = Math.min(month.count, from + limit);
    const images = Array.from({ length: Math.max(0, to - from) }, (_, index) => photoOf(month, from + index));
    const body = { month: month.month, count: month.count, offset: month.offset, galleryPage: 1, images, pagination: { currentPage: page, hasMore: to < month.count, totalImages: month.count } };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  return { fetchMock, requests };
}

async function openTimeline() {
  const view = renderApp('/');
  const list = await screen.findByRole('list', { name: 'Gallery' });
  const scroller = list.parentElement!;
  const section = screen.getByRole('region', { name: 'Timeline' });
  const slider = screen.getByRole('slider', { name: 'Timeline scrubber' });
  return { ...view, list, scroller, section, slider, user: userEvent.setup() };
}

const scrollTo = (scroller: HTMLElement, top: number) =>
  act(() => {
    scroller.scrollTop = top;
    scroller.dispatchEvent(new Event('scroll'));
  });
const headings = (list: HTMLElement) => within(list).queryAllByRole('heading').map((heading) => heading.textContent);
const positions = (list: HTMLElement) => within(list).queryAllByRole('listitem').map((tile) => Number(tile.getAttribute('aria-posinset')));
const nodeCount = (section: HTMLElement) => section.querySelectorAll('*').length;

describe('the timeline of a million photos', () => {
  it('stays within a bounded scroll height and DOM, and the scrubber goes to the oldest month and back', async () => {
    setToken(fakeToken());
    const { requests } = stubLibrary();
    const { list, section, slider } = await openTimeline();
    await waitFor(() => expect(positions(list)).toContain(1));
    expect(headings(list).slice(0, 2)).toEqual(['December 2024', 'Sat, 28 December']);
    expect(parseFloat(list.style.height)).toBe(MAX_WINDOW_PX);
    expect(within(list).getAllByRole('listitem')[0]).toHaveAttribute('aria-setsize', String(TOTAL));
    expect(slider).toHaveAttribute('aria-valuemax', '239');
    expect(nodeCount(section)).toBeLessThan(3000);

    // End on the scrubber: the oldest month, its first page loaded, the DOM as small as ever.
    act(() => slider.focus());
    fireEvent.keyDown(slider, { key: 'End' });
    await waitFor(() => expect(headings(list)).toContain('January 2005'));
    expect(slider).toHaveAttribute('aria-valuetext', 'January 2005, 4,168 photos');
    await waitFor(() => expect(positions(list)).toContain(TOTAL - 4168 + 1));
    expect(requests.map((request) => request.url)).toContain('/api/timeline/2005-01?page=1&limit=100');
    expect(nodeCount(section)).toBeLessThan(3000);

    // A click near the top of the track: the newest year again.
    fireEvent.pointerDown(slider, { clientY: 1, button: 0, pointerId: 1 });
    fireEvent.pointerUp(slider, { clientY: 1, button: 0, pointerId: 1 });
    await waitFor(() => expect(slider).toHaveAttribute('aria-valuetext', 'December 2024, 4,168 photos'));
    await waitFor(() => expect(Math.min(...positions(list))).toBeLessThan(4168));
    expect(nodeCount(section)).toBeLessThan(3000);
  });

  it('tells the month and its photos under the pointer', async () => {
    setToken(fakeToken());
    stubLibrary();
    const { slider } = await openTimeline();
    fireEvent.pointerMove(slider, { clientY: 2 });
    expect(screen.getByRole('tooltip')).toHaveTextContent('December 2024 · 4,168 photos');
    fireEvent.pointerMove(slider, { clientY: 10_000 });
    expect(screen.getByRole('tooltip')).toHaveTextContent('January 2005 · 4,168 photos');
    expect(within(slider).getByText('2015')).toHaveAttribute('title', '2015: 50,016 photos');
  });

  it('re-anchors the window near its edge without moving anything on screen', async () => {
    setToken(fakeToken());
    stubLibrary();
    const { list, scroller } = await openTimeline();
    // Just short of the last quarter of the window: no re-anchoring yet.
    scrollTo(scroller, 2_999_000);
    await waitFor(() => expect(positions(list).length).toBeGreaterThan(0));
    const tiles = within(list).getAllByRole('listitem');
    const position = tiles[Math.floor(tiles.length / 2)]!.getAttribute('aria-posinset');
    const shownAt = () => {
      const row = list.querySelector(`[aria-posinset="${position}"]`)!.parentElement!;
      return parseFloat(row.style.top) - scroller.scrollTop;
    };
    const before = shownAt();

    // 400px further the viewport reaches the last quarter: the window moves on, the photo only by what was scrolled.
    scrollTo(scroller, 2_999_400);
    expect(scroller.scrollTop).toBeLessThan(2_500_000);
    expect(list.querySelector(`[aria-posinset="${position}"]`)).not.toBeNull();
    expect(shownAt()).toBe(before - 400);
  });

  it('moves a screen with PageDown and PageUp, to the ends with Home and End, but not while typing', async () => {
    setToken(fakeToken());
    stubLibrary();
    const { list, scroller, user } = await openTimeline();
    await waitFor(() => expect(positions(list)).toContain(1));
    await user.keyboard('{PageDown}');
    const screenful = scroller.scrollTop;
    expect(screenful).toBeGreaterThan(500);
    await user.keyboard('{PageDown}');
    expect(scroller.scrollTop).toBe(2 * screenful);
    await user.keyboard('{PageUp}');
    expect(scroller.scrollTop).toBe(screenful);

    await user.keyboard('{End}');
    await waitFor(() => expect(positions(list)).toContain(TOTAL));
    expect(positions(list)).not.toContain(1);

    await user.click(within(screen.getByRole('search')).getByPlaceholderText('Search by tag'));
    await user.keyboard('{Home}');
    expect(positions(list)).toContain(TOTAL);
    await user.click(document.body);
    await user.keyboard('{Home}');
    await waitFor(() => expect(positions(list)).toContain(1));
  });

  it('cancels the loading of months scrolled far away', async () => {
    setToken(fakeToken());
    const { requests } = stubLibrary((url) => url.startsWith('/api/timeline/2024-12'));
    const { list, slider } = await openTimeline();
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    const newest = requests.filter((request) => request.url.startsWith('/api/timeline/2024-12'));
    expect(newest.length).toBeGreaterThan(0);
    act(() => slider.focus());
    fireEvent.keyDown(slider, { key: 'End' });
    await waitFor(() => expect(positions(list)).toContain(TOTAL - 4168 + 1));
    await waitFor(() => expect(newest.every((request) => request.signal?.aborted)).toBe(true));
  });

  it('returns to the same place after a photo’s detail', async () => {
    setToken(fakeToken());
    stubLibrary();
    const { list, slider, router, user } = await openTimeline();
    act(() => slider.focus());
    fireEvent.keyDown(slider, { key: 'End' });
    await waitFor(() => expect(positions(list)).toContain(TOTAL - 4168 + 1));
    await user.click(within(list).getAllByRole('link')[0]!);
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/image\//));
    await act(() => router.navigate(-1));
    const again = await screen.findByRole('list', { name: 'Gallery' });
    expect(headings(again)).toContain('January 2005');
  });
});

describe('a month whose photos disagree with the counts', () => {
  it('is laid out from its photos, and the counts are read again', async () => {
    setToken(fakeToken());
    const photos = [makeImage('x', { sortedAt: '2015-03-13T10:00:00.000Z' }), makeImage('y', { sortedAt: '2015-03-13T09:00:00.000Z' })];
    const fetchMock = stubFetch({
      ...timelineRoutes(photos),
      'GET /api/timeline': { body: { totalImages: 5, months: [{ month: '2015-03', count: 5, offset: 0, days: [[14, 5]] }] } },
    });
    const { list } = await openTimeline();
    await waitFor(() => expect(headings(list)).toEqual(['March 2015', 'Fri, 13 March']));
    expect(positions(list)).toEqual([1, 2]);
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => url === '/api/timeline')).toHaveLength(2));
  });
});
