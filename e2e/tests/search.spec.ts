import { expect, getByApi, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { expectToast, suggestionTexts, tagByApi, TEXTS, uniqueWord } from './support-tags.js';

test('header search: suggestions from 3 characters, Enter opens /search/<tag>, custom tags on the results', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('searcher'));
  const ids = await seedImages(app.url, token, 3, { prefix: 'coast' });
  const harbor = uniqueWord('harbor');
  await tagByApi(app.url, token, ids.slice(0, 2), [harbor]);
  const names = await Promise.all(ids.map(async (id) => (await getByApi<{ imageName: string }>(app.url, token, `/api/images/${id}`)).body.imageName));

  await signInAs(page, token);
  await page.goto('/');
  const box = page.getByRole('searchbox', { name: 'Search photos by tag' });

  // Whitespace alone is ignored.
  await box.fill('   ');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/$/);

  // Two characters ask nothing; the third brings suggestions, the best one highlighted.
  await box.fill('');
  await box.pressSequentially('ha');
  await page.waitForTimeout(500);
  await expect(page.getByRole('listbox', { name: 'Search suggestions' })).toHaveCount(0);
  await box.pressSequentially('r');
  await expect.poll(() => suggestionTexts(page, 'Search suggestions')).toContain(harbor);
  // A few more letters (short of the whole word) narrow it to this test's tag, highlighted.
  await box.pressSequentially(harbor.slice(3, -1));
  await expect.poll(() => suggestionTexts(page, 'Search suggestions')).toEqual([harbor]);
  await expect(page.getByRole('option', { name: harbor })).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/search/${harbor}$`));
  await expect(box).toHaveValue(harbor);

  const results = page.getByRole('list', { name: `Search results for ${harbor}` });
  await expect(results.getByRole('listitem')).toHaveCount(2);
  await expect(results.getByRole('listitem').first()).toContainText(`#${harbor}`);

  // Custom tags: comma-separated, trimmed and lower-cased, onto the selected image only.
  const field = page.getByLabel(/^Custom tags for \d+ selected$/);
  await page.getByRole('button', { name: 'Add Tags' }).click();
  await expect(page.getByRole('alert')).toHaveText(TEXTS.SELECT_ONE_IMAGE);
  await page.getByRole('checkbox', { name: `Select ${names[1]}` }).check();
  await field.fill('  Sunset Glow , PIER,, ');
  await page.getByRole('button', { name: 'Add Tags' }).click();
  await expectToast(page, 'Tags added to 1 image.');
  const tagged = results.getByRole('listitem').filter({ has: page.getByRole('img', { name: names[1] }) });
  await expect(tagged).toContainText('#pier');
  await expect(tagged).toContainText('#sunset glow');
  const { body } = await getByApi<{ tags: string[]; customTags: string[] }>(app.url, token, `/api/images/${ids[1]}`);
  expect(body.customTags.sort()).toEqual(['pier', 'sunset glow']);

  // A result opens its detail, named after the search in the breadcrumb.
  await results.getByRole('img', { name: names[0] }).click();
  await expect(page).toHaveURL(new RegExp(`/image/${ids[0]}$`));
  await expect(page.getByRole('navigation', { name: 'Image breadcrumb' }).getByRole('link', { name: 'Search' })).toHaveAttribute('href', `/search/${harbor}`);
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/search/${harbor}$`));

  // Elsewhere the box is empty again.
  await page.goto('/profile');
  await expect(box).toHaveValue('');
});

test('a search with no results says so and leads back to the gallery', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('nothing'));
  await signInAs(page, token);
  await page.goto(`/search/${uniqueWord('nosuchtag')}`);
  await expect(page.getByRole('heading', { name: TEXTS.NO_RESULTS_TITLE })).toBeVisible();
  await expect(page.getByText(TEXTS.NO_RESULTS_TEXT)).toBeVisible();
  await page.getByRole('link', { name: 'Return to Gallery' }).click();
  await expect(page).toHaveURL(/\/$/);
});
