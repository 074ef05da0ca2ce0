import type { Page } from '@playwright/test';
import { expect, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { expectToast, jsonCall, tagByApi, tagsOf, TEXTS, uniqueWord } from './support-tags.js';

async function tagCount(page: Page): Promise<number> {
  const heading = page.getByRole('heading', { level: 1, name: /^\d+ Tags$/ });
  return Number((await heading.textContent())!.split(' ')[0]);
}

test('the admin renames a tag across the library, and merges one into an existing tag, each with one Enter', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('tagowner'));
  const [first, second] = await seedImages(app.url, token, 2, { prefix: 'admin-tags' });
  const beach = uniqueWord('beach');
  const seaside = uniqueWord('seaside');
  const coast = uniqueWord('coast');
  await tagByApi(app.url, token, [first!, second!], [beach]);
  await tagByApi(app.url, token, [first!], [seaside]);
  await tagByApi(app.url, token, [second!], [coast]);
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') writes.push(new URL(request.url()).pathname);
  });

  await signInAs(page, app.admin.token);
  await page.goto('/admin');
  await expect(page.getByRole('textbox', { name: `Tag ${beach}` })).toBeVisible();
  const before = await tagCount(page);

  // The letter index: B shows only the B group, the other letters dimmed; again shows all.
  const index = page.getByRole('navigation', { name: 'Tag index' });
  await index.getByRole('button', { name: 'B', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(['B']);
  await expect(index.getByRole('button', { name: 'C', exact: true })).toHaveCSS('opacity', '0.4');
  await expect(index.getByRole('button', { name: 'B', exact: true })).toHaveCSS('opacity', '1');
  await expect(page.getByRole('textbox', { name: `Tag ${seaside}` })).toHaveCount(0);

  // Unchanged text: Enter sends nothing.
  await page.getByRole('textbox', { name: `Tag ${beach}` }).press('Enter');

  // Rename: every image carrying it carries the new name.
  const box = page.getByRole('textbox', { name: `Tag ${beach}` });
  await box.fill(`${beach}es`);
  await box.press('Enter');
  await expectToast(page, TEXTS.TAG_SAVED);
  await expect(page.getByRole('textbox', { name: `Tag ${beach}es` })).toBeVisible();
  expect(await tagsOf(app.url, token, first!)).toContain(`${beach}es`);
  expect(await tagsOf(app.url, token, second!)).not.toContain(beach);
  expect(writes).toEqual(['/admin/update-tag']);

  // Merge: the text equals another tag (ignoring case); the edited tag disappears.
  await page.getByRole('button', { name: 'Show All Tags' }).click();
  const seasideBox = page.getByRole('textbox', { name: `Tag ${seaside}` });
  await seasideBox.fill(coast.toUpperCase());
  await seasideBox.press('Enter');
  await expectToast(page, TEXTS.TAGS_MERGED);
  await expect(page.getByRole('textbox', { name: `Tag ${seaside}` })).toHaveCount(0);
  await expect.poll(() => tagCount(page)).toBe(before - 1);
  expect((await tagsOf(app.url, token, first!)).sort()).toEqual([`${beach}es`, coast].sort());
  expect(writes).toEqual(['/admin/update-tag', '/admin/merge-tags']);
});

test('a plain user cannot change tags: the screen says so and the server refuses', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('plain'));
  const [id] = await seedImages(app.url, token, 1, { prefix: 'plain' });
  const kelp = uniqueWord('kelp');
  await tagByApi(app.url, token, [id!], [kelp]);

  await signInAs(page, token);
  await page.goto('/admin');
  await expect(page.getByText('Only an admin can manage the tag list.')).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);

  for (const [path, body] of [
    ['/admin/update-tag', { oldTagValue: kelp, newTagValue: `${kelp}x` }],
    ['/admin/merge-tags', { oldTagValue: kelp, existingTagValue: 'anything' }],
  ] as const) {
    const { status } = await jsonCall(app.url, token, 'PUT', path, body);
    expect([403, 404]).toContain(status);
  }
  expect((await jsonCall(app.url, token, 'GET', '/admin-tags')).status).not.toBe(200);
  expect(await tagsOf(app.url, token, id!)).toEqual([kelp]);
});
