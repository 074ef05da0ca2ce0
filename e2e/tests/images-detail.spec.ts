import type { Locator, Page } from '@playwright/test';
import { expect, galleryImages, getByApi, newPerson, seedImages, signInAs, signUpByApi, test, testPhoto, uploadByApi, type RunningApp } from './fixtures.js';
import { tagByApi } from './support-tags.js';

const IMAGE_NOT_FOUND = 'Image not found';

const detailPath = (id: string) => new RegExp(`/image/${id}$`);
const detail = (page: Page) => page.getByRole('dialog', { name: 'Image detail' });

/** The zoom frame's transform, read from its style: `translate(Xpx, Ypx) scale(Z)`. */
async function frameTransform(page: Page): Promise<{ x: number; y: number; scale: number }> {
  const transform = (await page.getByTestId('zoom-frame').evaluate((frame: HTMLElement) => frame.style.transform)) ?? '';
  const match = /translate\((-?[\d.]+)px,\s*(-?[\d.]+)px\)\s*scale\(([\d.]+)\)/.exec(transform);
  if (!match) throw new Error(`unexpected transform: ${transform}`);
  return { x: Number(match[1]), y: Number(match[2]), scale: Number(match[3]) };
}

/** Drags on the zoom stage from its centre by (dx, dy), in small pointer moves. */
async function drag(page: Page, dx: number, dy: number): Promise<void> {
  const box = (await page.getByTestId('zoom-stage').boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
}

/** Spec §4: the pan never leaves ±200 × (zoom − 1) pixels on either axis (none at or below 1×). */
async function expectPanWithinLimit(page: Page): Promise<void> {
  const { x, y, scale } = await frameTransform(page);
  const limit = Math.max(0, 200 * (scale - 1)) + 0.5;
  expect(Math.abs(x), `pan x ${x} at zoom ${scale}`).toBeLessThanOrEqual(limit);
  expect(Math.abs(y), `pan y ${y} at zoom ${scale}`).toBeLessThanOrEqual(limit);
}

async function clickUntilDisabled(button: Locator, max = 30): Promise<number> {
  let clicks = 0;
  while ((await button.isEnabled()) && clicks < max) {
    await button.click();
    clicks += 1;
  }
  return clicks;
}

/** The detail's main picture (not the thumbnail shown beneath it while the larger one loads). */
const mainPicture = (page: Page) => page.getByTestId('zoom-frame').locator('img[alt]:not([alt=""])');

type Shown = { id: string; name: string };

/**
 * Waits until the detail shows `image` and is ready to step again: its URL, its picture, and the
 * previous/next controls (present once the detail knows this image's neighbours).
 */
async function expectShowing(page: Page, image: Shown): Promise<void> {
  await expect(page).toHaveURL(detailPath(image.id));
  await expect(mainPicture(page)).toHaveAttribute('alt', image.name);
  await expect(detail(page).getByRole('button', { name: 'Next image' })).toBeVisible();
}

test('arrow keys step through the whole list and wrap at both ends; typing is left alone; Escape closes', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('da'));
  // More than one gallery page (50): the detail steps through the full list, not only the loaded page.
  await seedImages(app.url, token, 55, { prefix: 'step', width: 40, height: 30 });
  const order = await galleryImages(app.url, token);
  expect(order).toHaveLength(55);
  const [first, second] = [order[0]!, order[1]!];
  const [beforeLast, last] = [order[53]!, order[54]!];

  await signInAs(page, token);
  await page.goto('/');
  const gallery = page.getByRole('list', { name: 'Gallery' });
  // The timeline counts the whole library (its month is read 100 at a time, so all 55 are loaded here).
  await expect(gallery.getByRole('listitem').first()).toHaveAttribute('aria-setsize', '55');

  // A click on the first (newest) tile opens its detail in the modal.
  await gallery.getByRole('listitem').first().getByRole('link').click();
  await expect(detail(page)).toBeVisible();
  await expectShowing(page, first);

  await page.keyboard.press('ArrowRight');
  await expectShowing(page, second);
  await page.keyboard.press('ArrowLeft');
  await expectShowing(page, first);
  // Before the first comes the last of the full list (a page the gallery has not loaded), and after it the first again.
  await page.keyboard.press('ArrowLeft');
  await expectShowing(page, last);
  await page.keyboard.press('ArrowLeft');
  await expectShowing(page, beforeLast);
  await page.keyboard.press('ArrowRight');
  await expectShowing(page, last);
  await page.keyboard.press('ArrowRight');
  await expectShowing(page, first);
  // The on-screen buttons step too.
  await detail(page).getByRole('button', { name: 'Next image' }).click();
  await expectShowing(page, second);
  await detail(page).getByRole('button', { name: 'Previous image' }).click();
  await expectShowing(page, first);

  // While typing in the tag input, the arrows and Escape belong to the input.
  const tagInput = detail(page).getByRole('textbox', { name: 'New tag' });
  await tagInput.click();
  await tagInput.pressSequentially('sunset');
  await tagInput.press('ArrowLeft');
  await tagInput.press('ArrowRight');
  await tagInput.press('Escape');
  await expect(tagInput).toHaveValue('sunset');
  await expect(tagInput).toBeFocused();
  await expect(page).toHaveURL(detailPath(first.id));
  await expect(detail(page)).toBeVisible();

  // Outside the input the keys work again; Escape goes back to the gallery.
  await tagInput.blur();
  await page.keyboard.press('ArrowRight');
  await expectShowing(page, second);
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`^${app.url}/$`));
  await expect(detail(page)).toHaveCount(0);
  await expect(gallery.getByRole('listitem').first()).toBeVisible();
});

// Keys can come faster than the screen re-renders or the server answers; each step must start
// where the previous one landed (the stepper queues them), never from a stale image, never dropped.
test('a quick ← then → comes back to the same image', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('dq'));
  await seedImages(app.url, token, 5, { prefix: 'quick' });
  const order = await galleryImages(app.url, token);
  await signInAs(page, token);
  for (let attempt = 0; attempt < 8; attempt += 1) {
    await page.goto(`/image/${order[4]!.id}`);
    await expectShowing(page, order[4]!);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    await expectShowing(page, order[4]!);
  }
});

test('zoom goes from 0.5x to 2x in steps of 0.1, and panning works only above 1x, clamped', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('dz'));
  const [id] = await seedImages(app.url, token, 1, { prefix: 'zoom', width: 600, height: 400 });

  await signInAs(page, token);
  await page.goto(`/image/${id}`);
  await expect(detail(page)).toBeVisible();
  const controls = detail(page).getByRole('group', { name: 'Zoom' });
  const level = controls.locator('output');
  const zoomIn = controls.getByRole('button', { name: 'Zoom in' });
  const zoomOut = controls.getByRole('button', { name: 'Zoom out' });
  const reset = controls.getByRole('button', { name: 'Reset zoom' });
  await expect(level).toHaveText('100%');
  await expect(reset).toBeDisabled();

  // At 1x a drag does not pan.
  await drag(page, 120, 80);
  expect(await frameTransform(page)).toEqual({ x: 0, y: 0, scale: 1 });

  // Three steps in: 1.3x.
  for (let step = 0; step < 3; step += 1) await zoomIn.click();
  await expect(level).toHaveText('130%');
  expect((await frameTransform(page)).scale).toBeCloseTo(1.3, 5);

  // A small drag pans by exactly the pointer's move; a long one stops at 200 x (1.3 - 1) = 60 px.
  await drag(page, 25, -15);
  expect(await frameTransform(page)).toMatchObject({ x: 25, y: -15 });
  await drag(page, 500, -400);
  expect(await frameTransform(page)).toMatchObject({ x: 60, y: -60 });
  await expectPanWithinLimit(page);

  // Up to the top: 2x and no further (7 more steps, then the button is disabled).
  expect(await clickUntilDisabled(zoomIn)).toBe(7);
  await expect(level).toHaveText('200%');
  expect((await frameTransform(page)).scale).toBe(2);
  await drag(page, -800, 800);
  expect(await frameTransform(page)).toMatchObject({ x: -200, y: 200 });
  await expectPanWithinLimit(page);

  // Zooming out pulls the pan back within the smaller limit: 1.5x allows 100 px.
  for (let step = 0; step < 5; step += 1) await zoomOut.click();
  await expect(level).toHaveText('150%');
  expect(await frameTransform(page)).toEqual({ x: -100, y: 100, scale: 1.5 });

  // Reset: 1x, centred.
  await reset.click();
  await expect(level).toHaveText('100%');
  expect(await frameTransform(page)).toEqual({ x: 0, y: 0, scale: 1 });

  // Down to the bottom: 0.5x and no further; no panning below 1x either.
  expect(await clickUntilDisabled(zoomOut)).toBe(5);
  await expect(level).toHaveText('50%');
  expect((await frameTransform(page)).scale).toBe(0.5);
  await drag(page, 150, 150);
  expect(await frameTransform(page)).toEqual({ x: 0, y: 0, scale: 0.5 });
  await reset.click();
  await expect(level).toHaveText('100%');
});

test('a missing image, or someone else’s, shows Image not found with Go Back', async ({ page, app }) => {
  const owner = await signUpByApi(app, newPerson('do'));
  const [othersImage] = await seedImages(app.url, owner, 1, { prefix: 'private' });
  await signInAs(page, await signUpByApi(app, newPerson('dn')));

  for (const id of ['987654321', othersImage!]) {
    await page.goto(`/image/${id}`);
    await expect(detail(page).getByRole('heading', { name: IMAGE_NOT_FOUND })).toBeVisible();
    await detail(page).getByRole('button', { name: 'Go Back' }).click();
    // Opened from a typed-in address: Go Back lands on the gallery, not outside the app.
    await expect(page).toHaveURL(new RegExp(`^${app.url}/$`));
    await expect(detail(page)).toHaveCount(0);
  }
});

test('the image name is overlaid for the admin only', async ({ page, browser, app }) => {
  const token = await signUpByApi(app, newPerson('dp'));
  const [id] = await seedImages(app.url, token, 1, { prefix: 'named-picture' });
  const { body: image } = await getByApi<{ imageName: string }>(app.url, token, `/api/images/${id}`);
  expect(image.imageName).toBe('named-picture-001');

  // A plain user: the picture, but no name over it, and the breadcrumb just says Image.
  await signInAs(page, token);
  await page.goto(`/image/${id}`);
  await expect(mainPicture(page)).toHaveAttribute('alt', image.imageName);
  await expect(page.getByTestId('zoom-stage').getByText(image.imageName)).toHaveCount(0);
  await expect(detail(page).getByText(image.imageName)).toHaveCount(0);
  await expect(detail(page).getByRole('navigation', { name: 'Image breadcrumb' }).locator('[aria-current="page"]')).toHaveText('Image');

  // The admin (the first account) sees the same image with its name overlaid.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signInAs(adminPage, app.admin.token);
  await adminPage.goto(`${app.url}/image/${id}`);
  await expect(mainPicture(adminPage)).toHaveAttribute('alt', image.imageName);
  await expect(adminPage.getByTestId('zoom-stage').getByText(image.imageName, { exact: true })).toBeVisible();
  await expect(
    detail(adminPage).getByRole('navigation', { name: 'Image breadcrumb' }).locator('[aria-current="page"]'),
  ).toHaveText(image.imageName);
  await adminContext.close();
});

/** Whether the element is what a tap at its own centre reaches (nothing drawn over it). */
const reachable = (target: Locator) =>
  target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && element.contains(hit);
  });

/** A photo with the Info panel's facts and a dozen tags: the longest action panel there is. */
async function photoWithManyTags(app: RunningApp, prefix: string): Promise<{ token: string; id: string }> {
  const token = await signUpByApi(app, newPerson(prefix));
  const [photo] = await uploadByApi(app.url, token, [{ name: 'Apple iPhone 4.jpg', source: testPhoto('camera/Apple iPhone 4.jpg') }]);
  const id = photo!.imageId!;
  await tagByApi(app.url, token, [id], Array.from({ length: 12 }, (_, index) => `holiday tag ${index + 1}`));
  return { token, id };
}

/** The actions under (or beside) the picture, each of which must be reachable. */
const panelActions = (page: Page) => {
  const panel = detail(page).getByRole('complementary', { name: 'Image actions' });
  return [
    panel.getByRole('button', { name: 'Like' }),
    panel.getByRole('button', { name: 'Share' }),
    panel.getByRole('button', { name: "I'm in this photo!" }),
    panel.getByRole('button', { name: 'Download original' }),
    panel.getByRole('button', { name: 'Info', exact: true }),
  ];
};

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  test('with Info open and many tags the picture stays above the actions: the dialog scrolls and every action can be tapped', async ({ page, app }) => {
    const { token, id } = await photoWithManyTags(app, 'phone');
    await signInAs(page, token);
    await page.goto(`/image/${id}`);
    await expect(mainPicture(page)).toBeVisible();
    await detail(page).getByRole('button', { name: 'Info', exact: true }).click();
    await expect(detail(page).getByRole('region', { name: 'Info' }).getByText('Apple iPhone 4', { exact: true })).toBeVisible();
    // The picture still fills the width (the stage did not collapse to make room).
    expect((await mainPicture(page).boundingBox())!.width).toBeGreaterThan(350);

    // Like first, then every other action: each is what a tap at its centre reaches.
    for (const action of panelActions(page)) {
      await action.scrollIntoViewIfNeeded();
      expect(await reachable(action), (await action.getAttribute('aria-label')) ?? (await action.textContent()) ?? '').toBe(true);
    }
    // The panel goes on below the window: the dialog's column scrolls to it.
    const column = page.getByTestId('zoom-stage').locator('xpath=../../..');
    expect(await column.evaluate((element) => element.scrollHeight > element.clientHeight + 100)).toBe(true);
    // The picture and its zoom bar end where the panel begins.
    await page.getByTestId('zoom-stage').scrollIntoViewIfNeeded();
    const zoomBar = (await detail(page).getByRole('group', { name: 'Zoom' }).boundingBox())!;
    const stage = (await page.getByTestId('zoom-stage').boundingBox())!;
    const panel = (await detail(page).getByRole('complementary', { name: 'Image actions' }).boundingBox())!;
    expect(stage.y + stage.height).toBeLessThanOrEqual(zoomBar.y + 0.5);
    expect(zoomBar.y + zoomBar.height).toBeLessThanOrEqual(panel.y + 0.5);

    // Like is reached by a tap too.
    const like = detail(page).getByRole('button', { name: 'Like' });
    await like.scrollIntoViewIfNeeded();
    await like.tap();
    await expect(detail(page).getByText('1 Like', { exact: true })).toBeVisible();
  });
});

test('on a desktop the panel stays beside the picture, every action reachable without scrolling', async ({ page, app }) => {
  const { token, id } = await photoWithManyTags(app, 'desk');
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAs(page, token);
  await page.goto(`/image/${id}`);
  await expect(mainPicture(page)).toBeVisible();
  await detail(page).getByRole('button', { name: 'Info', exact: true }).click();
  const stage = (await page.getByTestId('zoom-stage').boundingBox())!;
  const panel = (await detail(page).getByRole('complementary', { name: 'Image actions' }).boundingBox())!;
  expect(stage.x + stage.width).toBeLessThanOrEqual(panel.x + 0.5);
  expect(stage.height).toBeGreaterThan(600);
  for (const action of panelActions(page).slice(0, 4)) expect(await reachable(action), (await action.getAttribute('aria-label')) ?? (await action.textContent()) ?? '').toBe(true);
});
