import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { expect, newPerson, type Person } from './fixtures.js';

/** The sharing texts of spec §8 (contract/src/texts.ts), as a person reads them. */
export const TEXTS = {
  EMAIL_SENT: 'Email sent!!',
  NO_ACCESS_TITLE: 'User has no access',
  NO_ACCESS_TEXT: 'No media has been shared with you yet.',
  NOTHING_SHARED_YET: "You haven't shared any photos yet.",
  NO_TEMPLATES: 'No email templates available. Create your first template to get started.',
  IMAGE_NOT_FOUND: 'Image not found',
} as const;

/** A person with a chosen username (the sharer's name is what recipients read) and a fresh address. */
export function personNamed(username: string, prefix = username.toLowerCase()): Person {
  return { ...newPerson(prefix), username };
}

/** JSON call as the person with `token`; resolves with the status and the parsed body. */
export async function callByApi<T = unknown>(url: string, token: string | null, method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${apiPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The first link in the mail's plain text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`${escaped}[A-Za-z0-9_\\-/]*`).exec(mail.text ?? '')?.[0];
  if (!found) throw new Error(`no link starting with ${prefix} in the e-mail:\n${mail.text ?? ''}`);
  return found;
}

/** A fresh browser context (no token), on the app. */
export async function freshPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL });
  return { context, page: await context.newPage() };
}

/** Signs up through the sign-up screen; lands on the gallery, signed in. */
export async function signUpInBrowser(page: Page, person: Person): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: /sign up/i }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
}

/** The access switch of one receiver on /user-access-data (its name says the state). */
export function accessToggle(page: Page, email: string) {
  return page.getByRole('button', { name: new RegExp(`^${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (Active|Inactive)$`) });
}

/** Creates a template through the New Template modal on /user-access-data. */
export async function createTemplateInBrowser(
  page: Page,
  template: { name: string; subject: string; body: string; isDefault?: boolean },
): Promise<void> {
  await page.getByRole('button', { name: 'New Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Template' });
  await dialog.getByPlaceholder('Name of the template').fill(template.name);
  await dialog.getByRole('textbox', { name: 'Subject' }).fill(template.subject);
  await dialog.getByRole('textbox', { name: 'Body' }).fill(template.body);
  if (template.isDefault) await dialog.getByRole('checkbox', { name: 'Set as Default' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(templateItem(page, template.name)).toBeVisible();
}

/** One template's entry in the Email Templates list. */
export function templateItem(page: Page, name: string) {
  return page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
}

/** A mail's link that proves the address (`/confirm-email/<token>`), or a share-all link with `?confirm=`. */
export function proofLinkIn(mail: ParsedMail): string {
  const found = /https?:\/\/\S+?(?:\/confirm-email\/|[?&]confirm=)[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
  if (!found) throw new Error(`no confirmation link in the e-mail:\n${mail.text ?? ''}`);
  return found;
}

/**
 * Someone without an account opens the link of a share mail: the confirm page hands over to sign-up
 * with the address filled in (read-only); they choose a name and password and land on the gallery.
 */
export async function signUpFromMailLink(page: Page, link: string, person: Person): Promise<void> {
  await page.goto(link);
  await expect(page).toHaveURL(/\/signup\?proof=/);
  const email = page.getByRole('textbox', { name: 'Email' });
  await expect(email).toHaveValue(person.email);
  await expect(email).toHaveAttribute('readonly', '');
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: /sign up/i }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  // The link proved the address: no notice asks for a confirmation.
  await expect(page.getByRole('region', { name: 'E-mail confirmation' })).toHaveCount(0);
}
