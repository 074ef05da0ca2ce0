import type { Page } from '@playwright/test';
import { expect, galleryIds, getByApi, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { expectToast, jsonCall, pendingChips, suggestionTexts, tagByApi, tagsOf, TEXTS, uniqueWord } from './support-tags.js';

/** How many images the gallery grid holds (each tile says so in aria-setsize), 0 before the first tile. */
async function gridCount(page: Page): Promise<number> {
  const first = page.getByRole('list', { name: 'Gallery' }).getByRole('listitem').first();
  if ((await first.count()) === 0) return 0;
  return Number(await first.getAttribute('aria-setsize'));
}

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Gallery actions' });

test('tags 30 selected images with "beach" and "summer 2024" from the keyboard, with suggestions', async ({ page, app }) => {
  // 'summer 2024' is already a tag of a photo the tagger sees (suggestions come only from those,
  // decision 0006), here one of their own; the admin's private 'summer 2024 private' is never suggested.
  const [adminImage] = await seedImages(app.url, app.admin.token, 1, { prefix: 'admin-winter' });
  await tagByApi(app.url, app.admin.token, [adminImage!], ['summer 2024 private']);

  const token = await signUpByApi(app, newPerson('tagger'));
  const ids = await seedImages(app.url, token, 30, { prefix: 'holiday' });
  await tagByApi(app.url, token, [ids[0]!], ['summer 2024']);
  await signInAs(page, token);
  await page.goto('/');
  await expect.poll(() => gridCount(page)).toBe(30);

  await toolbar(page).getByRole('button', { name: 'Select All' }).click();
  await expect(toolbar(page)).toContainText('30 selected');
  await toolbar(page).getByRole('button', { name: 'Add Tags' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Tags' });
  const input = dialog.getByRole('combobox', { name: 'Tags for 30 selected images' });
  await expect(input).toBeFocused();

  // Space commits the typed text.
  await input.pressSequentially('beach');
  await input.press('Space');
  await expect(pendingChips(dialog)).toHaveText(['#beach×']);

  // A suggestion with a space in it is taken whole with Tab.
  await input.pressSequentially('summ');
  await expect.poll(() => suggestionTexts(page)).toContain('#summer 2024');
  expect((await suggestionTexts(page)).length).toBeLessThanOrEqual(5);
  expect(await suggestionTexts(page)).not.toContain('#summer 2024 private');
  await input.press('Tab');
  await expect(pendingChips(dialog)).toHaveText(['#beach×', '#summer 2024×']);
  await expect(input).toBeFocused();

  // Chosen tags are not suggested again.
  await input.pressSequentially('b');
  await page.waitForTimeout(600);
  expect(await suggestionTexts(page)).not.toContain('#beach');
  await input.press('Backspace');

  // A new tag of several words goes in quotes; Backspace in the empty box takes the last tag back.
  await input.pressSequentially('"golden hour"');
  await input.pressSequentially('typo');
  await input.press('Space');
  await expect(pendingChips(dialog)).toHaveText(['#beach×', '#summer 2024×', '#golden hour×', '#typo×']);
  await input.press('Backspace');
  await expect(pendingChips(dialog)).toHaveText(['#beach×', '#summer 2024×', '#golden hour×']);

  // Enter in the empty box saves.
  await input.press('Enter');
  await expectToast(page, 'Tags added to 30 images.');
  await expect(dialog).toHaveCount(0);

  const { status, body } = await jsonCall<{ commantags: string[] }>(app.url, token, 'POST', '/tags', { imageIds: ids });
  expect(status).toBe(200);
  expect([...body.commantags].sort()).toEqual(['beach', 'golden hour', 'summer 2024']);
});

test('Add Tags says what is missing: a selection, then a tag', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('tagcheck'));
  await seedImages(app.url, token, 2, { prefix: 'check' });
  await signInAs(page, token);
  await page.goto('/');
  await expect.poll(() => gridCount(page)).toBe(2);

  await toolbar(page).getByRole('button', { name: 'Add Tags' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Tags' }).getByRole('alert')).toHaveText(TEXTS.SELECT_ONE_IMAGE);
  await page.keyboard.press('Escape');

  await page.getByRole('checkbox').first().check();
  await toolbar(page).getByRole('button', { name: 'Add Tags' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Tags' });
  await dialog.getByRole('button', { name: 'Save Tags' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(TEXTS.ENTER_ONE_TAG);
});

test('the tag filter shows matches from the whole library, not only the loaded page, and stops paging', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('filterer'));
  // One month of 130: the timeline reads it 100 at a time, so the oldest 30 are not loaded at first.
  await seedImages(app.url, token, 130, { prefix: 'shore', width: 64, height: 16 });
  const order = await galleryIds(app.url, token); // newest first
  const tide = uniqueWord('tide');
  const rock = uniqueWord('rock');
  const oldest = order.slice(-5);
  await tagByApi(app.url, token, oldest, [tide]);
  await tagByApi(app.url, token, [order[0]!, order.at(-1)!], [rock]);
  const nameOf = async (id: string) => (await getByApi<{ imageName: string }>(app.url, token, `/api/images/${id}`)).body.imageName;
  const secondPage: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/timeline/') && url.searchParams.get('page') === '2') secondPage.push(url.href);
  });

  await signInAs(page, token);
  await page.goto('/');
  await expect.poll(() => gridCount(page)).toBe(130);
  await expect(page.getByRole('list', { name: 'Gallery' }).locator('[aria-posinset="1"]')).toBeVisible();
  expect(secondPage, 'the oldest photos are not loaded').toEqual([]);

  await toolbar(page).getByRole('button', { name: 'Show All Tags' }).click();
  const panel = page.getByRole('region', { name: 'Filter by tag' });
  await expect(panel.getByRole('list')).toHaveCSS('max-height', '258px');
  await panel.getByRole('button', { name: `#${tide}` }).click();
  await expect(panel.getByRole('button', { name: `#${tide}` })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => gridCount(page)).toBe(5);
  const gallery = page.getByRole('list', { name: 'Gallery' });
  await expect(gallery.locator('img')).toHaveCount(5);
  const shown = await gallery.locator('img').evaluateAll((images) => images.map((image) => image.getAttribute('alt')));
  expect(shown.sort()).toEqual((await Promise.all(oldest.map(nameOf))).sort());

  // The filtered list is the whole answer: scrolling asks for no more pages.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(500);
  expect(await gridCount(page)).toBe(5);
  await expect(page.getByText('Loading more images...')).toHaveCount(0);

  // Two tags: images carrying both.
  await panel.getByRole('button', { name: `#${rock}` }).click();
  await expect.poll(() => gridCount(page)).toBe(1);
  await expect(gallery.locator('img')).toHaveAttribute('alt', await nameOf(order.at(-1)!));

  // None chosen: the loaded list is back, and Escape closes the panel.
  await panel.getByRole('button', { name: `#${rock}` }).click();
  await panel.getByRole('button', { name: `#${tide}` }).click();
  await expect.poll(() => gridCount(page)).toBe(130);
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(toolbar(page).getByRole('button', { name: 'Show All Tags' })).toHaveAttribute('aria-expanded', 'false');
});

test("the detail's tag input suggests from 2 characters; Enter saves one tag; a tag can be removed", async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('detailtag'));
  const [id, other] = await seedImages(app.url, token, 2, { prefix: 'detail-tag' });
  const meadow = uniqueWord('meadow');
  await tagByApi(app.url, token, [other!], [meadow]);

  await signInAs(page, token);
  await page.goto(`/image/${id}`);
  const actions = page.getByRole('complementary', { name: 'Image actions' });
  await expect(actions.getByText(TEXTS.NO_TAGS)).toBeVisible();
  const input = actions.getByRole('textbox', { name: 'New tag' });

  // One character suggests nothing; from the second on, known tags are offered.
  await input.pressSequentially(meadow.slice(0, 1));
  await page.waitForTimeout(500);
  await expect(page.getByRole('listbox', { name: 'Tag suggestions' })).toHaveCount(0);
  await input.pressSequentially(meadow.slice(1, 6));
  await expect.poll(() => suggestionTexts(page)).toContain(`#${meadow}`);
  // The keys typed here are the input's: the detail does not step or close.
  await input.press('ArrowRight');
  await expect(page).toHaveURL(new RegExp(`/image/${id}$`));

  // Choose the suggestion with the arrow keys, Enter saves it.
  const chosen = page.getByRole('option', { selected: true });
  for (let presses = 0; presses < 6 && (await chosen.count() === 0 || (await chosen.textContent()) !== `#${meadow}`); presses += 1) {
    await input.press('ArrowDown');
  }
  await expect(chosen).toHaveText(`#${meadow}`);
  await input.press('Enter');
  await expect(actions.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText([`#${meadow}×`]);
  await expect(input).toHaveValue('');

  // A new tag typed whole.
  await input.fill('Morning Dew');
  await input.press('Enter');
  await expect(actions.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText([`#${meadow}×`, '#morning dew×']);
  expect((await getByApi<{ tags: string[] }>(app.url, token, `/api/images/${id}`)).body.tags).toEqual([meadow, 'morning dew'].sort());

  // A mistyped tag can be taken off again.
  await actions.getByRole('button', { name: 'Remove tag morning dew' }).click();
  await expect(actions.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText([`#${meadow}×`]);
  expect((await getByApi<{ tags: string[] }>(app.url, token, `/api/images/${id}`)).body.tags).toEqual([meadow]);
});

test("the detail's tag input drops a typed \"#\", takes at most 64 characters and says why a tag is refused", async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('hash'));
  const [imageId] = await seedImages(app.url, token, 1, { prefix: 'hash' });
  await signInAs(page, token);
  await page.goto(`/image/${imageId}`);
  const input = page.getByRole('textbox', { name: 'New tag' });
  const tags = page.getByRole('list', { name: 'Tags' });
  const word = uniqueWord('hash');

  await input.fill(`#${word}`);
  await input.press('Enter');
  // Shown with the one "#" of the list, not "##".
  await expect(tags.getByRole('listitem')).toHaveText([new RegExp(`^#${word}×?$`)]);
  expect(await tagsOf(app.url, token, imageId!)).toEqual([word]);

  await input.pressSequentially('x'.repeat(70));
  await expect(input).toHaveValue('x'.repeat(64));
  await input.fill('');

  // 64 characters, but twice as many once lower-cased (as tags are stored): the server refuses it.
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await input.fill('İ'.repeat(64));
  await input.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'at most 64 characters' })).toBeVisible();
  expect(errors.some((text) => text.includes('Error adding tag:'))).toBe(true);
  expect(await tagsOf(app.url, token, imageId!)).toEqual([word]);
});
