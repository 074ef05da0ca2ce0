import { createAccountByApi, expect, galleryIds, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { callByApi, freshPage, personNamed, proofLinkIn, signUpInBrowser } from './support-sharing.js';

/** Decision 0006: what a share promises, tried in the browser as the people involved would. */

test('signing up with a shared-to address shows nothing shared until the mailed link is opened; then the share appears', async ({ page, app }) => {
  const owner = personNamed('Olga', 'olga');
  const ownerToken = await signUpByApi(app, owner);
  const [photo] = await seedImages(app.url, ownerToken, 1, { prefix: 'olga', width: 60, height: 40 });
  const dana = personNamed('Dana', 'dana');
  const shared = await callByApi(app.url, ownerToken, 'POST', '/api/share-restricted', { imageIds: [photo], emails: [dana.email] });
  expect(shared.status).toBe(200);

  // Dana signs up on her own (not through the share mail): signed in, on the gallery, and told why it is empty.
  await signUpInBrowser(page, dana);
  const notice = page.getByRole('region', { name: 'E-mail confirmation' });
  await expect(notice).toContainText(dana.email);
  const gallery = page.getByRole('list', { name: 'Gallery' });
  await expect(gallery.getByRole('img')).toHaveCount(0);
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  expect(await galleryIds(app.url, token)).toEqual([]);

  // Resend works (and says so); the newest confirmation mail is the one she opens.
  await notice.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText(`We sent a new confirmation link to ${dana.email}.`)).toBeVisible();
  const mail = await app.mailbox.latestTo(dana.email, 10_000, /Confirm your e-mail address/);
  const link = proofLinkIn(mail);
  expect(link.startsWith(`${app.url}/confirm-email/`)).toBe(true);

  // Opened in the browser she is signed in with: confirmed at once, and on to the gallery.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Address confirmed' })).toBeVisible();
  await expect(page.getByText(`Your address ${dana.email} is confirmed.`)).toBeVisible();
  await page.getByRole('link', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('region', { name: 'E-mail confirmation' })).toHaveCount(0);
  await expect(gallery.getByRole('img')).toHaveCount(1);
  expect(await galleryIds(app.url, token)).toEqual([photo]);
});

test('someone who claimed another person\'s address loses it when its owner opens their share mail', async ({ browser, app }) => {
  const owner = personNamed('Pia', 'pia');
  const ownerToken = await signUpByApi(app, owner);
  const [photo] = await seedImages(app.url, ownerToken, 1, { prefix: 'pia' });
  const victim = personNamed('Vera', 'vera');
  // A stranger signs up first with Vera's address; they never see her mail.
  const strangerToken = await createAccountByApi(app.url, { ...personNamed('Sly', 'sly'), email: victim.email });
  expect((await callByApi(app.url, ownerToken, 'POST', '/api/share-restricted', { imageIds: [photo], emails: [victim.email] })).status).toBe(200);
  expect(await galleryIds(app.url, strangerToken)).toEqual([]);

  const share = await app.mailbox.latestTo(victim.email, 10_000, /shared photos with you/);
  const vera = await freshPage(browser, app.url);
  await vera.page.goto(proofLinkIn(share));
  await expect(vera.page.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeVisible();
  await expect(vera.page.getByText('Sly', { exact: true })).toBeVisible();
  await vera.page.getByRole('button', { name: "This isn't my account" }).click();
  await expect(vera.page).toHaveURL(/\/signup\?proof=/);
  await expect(vera.page.getByRole('textbox', { name: 'Email' })).toHaveValue(victim.email);
  await vera.page.getByLabel('Username').fill(victim.username);
  await vera.page.getByLabel('Password').fill(victim.password);
  await vera.page.getByRole('button', { name: /sign up/i }).click();
  await expect(vera.page).toHaveURL(/\/$/);
  await expect(vera.page.getByRole('list', { name: 'Gallery' }).getByRole('img')).toHaveCount(1);
  // The stranger's session is over.
  expect((await callByApi(app.url, strangerToken, 'GET', '/api/users/me')).status).toBe(401);
  await vera.context.close();
});

test("a recipient switched to Inactive loses the photos in the tab they have open, and copied image URLs stop loading", async ({ page, browser, app }) => {
  const owner = personNamed('Quinn', 'quinn');
  const ownerToken = await signUpByApi(app, owner);
  const [photo] = await seedImages(app.url, ownerToken, 1, { prefix: 'quinn', width: 60, height: 40 });
  const rae = personNamed('Rae', 'rae');
  const raeToken = await signUpByApi(app, rae);
  expect((await callByApi(app.url, ownerToken, 'POST', '/api/share-restricted', { imageIds: [photo], emails: [rae.email] })).status).toBe(200);

  await signInAs(page, raeToken);
  await page.goto('/');
  const tile = page.getByRole('list', { name: 'Gallery' }).getByRole('img').first();
  await expect(tile).toBeVisible();
  await expect.poll(() => tile.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const thumbnailUrl = new URL((await tile.getAttribute('src'))!, app.url).toString();
  // The URL works in another browser too (copied out of the page) while Rae has access.
  const elsewhere = await freshPage(browser, app.url);
  expect((await elsewhere.page.request.get(thumbnailUrl)).status()).toBe(200);

  const records = await callByApi<{ restrictedAccessUserData: { _id: string; accessTo: string }[] }>(app.url, ownerToken, 'GET', '/getUserAccessData');
  const record = records.body.restrictedAccessUserData.find((r) => r.accessTo === rae.email)!;
  expect((await callByApi(app.url, ownerToken, 'PUT', `/updateUserStatus/${record._id}`, { status: false, type: 'restrictedAccess' })).status).toBe(200);

  // At once: the copied URL answers 404, wherever it is opened.
  expect((await elsewhere.page.request.get(thumbnailUrl)).status()).toBe(404);
  expect((await page.request.get(thumbnailUrl)).status()).toBe(404);
  await elsewhere.context.close();
  // The open tab re-reads its list while visible: the photo leaves the gallery without a reload.
  await expect(page.getByRole('list', { name: 'Gallery' }).getByRole('img')).toHaveCount(0, { timeout: 45_000 });
});
