import type { Locator, Page } from '@playwright/test';
import { expect, newPerson, signInAs, signUpByApi, test, testPhoto } from './fixtures.js';

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

  // With a refusal the screen stays a few seconds (offering to stay), then opens the profile by itself.
  await expect(page.getByRole('button', { name: 'Stay on this page' })).toBeVisible();
  await expect(page).toHaveURL(/\/uploadImages$/);
  await expect(page).toHaveURL(/\/profile$/, { timeout: 15_000 });

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
