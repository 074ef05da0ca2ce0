/**
 * How a tag is stored (DECISIONS §3): trimmed, lower-cased, inner runs of white space made one
 * space, Unicode NFC — so 'Summer  2024 ' and 'summer 2024' are the same tag.
 */
export function normalizeTag(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Normalized, without empties and repeats, in the given order. */
export function normalizeTags(texts: readonly string[]): string[] {
  return [...new Set(texts.map(normalizeTag).filter(Boolean))];
}
