import type { Page, Route } from '@playwright/test';
import { expect, galleryIds, getByApi, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';

const SEEDED = 130;
const PAGE_SIZE = 50; // spec §9
const LOADING_MORE = 'Loading more images...';

/** How many images the grid holds (every tile says so in aria-setsize), or 0 before the first tile. */
async function loadedCount(page: Page): Promise<number> {
  const first = page.getByRole('list', { name: 'Gallery' }).getByRole('listitem').first();
  if ((await first.count()) === 0) return 0;
  return Number(await first.getAttribute('aria-setsize'));
}

/** Tiles and pictures in the DOM right now (the grid is virtualized: only rows near the viewport). */
async function renderedCounts(page: Page): Promise<{ tiles: number; pictures: number }> {
  const gallery = page.getByRole('list', { name: 'Gallery' });
  return { tiles: await gallery.getByRole('listitem').count(), pictures: await gallery.locator('img').count() };
}

/**
 * Holds GET /api/gridimages?page=N back until released, so a test can see the loading state
 * without racing the server. `asked` tells whether the app requested that page yet.
 */
async function holdBack(page: Page, pageNumber: number) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let asked = false;
  const matches = (url: URL) => url.pathname === '/api/gridimages' && url.searchParams.get('page') === String(pageNumber);
  const handler = async (route: Route) => {
    asked = true;
    await gate;
    await route.continue();
  };
  await page.route(matches, handler, { times: 1 });
  return { asked: () => asked, release: () => open() };
}

test('the gallery pages in 130 images as the reader scrolls, keeping the DOM small', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('ga'));
  // Wide pictures (tiles are capped at 3:1): a justified row holds two, so ~65 rows of which few are rendered.
  const ids = await seedImages(app.url, token, SEEDED, { prefix: 'wide', width: 64, height: 16 });
  const order = await galleryIds(app.url, token);
  expect(order).toHaveLength(SEEDED);
  expect([...order].sort()).toEqual([...ids].sort());

  await signInAs(page, token);
  // Hold the first and second page answers back, to see what the screen shows meanwhile.
  const firstPage = await holdBack(page, 1);
  const secondPage = await holdBack(page, 2);
  await page.goto('/');
  const gallery = page.getByRole('list', { name: 'Gallery' });

  // While the first page loads: the 12 skeleton placeholders (spec §9).
  await expect(page.getByTestId('grid-skeleton')).toHaveCount(12);
  firstPage.release();

  // The first page: 50 tiles known to the grid, the newest first, and its pictures load.
  const first = gallery.getByRole('listitem').first();
  await expect(first).toHaveAttribute('aria-posinset', '1');
  await expect(first).toHaveAttribute('aria-setsize', String(PAGE_SIZE));
  await expect(page.getByTestId('grid-skeleton')).toHaveCount(0);
  const newest = await getByApi<{ imageName: string }>(app.url, token, `/api/images/${order[0]}`);
  await expect(first.locator('img')).toHaveAttribute('alt', newest.body.imageName);
  await expect.poll(() => first.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect((await renderedCounts(page)).tiles).toBeLessThan(PAGE_SIZE);
  expect(secondPage.asked(), 'the first page fills more than the screen, so page 2 waits for scrolling').toBe(false);

  // Near the bottom the next page is asked for, with 'Loading more images...' meanwhile.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByText(LOADING_MORE)).toBeVisible();
  secondPage.release();
  await expect.poll(() => loadedCount(page)).toBe(2 * PAGE_SIZE);

  // Scroll to the bottom until the grid holds every image; check the DOM stays bounded on the way.
  let maxRendered = 0;
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const counts = await renderedCounts(page);
        maxRendered = Math.max(maxRendered, counts.pictures, counts.tiles);
        return loadedCount(page);
      },
      { message: 'every page loads as the reader scrolls', timeout: 30_000, intervals: [250] },
    )
    .toBe(SEEDED);
  await expect(page.getByText(LOADING_MORE)).toHaveCount(0);

  // The last tile, the oldest image, is reachable at the bottom and its picture loads.
  const last = gallery.locator(`[role="listitem"][aria-posinset="${SEEDED}"]`);
  await expect
    .poll(async () => {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      return last.isVisible();
    })
    .toBe(true);
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
