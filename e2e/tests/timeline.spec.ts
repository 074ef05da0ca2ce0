import { gzipSync } from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, newPerson, seedImages, signInAs, signUpByApi, test, uploadByApi, type UploadFile } from './fixtures.js';

/** The most JavaScript a signed-in `/` may load, gzip (issue 11). */
const BUDGET_BYTES = 200_000;
/** The most DOM nodes inside the timeline, however far the reader scrolls or jumps. */
const MAX_TIMELINE_NODES = 3_000;
/** Photos without a date (uploaded now): more than one month page of 100, so the month is read in pages. */
const UNDATED = 150;

/** A small JPEG whose EXIF says when it was taken ('YYYY:MM:DD HH:MM:SS', read as UTC without an offset). */
async function photoTakenAt(name: string, taken: string): Promise<UploadFile> {
  const colour = Math.floor(Math.random() * 0xffffff);
  const source = await sharp({ create: { width: 48, height: 36, channels: 3, background: { r: colour >> 16, g: (colour >> 8) & 0xff, b: colour & 0xff } } })
    .withExif({ IFD0: { Make: 'E2E', Model: 'Timeline' }, IFD2: { DateTimeOriginal: taken } })
    .jpeg()
    .toBuffer();
  return { name, source };
}

const DATED: [string, string][] = [
  ['tl-2021-07-04-a.jpg', '2021:07:04 15:00:00'],
  ['tl-2021-07-04-b.jpg', '2021:07:04 09:00:00'],
  ['tl-2021-07-02.jpg', '2021:07:02 12:00:00'],
  ['tl-2019-12-25.jpg', '2019:12:25 12:00:00'],
  ['tl-2015-03-14.jpg', '2015:03:14 12:00:00'],
  ['tl-2009-06-01.jpg', '2009:06:01 12:00:00'],
];

/** Headings and photo names (a photo is named after its file, without the extension) on screen in the timeline, top to bottom and left to right. */
async function onScreen(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Gallery' }).evaluate((list) => {
    const view = list.parentElement!.getBoundingClientRect();
    const shown = Array.from(list.querySelectorAll('h2, h3, [role="listitem"] img'))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.bottom > view.top + 1 && box.top < view.bottom - 1);
    shown.sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
    return shown.map(({ element }) => (element instanceof HTMLImageElement ? element.alt : element.textContent ?? ''));
  });
}

const nodeCount = (timeline: Locator) => timeline.evaluate((section) => section.querySelectorAll('*').length);

/** Clicks the scrubber `fraction` of the way down its track. */
async function clickScrubber(slider: Locator, fraction: number) {
  const box = (await slider.boundingBox())!;
  await slider.page().mouse.click(box.x + box.width / 2, box.y + Math.min(box.height - 2, Math.max(2, box.height * fraction)));
}

test('photos are grouped by the month and day they were taken; the scrubber jumps to the oldest month and back; the DOM stays small', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('tl'));
  await seedImages(app.url, token, UNDATED, { prefix: 'now', width: 32, height: 32 });
  const results = await uploadByApi(app.url, token, await Promise.all(DATED.map(([name, taken]) => photoTakenAt(name, taken))));
  expect(results.map((result) => result.status)).toEqual(DATED.map(() => 'kept'));
  const thisMonth = new Date().toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

  await page.setViewportSize({ width: 1280, height: 1200 });
  await signInAs(page, token);
  await page.goto('/');
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const list = page.getByRole('list', { name: 'Gallery' });
  const slider = page.getByRole('slider', { name: 'Timeline scrubber' });

  // Newest first: this month's uploads (no date taken: the upload's), the whole library counted.
  await expect(list.getByRole('heading', { level: 2 }).first()).toHaveText(thisMonth);
  const first = list.locator('[role="listitem"][aria-posinset="1"]');
  await expect(first).toBeVisible();
  await expect(first).toHaveAttribute('aria-setsize', String(UNDATED + DATED.length));
  await expect(slider).toHaveAttribute('aria-valuetext', `${thisMonth}, ${UNDATED} photos`);
  await expect(slider.getByText('2009')).toHaveAttribute('title', '2009: 1 photo');
  expect(await nodeCount(timeline)).toBeLessThanOrEqual(MAX_TIMELINE_NODES);

  // The scrubber's bottom: the oldest month on screen at once, each photo under its own month and day.
  await clickScrubber(slider, 1);
  await expect.poll(() => onScreen(page)).toEqual(expect.arrayContaining(['June 2009', 'tl-2009-06-01']));
  expect((await onScreen(page)).slice(-6)).toEqual(['March 2015', 'Sat, 14 March', 'tl-2015-03-14', 'June 2009', 'Mon, 1 June', 'tl-2009-06-01']);
  await expect(list.locator('img[alt="tl-2009-06-01"]')).toHaveJSProperty('complete', true);
  expect(await nodeCount(timeline)).toBeLessThanOrEqual(MAX_TIMELINE_NODES);

  // As a slider: Home, then one month down is July 2021 at the top of the screen.
  await slider.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await expect(slider).toHaveAttribute('aria-valuetext', 'July 2021, 3 photos');
  await expect.poll(async () => (await onScreen(page)).slice(0, 9)).toEqual([
    'July 2021', 'Sun, 4 July', 'tl-2021-07-04-a', 'tl-2021-07-04-b', 'Fri, 2 July', 'tl-2021-07-02',
    'December 2019', 'Wed, 25 December', 'tl-2019-12-25',
  ]);

  // The scrubber's top: back to the newest photos; scrolling goes on from there, down and up.
  await clickScrubber(slider, 0);
  await expect(first).toBeVisible();
  await expect(slider).toHaveAttribute('aria-valuetext', `${thisMonth}, ${UNDATED} photos`);
  const scroller = list.locator('..');
  await scroller.hover();
  const last = list.locator(`[role="listitem"][aria-posinset="${UNDATED}"]`);
  let most = 0;
  await expect
    .poll(
      async () => {
        await page.mouse.wheel(0, 600);
        most = Math.max(most, await nodeCount(timeline));
        return last.isVisible();
      },
      { message: "the month's second page loads as its rows come near", timeout: 20_000, intervals: [100] },
    )
    .toBe(true);
  await expect(last.locator('img')).toHaveAttribute('alt', /^now-\d{3}$/);
  await expect(first).toHaveCount(0);
  expect(most).toBeLessThanOrEqual(MAX_TIMELINE_NODES);

  // End and Home anywhere on the page (not in a text field).
  await page.getByRole('heading', { name: 'Gallery', level: 1 }).click();
  await page.keyboard.press('End');
  await expect(list.locator('img[alt="tl-2009-06-01"]')).toBeInViewport();
  await page.keyboard.press('Home');
  await expect(first).toBeInViewport();
  expect(await scroller.evaluate((element) => element.scrollHeight)).toBeLessThanOrEqual(4_000_000);
});

test(`a signed-in / loads at most ${BUDGET_BYTES / 1000} KB of JavaScript (gzip)`, async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('tlb'));
  await seedImages(app.url, token, 3, { prefix: 'budget' });
  const scripts = new Map<string, Promise<Buffer>>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.set(response.url(), response.body());
  });
  await signInAs(page, token);
  await page.goto('/');
  await expect(page.getByRole('list', { name: 'Gallery' }).getByRole('listitem')).toHaveCount(3);
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all([...scripts.values()].map(async (body) => gzipSync(await body).length));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  expect(scripts.size).toBeGreaterThan(0);
  expect(total, `${scripts.size} scripts, ${total} bytes gzip`).toBeLessThanOrEqual(BUDGET_BYTES);
});

/**
 * Checkboxes of the tiles wholly on screen that something else is drawn over: the point at each one's
 * centre and near its corners must reach the checkbox. The floating month label lets clicks through
 * (pointer-events: none), so the caller makes it hit-testable first to see what is drawn on top.
 */
async function hiddenCheckboxes(list: Locator): Promise<string[]> {
  return list.evaluate((element) => {
    const view = element.parentElement!.getBoundingClientRect();
    const boxes = Array.from(element.querySelectorAll<HTMLElement>('[role="listitem"] label'));
    return boxes
      .filter((box) => {
        const rect = box.getBoundingClientRect();
        return rect.top >= view.top && rect.bottom <= view.bottom;
      })
      .filter((box) => {
        const rect = box.getBoundingClientRect();
        const points = [[rect.left + rect.width / 2, rect.top + rect.height / 2], [rect.left + 3, rect.top + 3], [rect.right - 3, rect.top + 3], [rect.left + 3, rect.bottom - 3], [rect.right - 3, rect.bottom - 3]];
        return points.some(([x, y]) => !box.contains(document.elementFromPoint(x!, y!)));
      })
      .map((box) => box.textContent ?? '');
  });
}

for (const size of [{ width: 1280, height: 900 }, { width: 390, height: 844 }, { width: 700, height: 800 }]) {
  test(`the floating month label never hides a tile's checkbox (${size.width}×${size.height})`, async ({ page, app }) => {
    const token = await signUpByApi(app, newPerson('tlm'));
    await seedImages(app.url, token, 40, { prefix: 'month', width: 32, height: 32 });
    await page.setViewportSize(size);
    await signInAs(page, token);
    await page.goto('/');
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const list = page.getByRole('list', { name: 'Gallery' });
    await expect(list.locator('[role="listitem"][aria-posinset="1"] img')).toBeVisible();
    const label = timeline.locator(':scope > p[aria-hidden="true"]');
    await page.addStyleTag({ content: 'section[aria-label="Timeline"] > p[aria-hidden="true"] { pointer-events: auto !important; }' });

    // Past the month header (56px) and the day header (36px), a row of tiles starts at the top of
    // the screen, under the label; then every few pixels down through the next rows.
    const scroller = list.locator('..');
    for (let top = 92; top < 92 + 320; top += 8) {
      await scroller.evaluate((element, to) => {
        element.scrollTop = to;
        element.dispatchEvent(new Event('scroll'));
      }, top);
      await expect(label).toBeVisible();
      expect(await hiddenCheckboxes(list), `scrolled ${top}px`).toEqual([]);
    }
  });
}

test('coming back from the last photo at the end of the gallery shows it where it was', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('tl-end'));
  await seedImages(app.url, token, 40, { prefix: 'now', width: 32, height: 32 });
  const results = await uploadByApi(app.url, token, await Promise.all(DATED.map(([name, taken]) => photoTakenAt(name, taken))));
  expect(results.map((result) => result.status)).toEqual(DATED.map(() => 'kept'));

  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAs(page, token);
  await page.goto('/');
  const list = page.getByRole('list', { name: 'Gallery' });
  const oldest = list.locator('img[alt="tl-2009-06-01"]');
  await expect(list.locator('[role="listitem"][aria-posinset="1"]')).toBeVisible();
  await page.getByRole('heading', { name: 'Gallery', level: 1 }).click();
  await page.keyboard.press('End');
  await expect(oldest).toBeInViewport();
  const before = await onScreen(page);

  await oldest.click();
  await expect(page).toHaveURL(/\/image\//);
  await expect(page.getByRole('dialog', { name: 'Image detail' }).getByTestId('zoom-frame').locator('img[alt="tl-2009-06-01"]')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/$/);
  await expect(oldest).toBeInViewport();
  await expect.poll(() => onScreen(page)).toEqual(before);
});
