import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.js';

/** The tag texts of spec §8 (contract/src/texts.ts), as a person reads them. */
export const TEXTS = {
  SELECT_ONE_IMAGE: 'Please select at least one image.',
  ENTER_ONE_TAG: 'Please enter at least one tag.',
  NO_RESULTS_TITLE: 'No results found',
  NO_RESULTS_TEXT: "We couldn't find any images matching your search. Please try a different search term or check your spelling.",
  IM_IN_THIS_PHOTO: "I'm in this photo!",
  NO_TAGS: 'No tags',
  TAGS_MERGED: 'Tags merged successfully!!',
  TAG_SAVED: 'Tag saved successfully!!',
} as const;

/** A word no other test uses, so the shared tag vocabulary of one test run cannot disturb a test. */
export function uniqueWord(base: string): string {
  const letters = Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 5);
  return `${base}${letters}`;
}

/** A JSON call as the person with `token`; resolves with the status and the parsed body. */
export async function jsonCall<T = unknown>(url: string, token: string, method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${apiPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** POST /add-tags as the person with `token`; throws unless it worked. */
export async function tagByApi(url: string, token: string, imageIds: string[], tags: string[]): Promise<void> {
  const { status, body } = await jsonCall(url, token, 'POST', '/add-tags', { tags, imageIds });
  if (status !== 200) throw new Error(`POST /add-tags answered ${status}: ${JSON.stringify(body)}`);
}

/** The tags of one image, as the person with `token` sees them. */
export async function tagsOf(url: string, token: string, imageId: string): Promise<string[]> {
  const { status, body } = await jsonCall<{ tags: string[] }>(url, token, 'GET', `/api/images/${imageId}`);
  if (status !== 200) throw new Error(`GET /api/images/${imageId} answered ${status}`);
  return body.tags;
}

/** The texts of the options in the suggestion list under a text box. */
export async function suggestionTexts(page: Page, name = 'Tag suggestions'): Promise<string[]> {
  return page.getByRole('listbox', { name }).getByRole('option').allTextContents();
}

/** The chips waiting in the Add Tags dialog. */
export function pendingChips(dialog: Locator): Locator {
  return dialog.getByRole('list', { name: 'Tags to add' }).getByRole('listitem');
}

/** The alt texts of the pictures in a grid, in order. */
export async function pictureNames(grid: Locator): Promise<string[]> {
  return grid.locator('img[alt]:not([alt=""])').evaluateAll((images) => images.map((image) => image.getAttribute('alt') ?? ''));
}

/** Waits for a toast with exactly this text. */
export async function expectToast(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('alert').filter({ hasText: text }).or(page.getByText(text, { exact: true })).first()).toBeVisible();
}
