import { withoutHashPrefix } from '@/lib/tag-input';

/**
 * Tags are stored trimmed and lower-case (DECISIONS §3); inner runs of spaces become one. A leading
 * "#" is dropped: the chips show one already, so "#beach" means the tag beach.
 */
export function normaliseTag(text: string): string {
  return withoutHashPrefix(text).replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The tags in a piece of typed or pasted text (spec §5: the bulk input splits on spaces or commas).
 * A tag of several words goes in quotes: `beach "summer 2024"` is two tags. A quote left open runs
 * to the end of its part; commas always separate.
 */
export function splitTags(text: string): string[] {
  const found: string[] = [];
  for (const part of text.split(/[,\n]/)) {
    for (const match of part.matchAll(/"([^"]*)"?|[^\s"]+/g)) {
      const tag = normaliseTag(match[1] ?? match[0]);
      if (tag && !found.includes(tag)) found.push(tag);
    }
  }
  return found;
}

/** Whether the text holds a finished tag (a separator after it), as typing on a phone or a paste gives. */
export function hasFinishedTag(text: string): boolean {
  if (text.includes(',') || text.includes('\n')) return true;
  if (text.startsWith('"')) return text.indexOf('"', 1) > 0;
  return /\S\s/.test(text) || /\S"/.test(text);
}
