import { expect, newPerson, test } from './fixtures.js';

const SIGNIN_FAILED = 'Invalid credentials, please try again.';

test('a person signs up, signs out, signs in, forgets and resets the password', async ({ page, app }) => {
  const person = newPerson('ann');

  // The guard sends a visitor without a token to sign-in, replacing history.
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin$/);

  await page.getByRole('link', { name: /sign up/i }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: /sign up/i }).click();

  // Signed in, on the gallery, with the name and initials in the header.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(person.username).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

  // Sign out from the profile menu.
  await page.getByRole('button', { name: /profile menu|account menu|open user menu/i }).click();
  await page.getByRole('menuitem', { name: /sign out/i }).or(page.getByRole('button', { name: /sign out/i })).click();
  await expect(page).toHaveURL(/\/signin$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // A wrong password is refused with the spec's words; the right one signs in.
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill('not-my-password');
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page.getByText(SIGNIN_FAILED)).toBeVisible();
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/$/);

  // Forgot password: the same answer is shown, then back to sign-in after 5 seconds.
  await page.evaluate(() => localStorage.removeItem('token'));
  await page.goto('/signin');
  await page.getByRole('link', { name: /forgot/i }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(person.email);
  const askedAt = Date.now();
  await page.getByRole('button', { name: /send|reset|submit/i }).click();
  await expect(page.getByText(/password reset link has been sent/i)).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/, { timeout: 10_000 });
  expect(Date.now() - askedAt).toBeGreaterThanOrEqual(4_500);

  // The e-mail, read from the real SMTP receiver, carries the reset link.
  const mail = await app.mailbox.latestTo(person.email);
  const link = new RegExp(`${app.url}/reset-password/[A-Za-z0-9_-]+`).exec(mail.text ?? '')?.[0];
  expect(link, 'reset link in the e-mail').toBeTruthy();
  await page.goto(link!);

  // Both fields, at least 6 characters, and they must match.
  await page.getByLabel('New password', { exact: true }).fill('brand-new-secret');
  await page.getByLabel(/confirm/i).fill('brand-new-secreT');
  await page.getByRole('button', { name: /reset/i }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel(/confirm/i).fill('brand-new-secret');
  const resetAt = Date.now();
  await page.getByRole('button', { name: /reset/i }).click();
  await expect(page.getByText(/password has been reset/i)).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/, { timeout: 10_000 });
  expect(Date.now() - resetAt).toBeGreaterThanOrEqual(2_500);

  // The link works once; the new password signs in and the old one no longer does.
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page.getByText(SIGNIN_FAILED)).toBeVisible();
  await page.getByLabel('Password').fill('brand-new-secret');
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a used reset link shows the server message', async ({ page, app }) => {
  const person = newPerson('bo');
  await fetch(`${app.url}/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(person) });
  await fetch(`${app.url}/forgot-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: person.email }) });
  const mail = await app.mailbox.latestTo(person.email);
  const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;
  const used = await fetch(`${app.url}/reset-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, newPassword: 'first-new-pw' }) });
  expect(used.status).toBe(200);

  await page.goto(`/reset-password/${token}`);
  await page.getByLabel('New password', { exact: true }).fill('second-new-pw');
  await page.getByLabel(/confirm/i).fill('second-new-pw');
  await page.getByRole('button', { name: /reset/i }).click();
  await expect(page.getByText(/invalid or has expired/i)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/reset-password/${token}$`));
});

test('a sign-up with an address already taken shows the spec message', async ({ page, app }) => {
  await page.goto('/signup');
  await page.getByLabel('Username').fill('Someone');
  await page.getByLabel('Email').fill(app.admin.email);
  await page.getByLabel('Password').fill('whatever-pw');
  await page.getByRole('button', { name: /sign up/i }).click();
  await expect(page.getByText('User already exists or there was an issue with signup.')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});
