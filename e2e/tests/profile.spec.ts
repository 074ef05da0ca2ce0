import sharp from 'sharp';
import { expect, getByApi, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { jsonCall, tagByApi } from './support-tags.js';

test('profile tabs: counts, favourites, my tagged images with the Filter By choice, uploads', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('profiled'));
  const [a, b, c] = await seedImages(app.url, token, 3, { prefix: 'mine' });
  await tagByApi(app.url, token, [a!], ['Beach', 'dune']);
  await tagByApi(app.url, token, [b!], ['city']);
  await tagByApi(app.url, app.admin.token, [c!], ['harbour']); // someone else's tag: not "mine"
  expect((await jsonCall(app.url, token, 'POST', `/images/${c}/like`, { liked: true })).status).toBe(200);
  const nameOf = async (id: string) => (await getByApi<{ imageName: string }>(app.url, token, `/api/images/${id}`)).body.imageName;
  const [nameA, nameB, nameC] = await Promise.all([a!, b!, c!].map(nameOf));

  await signInAs(page, token);
  await page.goto('/profile');
  await expect(page.getByRole('img', { name: 'Default avatar' })).toBeVisible();
  await expect(page.getByRole('tab')).toHaveText(['My Favorite Images (1)', 'My Tagged Images (2)', 'Uploaded Images (3)']);

  await page.getByRole('tab', { name: 'My Favorite Images (1)' }).click();
  const favourites = page.getByRole('list', { name: 'My Favorite Images' });
  const liked = favourites.getByRole('listitem');
  await expect(liked).toHaveCount(1);
  await expect(liked).toContainText('#harbour');
  const thumbnail = liked.getByRole('img', { name: nameC });
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  await page.getByRole('tab', { name: 'My Tagged Images (2)' }).click();
  const filter = page.getByRole('combobox', { name: 'Filter By' });
  await expect(filter.getByRole('option')).toHaveText(['All My Tags', 'beach', 'city', 'dune']);
  const tagged = page.getByRole('list', { name: 'My Tagged Images' });
  await expect(tagged.getByRole('listitem')).toHaveCount(2);
  await filter.selectOption('beach');
  await expect(tagged.getByRole('listitem')).toHaveCount(1);
  await expect(tagged.getByRole('img', { name: nameA })).toBeVisible();
  await expect(tagged.getByRole('listitem')).toContainText('#beach #dune');

  // Switching to favourites and back clears the filter.
  await page.getByRole('tab', { name: 'My Favorite Images (1)' }).click();
  await page.getByRole('tab', { name: 'My Tagged Images (2)' }).click();
  await expect(filter).toHaveValue('All My Tags');
  await expect(tagged.getByRole('listitem')).toHaveCount(2);

  // Uploads: untagged tiles say No tags; the open icon opens the detail, named after the tab.
  await page.getByRole('tab', { name: 'Uploaded Images (3)' }).click();
  const uploads = page.getByRole('list', { name: 'Uploaded Images' });
  await expect(uploads.getByRole('listitem')).toHaveCount(3);
  await uploads.getByRole('listitem').filter({ has: page.getByRole('img', { name: nameB }) }).getByTitle('Open image details').click();
  await expect(page).toHaveURL(new RegExp(`/image/${b}$`));
  await expect(page.getByRole('navigation', { name: 'Image breadcrumb' }).getByRole('link', { name: 'Uploaded Images' })).toBeVisible();
});

test('edit profile: a new name and avatar, shown on the profile and in the header', async ({ page, app }) => {
  const person = newPerson('renamed');
  const token = await signUpByApi(app, person);
  const newName = `Grace ${person.email.slice(7, 12)}`;
  const avatar = await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();

  await signInAs(page, token);
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Edit Profile' }).click();
  await expect(page).toHaveURL(/\/editProfile$/);
  await expect(page.getByRole('heading', { name: 'Update Profile' })).toBeVisible();
  await page.getByLabel('Name').fill(newName);
  await page.getByLabel('Profile Image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: avatar });
  await expect(page.getByRole('img', { name: 'Preview of the new profile image' })).toBeVisible();
  await page.getByRole('button', { name: 'Update Profile' }).click();

  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: newName })).toBeVisible();
  const picture = page.getByRole('img', { name: 'Profile picture' });
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const menu = page.getByRole('button', { name: 'Profile menu' });
  await expect(menu).toContainText(`Welcome, ${newName}`);
  await expect.poll(() => menu.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // An empty name changes nothing; the picture stays.
  await page.goto('/editProfile');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: newName })).toBeVisible();
  const { body } = await getByApi<{ username: string; profileImage: string | null }>(app.url, token, '/api/profile');
  expect(body.username).toBe(newName);
  expect(body.profileImage).toBeTruthy();
});
