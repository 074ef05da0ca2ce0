import { expect, galleryIds, galleryImages, newPerson, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { accessToggle, callByApi, freshPage, linkIn, proofLinkIn, TEXTS } from './support-sharing.js';

/** Spec §2 route and DECISIONS §5: the e-mailed link is the public page of the share. */
const SHARE_ALL_LINK = /\/share-all\/([A-Za-z0-9_-]{22,})$/;

test('the admin shares everything with grandma: she gets the link by mail, sees the library without signing in, then in her own gallery', async ({ page, browser, app }) => {
  const grandma = { ...newPerson('grandma'), email: 'grandma@example.com', username: 'Grandma' };
  const ids = await seedImages(app.url, app.admin.token, 3, { prefix: 'family', width: 60, height: 40 });
  const names = (await galleryImages(app.url, app.admin.token)).filter((image) => ids.includes(image.id)).map((image) => image.name);
  expect(names).toHaveLength(3);

  // The admin finds All Access in the gallery and shares with grandma.
  await signInAs(page, app.admin.token);
  await page.goto('/');
  await page.getByRole('link', { name: 'All Access' }).click();
  await expect(page).toHaveURL(/\/all-access$/);
  const input = page.getByPlaceholder('Enter receiver email');
  await expect(input).toHaveAttribute('type', 'email');
  await input.fill(grandma.email);
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByText(TEXTS.EMAIL_SENT)).toBeVisible();

  // The page shows the link: this site's origin + /share-all/ + the token.
  const shown = page.getByRole('link', { name: SHARE_ALL_LINK });
  await expect(shown).toBeVisible();
  const link = (await shown.textContent())!.trim();
  expect(link.startsWith(`${app.url}/share-all/`)).toBe(true);

  // The same link arrives by e-mail, in the text and in the HTML.
  const mail = await app.mailbox.latestTo(grandma.email);
  expect(linkIn(mail, `${app.url}/share-all/`)).toBe(link);
  expect(String(mail.html)).toContain(link);

  // Without signing in, the link shows the library.
  const visitor = await freshPage(browser, app.url);
  await visitor.page.goto(link);
  await expect(visitor.page.getByRole('heading', { name: 'Shared Images' })).toBeVisible();
  const shared = visitor.page.getByRole('list', { name: 'Shared images' });
  for (const name of names) await expect(shared.getByRole('img', { name, exact: true })).toBeVisible();
  await expect.poll(() => shared.getByRole('img', { name: names[0] }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await visitor.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expect(visitor.page).toHaveURL(link);

  // The mailed link also proves her address: the page offers to confirm it, and as she has no
  // account yet, that leads to sign-up with her address filled in.
  const mailed = proofLinkIn(mail);
  expect(mailed.startsWith(`${link}?confirm=`)).toBe(true);
  await visitor.page.goto(mailed);
  for (const name of names) await expect(shared.getByRole('img', { name, exact: true })).toBeVisible();
  const hint = visitor.page.getByRole('region', { name: 'Confirm your e-mail address' });
  await expect(hint).toContainText(grandma.email);
  await hint.getByRole('link', { name: 'Confirm it to see shared photos in your own gallery.' }).click();
  await expect(visitor.page).toHaveURL(/\/signup\?proof=/);
  await visitor.page.getByLabel('Username').fill(grandma.username);
  await visitor.page.getByLabel('Password').fill(grandma.password);
  await visitor.page.getByRole('button', { name: /sign up/i }).click();
  await expect(visitor.page).toHaveURL(/\/$/);
  // Her gallery has the library, and /sharedMedia names the admin.
  const gallery = visitor.page.getByRole('list', { name: 'Gallery' });
  for (const name of names) await expect(gallery.getByRole('img', { name, exact: true })).toBeVisible();
  await visitor.page.goto('/sharedMedia');
  const folder = visitor.page.getByRole('link', { name: new RegExp(`Shared By\\s*${app.admin.username}`) });
  await expect(folder).toBeVisible();
  const token = await visitor.page.evaluate(() => localStorage.getItem('token'));
  expect(await galleryIds(app.url, token!)).toEqual(expect.arrayContaining(ids));
  await visitor.context.close();

  // The admin's access list has her, active.
  await page.goto('/user-access-data');
  await expect(page.getByRole('region', { name: 'All Access Users' }).getByText(grandma.email)).toBeVisible();
  await expect(accessToggle(page, grandma.email)).toHaveText('Active');
});

test('switching an all-access receiver to Inactive closes the public link with a clear message; switched on again, a new link is mailed', async ({ page, browser, app }) => {
  const receiver = newPerson('aunt');
  await seedImages(app.url, app.admin.token, 1, { prefix: 'aunt' });
  const shared = await callByApi<{ link: string }>(app.url, app.admin.token, 'POST', '/api/share-all', { accessTo: [receiver.email] });
  expect(shared.status).toBe(200);
  const link = linkIn(await app.mailbox.latestTo(receiver.email), `${app.url}/share-all/`);
  const receiverToken = await signUpByApi(app, receiver);
  const before = await galleryIds(app.url, receiverToken);
  expect(before.length).toBeGreaterThan(0);

  const visitor = await freshPage(browser, app.url);
  await visitor.page.goto(link);
  await expect(visitor.page.getByRole('list', { name: 'Shared images' })).toBeVisible();

  await signInAs(page, app.admin.token);
  await page.goto('/user-access-data');
  const toggle = accessToggle(page, receiver.email);
  await expect(toggle).toHaveText('Active');
  await toggle.click();
  await expect(toggle).toHaveText('Inactive');

  // The link now answers with the server's message; the receiver's gallery no longer has the library.
  await visitor.page.reload();
  await expect(visitor.page.getByText(/^Error: .*no longer active/i)).toBeVisible();
  await expect(visitor.page.getByRole('list', { name: 'Shared images' })).toHaveCount(0);
  expect(await galleryIds(app.url, receiverToken)).toEqual([]);
  expect((await callByApi(app.url, receiverToken, 'GET', `/api/images/${before[0]}`)).status).toBe(404);

  // Active again: the old link stays dead (it may have leaked); a new one is mailed to her and works.
  await toggle.click();
  await expect(toggle).toHaveText('Active');
  await visitor.page.reload();
  await expect(visitor.page.getByText(/^Error: /)).toBeVisible();
  await expect.poll(async () => linkIn(await app.mailbox.latestTo(receiver.email), `${app.url}/share-all/`)).not.toBe(link);
  const renewed = linkIn(await app.mailbox.latestTo(receiver.email), `${app.url}/share-all/`);
  await visitor.page.goto(renewed);
  await expect(visitor.page.getByRole('list', { name: 'Shared images' })).toBeVisible();
  expect((await galleryIds(app.url, receiverToken)).length).toBeGreaterThan(0);
  await visitor.context.close();
});

test('a link that never existed says so, and a plain user cannot share everything', async ({ page, app }) => {
  await page.goto('/share-all/not-a-real-link-token-000000');
  await expect(page.getByRole('heading', { name: 'Shared Images' })).toBeVisible();
  await expect(page.getByText(/^Error: /)).toBeVisible();

  const user = newPerson('plain');
  const token = await signUpByApi(app, user);
  expect((await callByApi(app.url, token, 'POST', '/api/share-all', { accessTo: ['x@example.com'] })).status).toBe(404);
  await signInAs(page, token);
  await page.goto('/all-access');
  await expect(page.getByText(/Only an admin can share the whole library/)).toBeVisible();
  await expect(page.getByPlaceholder('Enter receiver email')).toHaveCount(0);
});

test('on the public page a click shows a photo large: the display image, previous/next with wrap, Escape back to the grid', async ({ browser, app }) => {
  await seedImages(app.url, app.admin.token, 3, { prefix: 'large', width: 300, height: 200 });
  const receiver = newPerson('viewer');
  expect((await callByApi(app.url, app.admin.token, 'POST', '/api/share-all', { accessTo: [receiver.email] })).status).toBe(200);
  const link = linkIn(await app.mailbox.latestTo(receiver.email), `${app.url}/share-all/`);

  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const visitor = await freshPage(browser, app.url);
    await visitor.page.setViewportSize(viewport);
    await visitor.page.goto(link);
    const grid = visitor.page.getByRole('list', { name: 'Shared images' });
    await expect(grid.getByRole('button').first()).toBeVisible();
    // The first three tiles' names (a tile's picture is named by its alt, or its label until it loads).
    const names = await grid.getByRole('listitem').evaluateAll((tiles) =>
      tiles.slice(0, 3).map((tile) => tile.querySelector('img[alt]:not([alt=""])')?.getAttribute('alt') ?? tile.querySelector('[role="img"]')?.getAttribute('aria-label') ?? ''),
    );
    expect(names.filter(Boolean)).toHaveLength(3);

    await grid.getByRole('button', { name: names[0]!, exact: true }).click();
    const viewer = visitor.page.getByRole('dialog', { name: 'Photo viewer' });
    const shown = viewer.locator('img[alt]:not([alt=""])');
    await expect(shown).toHaveAttribute('alt', names[0]!);
    const count = Number(/^1 \/ (\d+)$/.exec((await viewer.getByText(/^\d+ \/ \d+$/).textContent()) ?? '')?.[1]);
    expect(count).toBeGreaterThanOrEqual(3);
    // The display image (not the thumbnail), loaded, as large as the window allows.
    await expect(shown).toHaveAttribute('src', /\/display\?/);
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect((await shown.boundingBox())!.width).toBeGreaterThan(Math.min(viewport.width * 0.8, 300));
    await expect(visitor.page).toHaveURL(link);

    await viewer.getByRole('button', { name: 'Next photo' }).click();
    await expect(shown).toHaveAttribute('alt', names[1]!);
    await visitor.page.keyboard.press('ArrowRight');
    await expect(shown).toHaveAttribute('alt', names[2]!);
    await viewer.getByRole('button', { name: 'Previous photo' }).click();
    await visitor.page.keyboard.press('ArrowLeft');
    await expect(shown).toHaveAttribute('alt', names[0]!);
    // Before the first comes the last, and after the last the first again.
    await visitor.page.keyboard.press('ArrowLeft');
    await expect(viewer.getByText(`${count} / ${count}`)).toBeVisible();
    await visitor.page.keyboard.press('ArrowRight');
    await expect(shown).toHaveAttribute('alt', names[0]!);

    await visitor.page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(visitor.page.getByRole('heading', { name: 'Shared Images' })).toBeVisible();
    await visitor.context.close();
  }
});
