import type { TagRef } from './tags.repository.js';

/** Plain code-unit order (names are compared the same way everywhere in this file). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Ranking of suggestions: most used first, then alphabetically. */
const better = (a: TagRef, b: TagRef) => b.usage_count - a.usage_count || byName(a.name, b.name);

/**
 * The tags on one person's visible images with their counts there, in memory, sorted by name: a
 * prefix is a binary search plus a walk over its range keeping the best few (even a one-letter
 * prefix over 10,000 tags is a few hundred comparisons), a name is a binary search. Built once per
 * visibility scope and library version from `TagsRepository.visibleUsage`.
 */
export class ScopeVocabulary {
  private readonly tags: TagRef[];

  constructor(tags: readonly TagRef[]) {
    this.tags = tags.filter((tag) => tag.usage_count > 0).sort((a, b) => byName(a.name, b.name));
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

  /** Index of the first name not below `text`. */
  private lowerBound(text: string): number {
    let lo = 0;
    let hi = this.tags.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.tags[mid] as TagRef).name < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
