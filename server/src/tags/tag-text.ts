import { normalizeTag, tagText } from '@photo/contract';
import { badRequest } from '../http/errors.js';

/**
 * How a tag is stored (DECISIONS §3), declared in the contract: trimmed, lower-cased, inner runs of
 * white space made one space, Unicode NFC — so 'Summer  2024 ' and 'summer 2024' are the same tag.
 */
export { normalizeTag };

/** Normalized, without empties and repeats, in the given order (for looking tags up). */
export function normalizeTags(texts: readonly string[]): string[] {
  return [...new Set(texts.map(normalizeTag).filter(Boolean))];
}

/**
 * The tag to store for `text`, held to the contract's rules for a new tag (`tagText`) in exactly the
 * form stored: not empty, at most 64 characters once lower-cased, no control characters, no lone
 * surrogates; else a 400 saying which. Every path that writes a tag name goes through this — the
 * contract checks the request too, but normalizing again may still change a text.
 */
export function tagToStore(text: string): string {
  const parsed = tagText.safeParse(text);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'That is not a tag.');
  return parsed.data;
}

/** `tagToStore` of each, without repeats, in the given order. */
export function tagsToStore(texts: readonly string[]): string[] {
  return [...new Set(texts.map(tagToStore))];
}
