import type { Page, Route } from '@playwright/test';
import { expect, galleryIds, getByApi, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';

const SEEDED = 130;
const MONTH_PAGE = 100; // the timeline reads a month 100 photos at a time
const LOADING_MORE = 'Loading more images...';

/** How many photos the timeline holds (every tile says so in aria-setsize), or 0 before the first tile. */
async function timelineSize(page: Page): Promise<number> {
  const first = page.getByRole('list', { name: 'Gallery' }).getByRole('listitem').first();
  if ((await first.count()) === 0) return 0;
  return Number(await first.getAttribute('aria-setsize'));
}

/** Tiles and pictures in the DOM right now (the timeline is virtualized: only rows near the viewport). */
async function renderedCounts(page: Page): Promise<{ tiles: number; pictures: number }> {
  const gallery = page.getByRole('list', { name: 'Gallery' });
  return { tiles: await gallery.getByRole('listitem').count(), pictures: await gallery.locator('img').count() };
}

/** Scrolls the timeline (its own scroll container, not the window) to its end. */
async function scrollTimelineToEnd(page: Page): Promise<void> {
  await page.getByRole('list', { name: 'Gallery' }).locator('..').evaluate((scroller) => scroller.scrollTo(0, scroller.scrollHeight));
}

/**
 * Holds the first request matching `matches` back until released, so a test can see the loading
 * state without racing the server. `asked` tells whether the app made that request yet.
 */
async function holdBack(page: Page, matches: (url: URL) => boolean) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let asked = false;
  const handler = async (route: Route) => {
    asked = true;
    await gate;
    await route.continue();
  };
  await page.route(matches, handler, { times: 1 });
  return { asked: () => asked, release: () => open() };
}

const monthPage = (pageNumber: number) => (url: URL) =>
  url.pathname.startsWith('/api/timeline/') && url.searchParams.get('page') === String(pageNumber);

test('the timeline reads a month of 130 photos page by page as the reader scrolls, keeping the DOM small', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('ga'));
  // Uploaded now without a date taken: one month, one day, 26 rows of five of which few are rendered.
  const ids = await seedImages(app.url, token, SEEDED, { prefix: 'wide', width: 64, height: 16 });
  const order = await galleryIds(app.url, token);
  expect(order).toHaveLength(SEEDED);
  expect([...order].sort()).toEqual([...ids].sort());

  await signInAs(page, token);
  // Hold the timeline and its month's two pages back, to see what the screen shows meanwhile.
  const months = await holdBack(page, (url) => url.pathname === '/api/timeline');
  const firstPage = await holdBack(page, monthPage(1));
  const secondPage = await holdBack(page, monthPage(2));
  await page.goto('/');
  const gallery = page.getByRole('list', { name: 'Gallery' });

  // While the timeline loads: the 12 skeleton placeholders (spec §9).
  await expect(page.getByTestId('grid-skeleton')).toHaveCount(12);
  months.release();

  // The month's first page: 'Loading more images...' meanwhile, then the newest photo first, its picture loaded.
  await expect(page.getByText(LOADING_MORE)).toBeVisible();
  await expect(page.getByTestId('grid-skeleton')).toHaveCount(0);
  firstPage.release();
  const first = gallery.getByRole('listitem').first();
  await expect(first).toHaveAttribute('aria-posinset', '1');
  await expect(first).toHaveAttribute('aria-setsize', String(SEEDED));
  const newest = await getByApi<{ imageName: string }>(app.url, token, `/api/images/${order[0]}`);
  await expect(first.locator('img')).toHaveAttribute('alt', newest.body.imageName);
  await expect.poll(() => first.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByText(LOADING_MORE)).toHaveCount(0);
  expect((await renderedCounts(page)).tiles).toBeLessThan(MONTH_PAGE);
  expect(secondPage.asked(), 'the first page fills more than the screen and the next, so page 2 waits for scrolling').toBe(false);

  // Near the month's end its second page is asked for, with 'Loading more images...' meanwhile.
  await scrollTimelineToEnd(page);
  await expect(page.getByText(LOADING_MORE)).toBeVisible();
  // Polled: the text shows as the fetch starts, a moment before the browser's request reaches the route.
  await expect.poll(() => secondPage.asked()).toBe(true);
  let maxRendered = 0;
  const counts = await renderedCounts(page);
  maxRendered = Math.max(maxRendered, counts.pictures, counts.tiles);
  secondPage.release();
  await expect(page.getByText(LOADING_MORE)).toHaveCount(0);
  expect(await timelineSize(page)).toBe(SEEDED);

  // The last tile, the oldest image, is at the bottom and its picture loads.
  const last = gallery.locator(`[role="listitem"][aria-posinset="${SEEDED}"]`);
  await expect(last).toBeInViewport();
  const oldest = await getByApi<{ imageName: string }>(app.url, token, `/api/images/${order[SEEDED - 1]}`);
  await expect(last.locator('img')).toHaveAttribute('alt', oldest.body.imageName);
  await expect.poll(() => last.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // Virtualization: however far the reader went, only rows near the viewport were ever in the DOM.
  const atBottom = await renderedCounts(page);
  maxRendered = Math.max(maxRendered, atBottom.pictures, atBottom.tiles);
  expect(atBottom.tiles).toBeGreaterThan(0);
  expect(maxRendered, `at most ${maxRendered} tiles rendered for ${SEEDED} loaded`).toBeLessThanOrEqual(SEEDED / 3);
  // The first tile left the DOM once the reader scrolled far past it.
  await expect(gallery.locator('[role="listitem"][aria-posinset="1"]')).toHaveCount(0);
});

test('selected images are deleted after confirming; Select All and Deselect All toggle every loaded image', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('gd'));
  await seedImages(app.url, token, 6, { prefix: 'del', width: 32, height: 24 });
  const order = await galleryIds(app.url, token);
  const names = await Promise.all(
    order.map(async (id) => (await getByApi<{ imageName: string }>(app.url, token, `/api/images/${id}`)).body.imageName),
  );

  await signInAs(page, token);
  await page.goto('/');
  const gallery = page.getByRole('list', { name: 'Gallery' });
  await expect(gallery.getByRole('listitem')).toHaveCount(6);
  const toolbar = page.getByRole('toolbar', { name: 'Gallery actions' });

  // Delete with nothing selected asks for a selection first.
  await toolbar.getByRole('button', { name: 'Delete' }).click();
  const emptyDialog = page.getByRole('dialog', { name: 'Delete images' });
  await expect(emptyDialog.getByText('Please select at least one image.')).toBeVisible();
  await emptyDialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(emptyDialog).toHaveCount(0);

  // Select the second and fifth images with their checkboxes.
  const doomed = [1, 4].map((index) => ({ id: order[index]!, name: names[index]! }));
  for (const { name } of doomed) {
    const box = gallery.getByRole('checkbox', { name: `Select ${name}` });
    await box.check();
    await expect(box).toBeChecked();
  }
  await expect(toolbar.getByText('2 selected')).toBeVisible();

  // Cancel keeps them; Delete → confirm removes them.
  await toolbar.getByRole('button', { name: 'Delete' }).click();
  let dialog = page.getByRole('dialog', { name: 'Delete 2 images?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(gallery.getByRole('listitem')).toHaveCount(6);

  await toolbar.getByRole('button', { name: 'Delete' }).click();
  dialog = page.getByRole('dialog', { name: 'Delete 2 images?' });
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(gallery.getByRole('listitem')).toHaveCount(4);
  for (const { name } of doomed) await expect(gallery.locator(`img[alt="${name}"]`)).toHaveCount(0);
  await expect(toolbar.getByText(/selected/)).toHaveCount(0);

  // The server agrees: both are gone, the others remain.
  for (const { id } of doomed) expect((await getByApi(app.url, token, `/api/images/${id}`)).status).toBe(404);
  expect(await galleryIds(app.url, token)).toEqual(order.filter((id) => !doomed.some((gone) => gone.id === id)));

  // Select All checks every loaded image and turns into Deselect All; that clears them again.
  await toolbar.getByRole('button', { name: 'Select All' }).click();
  await expect(toolbar.getByText('4 selected')).toBeVisible();
  for (const box of await gallery.getByRole('checkbox').all()) await expect(box).toBeChecked();
  await toolbar.getByRole('button', { name: 'Deselect All' }).click();
  await expect(toolbar.getByRole('button', { name: 'Select All' })).toBeVisible();
  await expect(toolbar.getByText(/selected/)).toHaveCount(0);
  for (const box of await gallery.getByRole('checkbox').all()) await expect(box).not.toBeChecked();

  // Unchecking one after Select All turns the button back into Select All.
  await toolbar.getByRole('button', { name: 'Select All' }).click();
  await gallery.getByRole('checkbox').first().uncheck();
  await expect(toolbar.getByText('3 selected')).toBeVisible();
  await expect(toolbar.getByRole('button', { name: 'Select All' })).toBeVisible();
});
