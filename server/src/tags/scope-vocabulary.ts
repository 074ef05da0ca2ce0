import type { TagRef } from './tags.repository.js';

/** Plain code-unit order (names are compared the same way everywhere in this file). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Ranking of suggestions: most used first, then alphabetically. */
const better = (a: TagRef, b: TagRef) => b.usage_count - a.usage_count || byName(a.name, b.name);

/** Marks tags handed to the constructor already in order (`withCounts`). */
const SORTED = Symbol('sorted');

/**
 * The tags on one person's visible images with their counts there, in memory, sorted by name: a
 * prefix is a binary search plus a walk over its range keeping the best few (even a one-letter
 * prefix over 10,000 tags is a few hundred comparisons), a name is a binary search. Built once per
 * visibility scope and library version from `TagsRepository.visibleUsage`.
 */
export class ScopeVocabulary {
  private readonly tags: TagRef[];

  /** `sorted`: the tags are already in name order, all used (`withCounts`). */
  constructor(tags: readonly TagRef[], sorted?: typeof SORTED) {
    this.tags = sorted === SORTED ? (tags as TagRef[]) : tags.filter((tag) => tag.usage_count > 0).sort((a, b) => byName(a.name, b.name));
  }

  /**
   * The same vocabulary with these tags' counts (0: no longer in view; a name not here yet: added).
   * Every other tag is shared with this one, and nothing is sorted again (view-tally.ts).
   */
  withCounts(changed: readonly TagRef[]): ScopeVocabulary {
    const tags = this.tags.slice();
    for (const tag of changed) {
      const at = lowerBound(tags, tag.name);
      const here = tags[at]?.name === tag.name;
      if (tag.usage_count > 0) tags.splice(at, here ? 1 : 0, tag);
      else if (here) tags.splice(at, 1);
    }
    return new ScopeVocabulary(tags, SORTED);
  }

  get size(): number {
    return this.tags.length;
  }

  /** Names in alphabetical order, at most `limit`. */
  names(limit: number): string[] {
    return this.tags.slice(0, limit).map((tag) => tag.name);
  }

  /** Tags starting with `prefix`, most used first, then alphabetically; at most `limit`. */
  startingWith(prefix: string, limit: number): TagRef[] {
    const best: TagRef[] = [];
    for (let i = this.lowerBound(prefix); i < this.tags.length; i += 1) {
      const tag = this.tags[i] as TagRef;
      if (!tag.name.startsWith(prefix)) break;
      if (best.length === limit && better(tag, best[limit - 1] as TagRef) >= 0) continue;
      // Insertion into a list of at most `limit` (5 or 50): cheaper than sorting the range.
      let at = best.length;
      while (at > 0 && better(tag, best[at - 1] as TagRef) < 0) at -= 1;
      best.splice(at, 0, tag);
      if (best.length > limit) best.pop();
    }
    return best;
  }

  /** The tags of these names seen here (with their counts here); names not seen are left out. */
  byNames(names: readonly string[]): TagRef[] {
    return names.flatMap((name) => {
      const tag = this.tags[this.lowerBound(name)];
      return tag?.name === name ? [tag] : [];
    });
  }

  private lowerBound(text: string): number {
    return lowerBound(this.tags, text);
  }
}

/** Index of the first name not below `text` in tags sorted by name. */
function lowerBound(tags: readonly TagRef[], text: string): number {
  let lo = 0;
  let hi = tags.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((tags[mid] as TagRef).name < text) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
