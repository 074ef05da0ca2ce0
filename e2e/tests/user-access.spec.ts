import { expect, seedImages, signInAs, signUpByApi, test } from './fixtures.js';
import { callByApi, createTemplateInBrowser, personNamed, templateItem, TEXTS } from './support-sharing.js';

const defaultBox = (page: Parameters<typeof templateItem>[0], name: string) =>
  templateItem(page, name).getByRole('checkbox', { name: 'Set as Default' });

test('templates: the first becomes default, a new default moves the mark, edit with Update, choose the default by its box', async ({ page, app }) => {
  const eve = personNamed('Eve', 'eve');
  const token = await signUpByApi(app, eve);
  await signInAs(page, token);
  await page.goto('/user-access-data');
  await expect(page.getByRole('heading', { name: 'User Access Management' })).toBeVisible();
  await expect(page.getByText('Total Users: 0')).toBeVisible();
  await expect(page.getByText(TEXTS.NO_TEMPLATES)).toBeVisible();

  // The modal closes with its X and keeps nothing.
  await page.getByRole('button', { name: 'New Template' }).click();
  const modal = page.getByRole('dialog', { name: 'New Template' });
  await expect(modal.getByPlaceholder('Name of the template')).toBeVisible();
  await expect(modal.getByRole('checkbox', { name: 'Set as Default' })).not.toBeChecked();
  await expect(modal.getByRole('button', { name: 'Save' })).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByText(TEXTS.NO_TEMPLATES)).toBeVisible();

  await createTemplateInBrowser(page, { name: 'Family', subject: 'Photos from {{sender}}', body: 'Look: {{link}}' });
  await expect(defaultBox(page, 'Family')).toBeChecked();
  await expect(templateItem(page, 'Family')).toContainText('Subject: Photos from {{sender}}');
  await expect(templateItem(page, 'Family')).toContainText('Body: Look: {{link}}');

  await createTemplateInBrowser(page, { name: 'Friends', subject: 'New pictures', body: 'From {{sender}}', isDefault: true });
  await expect(defaultBox(page, 'Friends')).toBeChecked();
  await expect(defaultBox(page, 'Family')).not.toBeChecked();

  // Edit: the modal comes filled in and says Update.
  await templateItem(page, 'Friends').getByRole('button', { name: 'Edit Friends' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Template' });
  await expect(edit.getByPlaceholder('Name of the template')).toHaveValue('Friends');
  await edit.getByRole('textbox', { name: 'Subject' }).fill('Fresh pictures from {{sender}}');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(edit).toBeHidden();
  await expect(templateItem(page, 'Friends')).toContainText('Subject: Fresh pictures from {{sender}}');
  await expect(defaultBox(page, 'Friends')).toBeChecked();

  // Ticking Family makes it the default and unmarks Friends, and it stays so after a reload.
  // click, not check(): the box follows the server's answer, not the click itself.
  await defaultBox(page, 'Family').click();
  await expect(defaultBox(page, 'Family')).toBeChecked();
  await expect(defaultBox(page, 'Friends')).not.toBeChecked();
  await page.reload();
  await expect(defaultBox(page, 'Family')).toBeChecked();
  await expect(defaultBox(page, 'Friends')).not.toBeChecked();

  // The server agrees: exactly one default, with the edited subject kept.
  const saved = await callByApi<{ templateName: string; subjectEmail: string; isDefault: boolean }[]>(app.url, token, 'GET', '/api/savedTemplates');
  expect(saved.body.filter((t) => t.isDefault).map((t) => t.templateName)).toEqual(['Family']);
  expect(saved.body.find((t) => t.templateName === 'Friends')?.subjectEmail).toBe('Fresh pictures from {{sender}}');

  // A share now goes out through Family.
  const [imageId] = await seedOne(app.url, token);
  const friend = personNamed('Fay', 'fay');
  expect((await callByApi(app.url, token, 'POST', '/api/share-restricted', { imageIds: [imageId], emails: [friend.email] })).status).toBe(200);
  const mail = await app.mailbox.latestTo(friend.email);
  expect(mail.subject).toBe('Photos from Eve');
  // The friend has no account yet: the link proves the address (decision 0006).
  expect(mail.text).toContain(`Look: ${app.url}/confirm-email/`);
});

test('the access lists count both kinds, and each toggle flips only after the server confirms', async ({ page, app }) => {
  const gus = personNamed('Gus', 'gus');
  const token = await signUpByApi(app, gus);
  const [imageId] = await seedOne(app.url, token);
  const receivers = [personNamed('Hal', 'hal').email, personNamed('Ivy', 'ivy').email];
  expect((await callByApi(app.url, token, 'POST', '/api/share-restricted', { imageIds: [imageId], emails: receivers })).status).toBe(200);

  await signInAs(page, token);
  await page.goto('/user-access-data');
  await expect(page.getByText('Total Users: 2')).toBeVisible();
  const restricted = page.getByRole('region', { name: 'Restricted Access Users' });
  for (const email of receivers) await expect(restricted.getByText(email)).toBeVisible();

  // Hold the server's answer back: the row keeps its state until it arrives.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/updateUserStatus/**', async (route) => {
    await gate;
    await route.continue();
  });
  const toggle = restricted.getByRole('button', { name: new RegExp(`^${receivers[0]!.replace(/\./g, '\\.')}: `) });
  await expect(toggle).toHaveText('Active');
  await toggle.click();
  await page.waitForTimeout(300);
  await expect(toggle).toHaveText('Active');
  release();
  await expect(toggle).toHaveText('Inactive');
  await page.unroute('**/updateUserStatus/**');

  const data = await callByApi<{ restrictedAccessUserData: { accessTo: string; status: boolean }[] }>(app.url, token, 'GET', '/getUserAccessData');
  expect(Object.fromEntries(data.body.restrictedAccessUserData.map((r) => [r.accessTo, r.status]))).toEqual({ [receivers[0]!]: false, [receivers[1]!]: true });
});

const seedOne = (url: string, token: string) => seedImages(url, token, 1, { prefix: 'tpl' });
