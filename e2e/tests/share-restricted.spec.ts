import { expect, galleryIds, getByApi, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { accessToggle, callByApi, createTemplateInBrowser, freshPage, personNamed, proofLinkIn, signUpFromMailLink, templateItem, TEXTS } from './support-sharing.js';

test('bob shares 12 photos with two people through his default template; a recipient likes and tags them; Inactive takes them away', async ({ page, browser, app }) => {
  const bob = personNamed('bob');
  const ann = personNamed('Ann', 'ann');
  const cy = personNamed('Cy', 'cy');
  const bobToken = await signUpByApi(app, bob);
  await seedImages(app.url, bobToken, 14, { prefix: 'bob', width: 48, height: 32 });
  const order = await galleryIds(app.url, bobToken);
  // The two newest are left out of the share.
  const left = order.slice(0, 2);
  const sharedIds = order.slice(2);

  // Bob's first template becomes his default.
  await signInAs(page, bobToken);
  await page.goto('/user-access-data');
  await expect(page.getByText(TEXTS.NO_TEMPLATES)).toBeVisible();
  await createTemplateInBrowser(page, {
    name: 'Family',
    subject: 'Photos from {{sender}}',
    body: 'Hi! {{sender}} shared {{count}} photos with you: {{link}}',
  });
  await expect(templateItem(page, 'Family').getByRole('checkbox', { name: 'Set as Default' })).toBeChecked();

  // In the gallery: select all, leave two out, Selective Access with two addresses.
  await page.goto('/');
  await page.getByRole('button', { name: 'Select All' }).click();
  for (const id of left) {
    const name = ((await getByApi<{ imageName: string }>(app.url, bobToken, `/api/images/${id}`)).body).imageName;
    await page.getByRole('checkbox', { name: `Select ${name}` }).uncheck();
  }
  await expect(page.getByText('12 selected')).toBeVisible();
  await expect(page.getByRole('link', { name: 'All Access' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Selective Access' }).click();
  const dialog = page.getByRole('dialog', { name: 'Selective Access' });
  await dialog.getByRole('textbox', { name: 'Share 12 images with' }).fill(` ${ann.email} ,${cy.email} `);
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByText(TEXTS.EMAIL_SENT)).toBeVisible();
  await expect(dialog).toBeHidden();

  // Each recipient gets the mail written from Bob's template; neither has an account yet, so the
  // link proves their address (decision 0006).
  const links = new Map<string, string>();
  for (const person of [ann, cy]) {
    const mail = await app.mailbox.latestTo(person.email);
    expect(mail.subject).toBe('Photos from bob');
    expect(mail.text).toContain(`Hi! bob shared 12 photos with you: ${app.url}/confirm-email/`);
    expect(String(mail.html)).toContain('bob shared 12 photos with you');
    links.set(person.email, proofLinkIn(mail));
  }

  // Ann opens the link in her mail: she signs up with her address (filled in) and finds Bob's folder.
  const annSide = await freshPage(browser, app.url);
  const annPage = annSide.page;
  await signUpFromMailLink(annPage, links.get(ann.email)!, ann);
  await annPage.goto('/sharedMedia');
  const folder = annPage.getByRole('link', { name: /Shared By\s*bob/ });
  await expect(folder).toContainText('Files: 12');
  await folder.click();
  await expect(annPage).toHaveURL(/\/sharedMedia\/sharedWithMe\/bob$/);
  await expect(annPage.getByRole('heading', { name: 'Images Collection' })).toBeVisible();
  await expect(annPage.getByText('Images: 12')).toBeVisible();

  // She opens the newest shared photo, likes it and tags it.
  const grid = annPage.getByRole('list', { name: 'Images shared by bob' });
  await grid.getByRole('link').first().click();
  const photoId = sharedIds[0]!;
  await expect(annPage).toHaveURL(new RegExp(`/image/${photoId}$`));
  await annPage.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(annPage.getByText('1 Like', { exact: true })).toBeVisible();
  await annPage.getByPlaceholder('Add a new tag').fill('grandpa');
  await annPage.getByPlaceholder('Add a new tag').press('Enter');
  await expect(annPage.getByRole('list', { name: 'Tags' }).getByText('#grandpa')).toBeVisible();

  // The older shared view of the same photo: her like and tag are there, and it takes more.
  await annPage.goto(`/shared/image/${photoId}`);
  await expect(annPage.getByText('1 Like', { exact: true })).toBeVisible();
  await expect(annPage.getByRole('list', { name: 'Tags' }).getByText('#grandpa')).toBeVisible();
  await annPage.getByPlaceholder('Add a new tag').fill('Picnic');
  await annPage.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(annPage.getByRole('list', { name: 'Tags' }).getByText('#picnic')).toBeVisible();
  await annPage.getByRole('button', { name: 'Unlike' }).click();
  await expect(annPage.getByText('0 Likes', { exact: true })).toBeVisible();
  await annPage.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(annPage.getByText('1 Like', { exact: true })).toBeVisible();

  // Bob sees her like and tags on his photo.
  await expect
    .poll(async () => (await getByApi<{ likes: number; tags: string[] }>(app.url, bobToken, `/api/images/${photoId}`)).body)
    .toMatchObject({ likes: 1, tags: expect.arrayContaining(['grandpa', 'picnic']) });

  // Bob's folders: one per recipient, 12 files each; one opens the photos he shared with her.
  await page.goto('/users-i-sharedWith');
  for (const person of [ann, cy]) {
    const card = page.getByRole('link', { name: new RegExp(`Shared With\\s*${person.email}`) });
    await expect(card).toContainText('Files: 12');
  }
  await page.getByRole('link', { name: new RegExp(`Shared With\\s*${ann.email}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/shared-photos/${encodeURIComponent(ann.email)}$`));
  await expect(page.getByText('Images: 12')).toBeVisible();
  await page.getByRole('list', { name: `Images shared with ${ann.email}` }).getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`/image/${photoId}$`));

  // Bob switches Ann to Inactive: from then on she sees none of the photos; Cy still does.
  const cyToken = await signUpByApi(app, cy);
  await page.goto('/user-access-data');
  await expect(page.getByText('Total Users: 2')).toBeVisible();
  const restricted = page.getByRole('region', { name: 'Restricted Access Users' });
  await expect(restricted.getByText(ann.email)).toBeVisible();
  await expect(accessToggle(page, cy.email)).toHaveText('Active');
  await accessToggle(page, ann.email).click();
  await expect(accessToggle(page, ann.email)).toHaveText('Inactive');

  await annPage.goto('/sharedMedia');
  await expect(annPage.getByRole('heading', { name: TEXTS.NO_ACCESS_TITLE })).toBeVisible();
  await expect(annPage.getByText(TEXTS.NO_ACCESS_TEXT)).toBeVisible();
  await annPage.goto(`/shared/image/${photoId}`);
  await expect(annPage.getByRole('heading', { name: TEXTS.IMAGE_NOT_FOUND })).toBeVisible();
  const annToken = (await annPage.evaluate(() => localStorage.getItem('token')))!;
  expect(await galleryIds(app.url, annToken)).toEqual([]);
  expect([...(await galleryIds(app.url, cyToken))].sort()).toEqual([...sharedIds].sort());
  await annSide.context.close();

  // Cy's /shared/:token grid lists the 12 photos shared with him, each opening its detail.
  const cySide = await freshPage(browser, app.url);
  await signInAs(cySide.page, cyToken);
  await cySide.page.goto('/shared/from-bob');
  const cyGrid = cySide.page.getByRole('list', { name: 'Shared images' });
  await expect(cyGrid.getByRole('link').first()).toHaveAttribute('href', `/image/${sharedIds[0]}`);
  await expect.poll(() => cyGrid.getByRole('listitem').first().getAttribute('aria-setsize')).toBe('12');
  await cySide.context.close();
});

test('a person who shared nothing, or had nothing shared, sees the empty texts', async ({ page, app }) => {
  const token = await signUpByApi(app, personNamed('Dora', 'dora'));
  await signInAs(page, token);
  await page.goto('/users-i-sharedWith');
  await expect(page.getByRole('heading', { name: TEXTS.NOTHING_SHARED_YET })).toBeVisible();
  await page.goto('/sharedMedia');
  await expect(page.getByRole('heading', { name: TEXTS.NO_ACCESS_TITLE })).toBeVisible();
  await page.goto('/sharedMedia/sharedWithMe/nobody');
  await expect(page.getByRole('heading', { name: 'User Not Found' })).toBeVisible();
  await expect(page.getByText('No shared images were found for "nobody".')).toBeVisible();
  await page.goto('/shared-photos/nobody@example.com');
  await expect(page.getByRole('heading', { name: 'No images shared with this user yet.' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Shared Folders' }).click();
  await expect(page).toHaveURL(/\/users-i-sharedWith$/);
});

test('one photo is shared from its detail view; the recipient without an account is told by the built-in mail', async ({ page, app }) => {
  const kim = personNamed('kim');
  const token = await signUpByApi(app, kim);
  const [imageId] = await seedImages(app.url, token, 1, { prefix: 'single' });
  const friend = personNamed('Lou', 'lou');

  await signInAs(page, token);
  await page.goto(`/image/${imageId}`);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share image' });
  await dialog.getByRole('textbox', { name: 'Share 1 image with' }).fill(friend.email);
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByText(TEXTS.EMAIL_SENT)).toBeVisible();

  // Kim has no template: the mail is the built-in one, and still carries the way in.
  const mail = await app.mailbox.latestTo(friend.email);
  expect(mail.subject).toContain('kim');
  expect(mail.text).toContain(`${app.url}/confirm-email/`);
  const friendToken = await signUpByApi(app, friend);
  expect(await galleryIds(app.url, friendToken)).toEqual([imageId]);
});

test('a refused share says why inside the dialog: a wrong address, a photo that is someone else\'s', async ({ page, app }) => {
  const owner = personNamed('Olga', 'olga');
  const ownerToken = await signUpByApi(app, owner);
  const [imageId] = await seedImages(app.url, ownerToken, 1, { prefix: 'olga' });
  const viewer = personNamed('Vic', 'vic');
  const viewerToken = await signUpByApi(app, viewer);
  const shared = await callByApi(app.url, ownerToken, 'POST', '/api/share-restricted', { imageIds: [imageId], emails: [viewer.email] });
  expect(shared.status).toBe(200);

  // The owner mistypes the address.
  await signInAs(page, ownerToken);
  await page.goto(`/image/${imageId}`);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: 'Share image' });
  await dialog.getByRole('textbox', { name: 'Share 1 image with' }).fill('not-an-email');
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Enter a valid e-mail address.');
  await expect(dialog).toBeVisible();
  await expect(page.getByText(TEXTS.EMAIL_SENT)).toHaveCount(0);

  // The recipient tries to pass the owner's photo on, from the gallery.
  const { context, page: viewerPage } = await freshPage(page.context().browser()!, app.url);
  await signInAs(viewerPage, viewerToken);
  await viewerPage.goto('/');
  await viewerPage.getByRole('checkbox', { name: /^Select / }).first().check();
  await viewerPage.getByRole('button', { name: 'Selective Access' }).click();
  dialog = viewerPage.getByRole('dialog', { name: 'Selective Access' });
  await dialog.getByRole('textbox', { name: 'Share 1 image with' }).fill('someone-else@example.com');
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect(dialog.getByRole('alert')).toContainText('can only be shared by the person who uploaded it');
  await context.close();
});
