import { expect, newPerson, seedImages, signInAs, signUpByApi, test, testPhoto, uploadByApi } from './fixtures.js';
import { callByApi } from './support-sharing.js';

/**
 * Issue 11: a photo's Info panel — the date and time taken, camera and lens, exposure, sizes, the
 * original file name; the place (with an OpenStreetMap link) only for its uploader and admins; and
 * "Date unknown" for a photo that records no date.
 */
test("the Info panel shows what the camera recorded; the place only to the uploader; an undated photo says so", async ({ page, app, browser }) => {
  const owner = newPerson('info');
  const ownerToken = await signUpByApi(app, owner);
  const [phone] = await uploadByApi(app.url, ownerToken, [{ name: 'Apple iPhone 4.jpg', source: testPhoto('camera/Apple iPhone 4.jpg') }]);
  expect(phone?.status).toBe('kept');
  const [undated] = await seedImages(app.url, ownerToken, 1, { prefix: 'undated' });

  await signInAs(page, ownerToken);
  await page.goto(`/image/${phone?.imageId}`);
  await page.getByRole('button', { name: 'Info', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Info' });
  await expect(panel.getByText('Apple iPhone 4', { exact: true })).toBeVisible();
  await expect(panel.getByText(/January 13, 2011|13 January 2011/)).toBeVisible();
  await expect(panel.getByText(/^ƒ\/[\d.]+ · 1\/\d+ s · ISO \d+ · [\d.]+ mm$/)).toBeVisible();
  await expect(panel.getByText('Apple iPhone 4.jpg', { exact: true })).toBeVisible();
  await expect(panel.getByText('1296 × 968 (1.3 MP)')).toBeVisible();
  const map = panel.getByRole('link', { name: 'Open in OpenStreetMap' });
  await expect(map).toHaveAttribute('href', /^https:\/\/www\.openstreetmap\.org\/\?mlat=41\.85\d*&mlon=12\.48\d*#map=16\//);

  // Someone it is shared with sees the facts, never the place.
  const friend = newPerson('infofriend');
  const friendToken = await signUpByApi(app, friend);
  expect((await callByApi(app.url, ownerToken, 'POST', '/api/share-restricted', { imageIds: [phone?.imageId], emails: [friend.email] })).status).toBe(200);
  const context = await browser.newContext({ baseURL: app.url });
  const other = await context.newPage();
  await signInAs(other, friendToken);
  await other.goto(`/image/${phone?.imageId}`);
  await other.getByRole('button', { name: 'Info', exact: true }).click();
  const theirs = other.getByRole('region', { name: 'Info' });
  await expect(theirs.getByText('Apple iPhone 4', { exact: true })).toBeVisible();
  await expect(theirs.getByText('Place')).toHaveCount(0);
  await expect(theirs.getByRole('link', { name: 'Open in OpenStreetMap' })).toHaveCount(0);
  await context.close();

  // A picture that records no date says so, and sorts by its upload.
  await page.goto(`/image/${undated}`);
  await page.getByRole('button', { name: 'Info', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Info' }).getByText('Date unknown')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Info' }).getByText('Sorted by upload date')).toBeVisible();
});
