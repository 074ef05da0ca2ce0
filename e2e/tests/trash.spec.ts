import { expect, galleryIds, getByApi, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';

test('a deleted photo waits in the Trash, and Restore puts it back in the gallery', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('tr'));
  const [kept, doomed] = await seedImages(app.url, token, 2, { prefix: 'trash', width: 32, height: 24 });
  const name = (await getByApi<{ imageName: string }>(app.url, token, `/api/images/${doomed}`)).body.imageName;

  await signInAs(page, token);
  await page.goto('/');
  const gallery = page.getByRole('list', { name: 'Gallery' });
  await expect(gallery.getByRole('listitem')).toHaveCount(2);

  // Delete it from the gallery.
  await gallery.getByRole('checkbox', { name: `Select ${name}` }).check();
  const toolbar = page.getByRole('toolbar', { name: 'Gallery actions' });
  await toolbar.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete 1 image?' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(gallery.getByRole('listitem')).toHaveCount(1);
  expect(await galleryIds(app.url, token)).toEqual([kept]);

  // Find it in the Trash, through the header's menu, with its thumbnail loaded.
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Trash' }).click();
  await expect(page).toHaveURL(/\/trash$/);
  const trash = page.getByRole('list', { name: 'Photos in the Trash' });
  await expect(trash.getByRole('listitem')).toHaveCount(1);
  const thumbnail = trash.getByRole('img', { name });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // Restore it; the Trash is empty and the gallery shows it again.
  await trash.getByRole('checkbox', { name: `Select ${name}` }).check();
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('heading', { name: 'The Trash is empty' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the gallery' }).click();
  await expect(gallery.getByRole('listitem')).toHaveCount(2);
  await expect(gallery.locator(`img[alt="${name}"]`)).toHaveCount(1);
  expect((await galleryIds(app.url, token)).sort()).toEqual([kept, doomed].sort());
});
