import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, newPerson, signInAs, signUpByApi, test, testPhoto, type RunningApp } from './fixtures.js';

const UPLOAD_EMPTY = 'Please select images to upload.';
const UPLOADING = 'Uploading...';

/** The upload list's row for one file (each row carries a progress bar named after the file). */
function fileRow(page: Page, fileName: string): Locator {
  return page
    .getByRole('list', { name: 'Selected images' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('progressbar', { name: fileName, exact: true }) });
}

/** The loaded picture's own size, once the browser has decoded it. */
async function naturalSize(picture: Locator): Promise<{ width: number; height: number }> {
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: 'the thumbnail loads' })
    .toBe(true);
  return picture.evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight }));
}

test('photos chosen on the upload screen go up with per-file outcomes, then show upright in the gallery', async ({ page, app }) => {
  await signInAs(page, await signUpByApi(app, newPerson('up')));
  await page.goto('/uploadImages');
  await expect(page.getByRole('heading', { name: 'Upload Images' })).toBeVisible();

  // Nothing chosen: the spec's message, and no upload.
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: UPLOAD_EMPTY })).toBeVisible();
  await expect(page).toHaveURL(/\/uploadImages$/);

  // Three real photos (two of them turned by EXIF/HEIF, one a HEIC) and a text file named .jpg.
  const picker = page.getByLabel('Images');
  await expect(picker).toHaveAttribute('multiple', '');
  await picker.setInputFiles([
    testPhoto('orientation/Portrait_6.jpg'),
    testPhoto('formats/iphone-xr-orient6-gps.heic'),
    testPhoto('camera/Apple iPhone 5.jpg'),
    testPhoto('broken/not_an_image.jpg'),
  ]);
  await expect(page.getByRole('alert').filter({ hasText: UPLOAD_EMPTY })).toHaveCount(0);
  const list = page.getByRole('list', { name: 'Selected images' });
  await expect(list.getByRole('listitem')).toHaveText([/Portrait_6\.jpg/, /iphone-xr-orient6-gps\.heic/, /Apple iPhone 5\.jpg/, /not_an_image\.jpg/]);

  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  // While it runs the button reads Uploading... and is disabled (the HEIC alone takes a moment to process).
  await expect(page.getByRole('button', { name: UPLOADING })).toBeDisabled();

  // Each file's outcome; the text file is refused with the server's reason.
  await expect(fileRow(page, 'Portrait_6.jpg')).toContainText('Uploaded', { timeout: 30_000 });
  await expect(fileRow(page, 'iphone-xr-orient6-gps.heic')).toContainText('Uploaded', { timeout: 30_000 });
  await expect(fileRow(page, 'Apple iPhone 5.jpg')).toContainText('Uploaded', { timeout: 30_000 });
  await expect(fileRow(page, 'not_an_image.jpg')).toContainText(/Refused: .*not an image/i);
  for (const name of ['Portrait_6.jpg', 'iphone-xr-orient6-gps.heic', 'Apple iPhone 5.jpg']) {
    await expect(page.getByRole('progressbar', { name, exact: true })).toHaveAttribute('aria-valuenow', '100');
  }
  await expect(page.getByRole('status').filter({ hasText: '3 images uploaded, 1 refused.' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeEnabled();

  // With a refusal the screen stays, so the reason can be read, and offers the way to the profile.
  await expect(page.getByRole('link', { name: 'Go to Profile' })).toBeVisible();
  await expect(page).toHaveURL(/\/uploadImages$/);

  // The gallery shows the three kept photos, and only them.
  await page.goto('/');
  const gallery = page.getByRole('list', { name: 'Gallery' });
  await expect(gallery.getByRole('listitem')).toHaveCount(3);
  const portrait = gallery.locator('img[alt="Portrait_6"]');
  const heic = gallery.locator('img[alt="iphone-xr-orient6-gps"]');
  const iphone5 = gallery.locator('img[alt="Apple iPhone 5"]');
  await expect(gallery.locator('img[alt="not_an_image"]')).toHaveCount(0);

  // Thumbnails are upright: both EXIF-6 photos (and the HEIC, whose rotation must be applied once) are portrait.
  const portraitSize = await naturalSize(portrait);
  expect(portraitSize.width, `Portrait_6 thumbnail ${portraitSize.width}x${portraitSize.height}`).toBeLessThan(portraitSize.height);
  const heicSize = await naturalSize(heic);
  expect(heicSize.width, `HEIC thumbnail ${heicSize.width}x${heicSize.height}`).toBeLessThan(heicSize.height);
  // The iPhone 5 photo is upside down as stored (orientation 3): it stays landscape.
  const iphone5Size = await naturalSize(iphone5);
  expect(iphone5Size.width, `iPhone 5 thumbnail ${iphone5Size.width}x${iphone5Size.height}`).toBeGreaterThan(iphone5Size.height);
});

test('when every file is refused the screen stays with the reasons and the upload error', async ({ page, app }) => {
  await signInAs(page, await signUpByApi(app, newPerson('uq')));
  await page.goto('/uploadImages');
  await page.getByLabel('Images').setInputFiles(testPhoto('broken/not_an_image.jpg'));
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(fileRow(page, 'not_an_image.jpg')).toContainText(/Refused: .*not an image/i);
  await expect(page.getByRole('alert').filter({ hasText: 'There was an error uploading the images.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeEnabled();
  await expect(page).toHaveURL(/\/uploadImages$/);
});

/**
 * Whether each text of a row (the file name, the status) is shown whole: not squeezed to nothing,
 * not cut (nothing overflows its box), and inside the list's width.
 */
async function rowTextsShownWhole(row: Locator): Promise<{ text: string; width: number; cut: boolean; outside: boolean }[]> {
  return row.evaluate((item) => {
    const list = item.closest('ul')!.getBoundingClientRect();
    return Array.from(item.querySelectorAll('span')).map((span) => {
      const box = span.getBoundingClientRect();
      return {
        text: span.textContent ?? '',
        width: box.width,
        cut: span.scrollWidth > span.clientWidth + 1 || span.scrollHeight > span.clientHeight + 1,
        outside: box.left < list.left - 1 || box.right > list.right + 1,
      };
    });
  });
}

async function uploadWithRefusals(browser: Browser, app: RunningApp, viewport: { width: number; height: number }, phone: boolean) {
  const context = await browser.newContext({ baseURL: app.url, viewport, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
  const page = await context.newPage();
  await signInAs(page, await signUpByApi(app, newPerson(phone ? 'rm' : 'rd')));
  await page.goto('/uploadImages');
  const longName = 'a-holiday-photo-with-a-rather-long-file-name-from-the-camera-2024-07-14.jpg';
  const file = (name: string, mimeType: string, photo: string) => ({ name, mimeType, buffer: readFileSync(testPhoto(photo)) });
  await page.getByLabel('Images').setInputFiles([
    file('mspaint-10x10.gif', 'image/gif', 'tiny/mspaint-10x10.gif'),
    file('truncated-sony-xperia-z5c.jpg', 'image/jpeg', 'broken/truncated-sony-xperia-z5c.jpg'),
    // A bomb (too many pixels) under a long name: both the name and the reason are long.
    file(longName, 'image/jpeg', 'broken/decompression_bomb.gif'),
  ]);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '1 image uploaded, 2 refused.' }).first()).toBeVisible({ timeout: 30_000 });

  for (const name of ['truncated-sony-xperia-z5c.jpg', longName]) {
    const row = fileRow(page, name);
    await expect(row).toContainText(/Refused: .{30,}/);
    await row.scrollIntoViewIfNeeded();
    const texts = await rowTextsShownWhole(row);
    expect(texts.map((text) => text.text)).toEqual([name, expect.stringMatching(/^Refused: .{30,}/)]);
    for (const text of texts) {
      expect(text.width, `"${text.text}" has room`).toBeGreaterThan(20);
      expect(text.cut, `"${text.text}" is shown whole`).toBe(false);
      expect(text.outside, `"${text.text}" stays inside the list`).toBe(false);
    }
    await expect(row.getByText(name, { exact: true })).toBeVisible();
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'nothing overflows sideways').toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath(`refusals-${viewport.width}.png`), fullPage: true });

  // The reasons stay on screen: the page does not leave by itself; Go to Profile leads on.
  await page.waitForTimeout(6500);
  await expect(page).toHaveURL(/\/uploadImages$/);
  await expect(fileRow(page, longName)).toContainText('Refused: ');
  await page.getByRole('link', { name: 'Go to Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await context.close();
}

test('refused files keep their name and whole reason in the list, and the page stays with them (desktop)', async ({ browser, app }) => {
  await uploadWithRefusals(browser, app, { width: 1366, height: 900 }, false);
});

test('refused files keep their name and whole reason in the list, and the page stays with them (phone, 390 px)', async ({ browser, app }) => {
  await uploadWithRefusals(browser, app, { width: 390, height: 844 }, true);
});
