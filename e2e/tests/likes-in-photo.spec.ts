import type { Page } from '@playwright/test';
import { expect, getByApi, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { freshPage } from './support-sharing.js';
import { tagByApi, TEXTS, uniqueWord } from './support-tags.js';

const actions = (page: Page) => page.getByRole('complementary', { name: 'Image actions' });
const heartFill = (page: Page) => actions(page).getByRole('button', { name: /^(Like|Unlike)$/ }).locator('svg').getAttribute('fill');

test("a like on another person's image: count and heart, kept after a reload, and listed under My Favorite Images", async ({ page, app, browser }) => {
  const owner = newPerson('owner');
  const ownerToken = await signUpByApi(app, owner);
  const [id] = await seedImages(app.url, ownerToken, 1, { prefix: 'likeable' });
  const { body: image } = await getByApi<{ imageName: string }>(app.url, ownerToken, `/api/images/${id}`);

  // The admin sees every image (DECISIONS §3), so the owner's image is another person's to them.
  await signInAs(page, app.admin.token);
  await page.goto(`/image/${id}`);
  await expect(actions(page).getByText('0 Likes')).toBeVisible();
  expect(await heartFill(page)).toBe('none');
  await actions(page).getByRole('button', { name: 'Like' }).click();
  await expect(actions(page).getByText('1 Like', { exact: true })).toBeVisible();
  await expect(actions(page).getByRole('button', { name: 'Unlike' })).toHaveAttribute('aria-pressed', 'true');
  expect(await heartFill(page)).toBe('currentColor');

  await page.reload();
  await expect(actions(page).getByText('1 Like', { exact: true })).toBeVisible();
  await expect(actions(page).getByRole('button', { name: 'Unlike' })).toHaveAttribute('aria-pressed', 'true');

  await page.goto('/profile');
  await page.getByRole('tab', { name: /^My Favorite Images \(\d+\)$/ }).click();
  await expect(page.getByRole('list', { name: 'My Favorite Images' }).getByRole('img', { name: image.imageName })).toBeVisible();

  // The owner sees the count (the heart filled: likes above 0) but not a like of their own.
  const { context, page: ownerPage } = await freshPage(browser, app.url);
  await signInAs(ownerPage, ownerToken);
  await ownerPage.goto(`/image/${id}`);
  await expect(actions(ownerPage).getByText('1 Like', { exact: true })).toBeVisible();
  await expect(actions(ownerPage).getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'false');
  expect(await heartFill(ownerPage)).toBe('currentColor');
  await context.close();

  // Unliking takes it back out.
  await page.goto(`/image/${id}`);
  await actions(page).getByRole('button', { name: 'Unlike' }).click();
  await expect(actions(page).getByText('0 Likes')).toBeVisible();
  expect(await heartFill(page)).toBe('none');
  const { body: liked } = await getByApi<{ data: { _id: string }[] }>(app.url, app.admin.token, '/my-liked-images');
  expect(liked.data.map((entry) => entry._id)).not.toContain(id);
});

test("I'm in this photo: marked once, then found under Photos I'm in", async ({ page, app }) => {
  const person = newPerson('present');
  const token = await signUpByApi(app, person);
  const [id, other] = await seedImages(app.url, token, 2, { prefix: 'party' });
  const cake = uniqueWord('cake');
  await tagByApi(app.url, token, [id!], [cake]);
  const { body: image } = await getByApi<{ imageName: string }>(app.url, token, `/api/images/${id}`);

  await signInAs(page, token);
  await page.goto(`/image/${other}`);
  await expect(actions(page).getByRole('button', { name: TEXTS.IM_IN_THIS_PHOTO })).toBeEnabled();
  await page.goto(`/image/${id}`);
  const button = actions(page).getByRole('button', { name: TEXTS.IM_IN_THIS_PHOTO });
  await expect(button).toBeEnabled();
  await button.click();
  await expect(button).toBeDisabled();
  await expect(actions(page).getByText(`In this photo: ${person.username}`)).toBeVisible();
  await page.reload();
  await expect(actions(page).getByRole('button', { name: TEXTS.IM_IN_THIS_PHOTO })).toBeDisabled();

  await page.goto('/');
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('link', { name: "Photos I'm in" }).click();
  await expect(page).toHaveURL(/\/photos-i'm-in$/);
  const grid = page.getByRole('list', { name: "Photos I'm in" });
  await expect(grid.getByRole('listitem')).toHaveCount(1);
  await expect(grid.getByRole('listitem')).toContainText(`#${cake}`);
  await grid.getByRole('img', { name: image.imageName }).click();
  await expect(page).toHaveURL(new RegExp(`/image/${id}$`));
  // The URL changes before the detail screen (a route loaded on demand) listens for keys.
  await expect(actions(page).getByRole('button', { name: TEXTS.IM_IN_THIS_PHOTO })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/photos-i'm-in$/);
});
