import type { ImageCards } from '../image-cards/image-cards.js';
import type { Placed } from './match-lists.js';

/** What a search matches: text in the file name, or one of the tags its prefix stands for. */
export interface SearchTerms {
  /** The text, trimmed and lower-cased as the search reads it (images/search.service.ts). */
  needle: string;
  /** Names of the tags the text's prefix stands for in the person's view. */
  tagNames: ReadonlySet<string>;
}

/**
 * Which of these images match a search now, with their places in the gallery order — the answer
 * `SearchService.recheck` (images/search.service.ts) reads from SQLite, made from the image cards
 * kept in memory instead (image-cards/: rows, and every shown tag). Under a crowd that tags as it
 * searches, each kept list of matches is caught up with the images tagged since its last version
 * many times a second; one statement per catch-up was a quarter of the server's SQL time in issue
 * 13's soak. The cards are caught up to `version` first, so they are as new as the statement's
 * answer would be; tags the catch-up dropped are read once for every list and for the gallery.
 *
 * The rule is SQLite's, exactly: `lower()` lowers ASCII letters only, and `like` compares other
 * characters as they are, so 'ÉTÉ.jpg' does not contain 'été' there and does not here. `ids` are
 * those in the person's view already (SearchService.keptMatchesFor); ready is checked here.
 */
export async function matchesKept(
  cards: Pick<ImageCards, 'rows' | 'facts'>,
  ids: readonly number[],
  version: number,
  terms: SearchTerms,
): Promise<Placed[]> {
  // A trashed image is never ready (image-visibility.ts): `ready` alone says it is in view.
  const rows = (await cards.rows(ids, version)).filter((row) => row.ready === 1);
  const facts = terms.tagNames.size > 0 ? await cards.facts(rows.map((row) => row.id), version) : [];
  const found: Placed[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    const byName = lowerAscii(row.file_name).includes(terms.needle);
    if (byName || facts[i]?.tags.some((name) => terms.tagNames.has(name))) found.push({ id: row.id, key: Number(row.taken_key) });
  }
  return found;
}

/** SQLite's `lower()` without ICU: A–Z only. */
export function lowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * A visible list's ids as a set, made once per list: a list is replaced, never changed, when what a
 * person sees changes (read-caches/visible-ids.ts), so a set is good for as long as its list is used
 * and goes with it.
 */
export class ViewSets {
  private readonly sets = new WeakMap<object, ReadonlySet<number>>();

  of(ids: Int32Array | Float64Array): ReadonlySet<number> {
    let set = this.sets.get(ids);
    if (!set) this.sets.set(ids, (set = new Set(ids)));
    return set;
  }
}
