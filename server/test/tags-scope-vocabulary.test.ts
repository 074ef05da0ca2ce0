import { describe, expect, it } from 'vitest';
import { ScopeVocabulary } from '../src/tags/scope-vocabulary.js';
import type { TagRef } from '../src/tags/tags.repository.js';

/** What the database answers for the whole library: a prefix range ordered by count, then name. */
function reference(tags: readonly TagRef[], prefix: string, limit: number): string[] {
  return tags
    .filter((tag) => tag.usage_count > 0 && tag.name.startsWith(prefix))
    .sort((a, b) => b.usage_count - a.usage_count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit)
    .map((tag) => tag.name);
}

describe('a person\'s tags in memory (ScopeVocabulary)', () => {
  // Deterministic pseudo-random vocabulary with many ties and shared prefixes.
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  const letters = 'abcé ';
  const tags: TagRef[] = Array.from({ length: 3000 }, (_, id) => ({
    id,
    name: Array.from({ length: 1 + (next() % 6) }, () => letters[next() % letters.length]).join('') + String(id % 7),
    usage_count: next() % 5,
  }));
  const unique = [...new Map(tags.map((tag) => [tag.name, tag])).values()];
  const vocabulary = new ScopeVocabulary(unique);

  it('ranks a prefix like the database does: most used first, then by name, at most the limit', () => {
    for (const prefix of ['', 'a', 'b', 'ab', 'é', 'c ', 'cab', 'zzz', 'aaaaaa']) {
      for (const limit of [1, 5, 50]) expect(vocabulary.startingWith(prefix, limit), `${prefix}/${limit}`).toEqual(
        reference(unique, prefix, limit).map((name) => unique.find((tag) => tag.name === name)),
      );
    }
  });

  it('lists names alphabetically and finds tags by name, leaving out unused and unknown ones', () => {
    const used = unique.filter((tag) => tag.usage_count > 0).map((tag) => tag.name).sort((a, b) => (a < b ? -1 : 1));
    expect(vocabulary.names(100_000)).toEqual(used);
    expect(vocabulary.names(3)).toEqual(used.slice(0, 3));
    const unused = unique.find((tag) => tag.usage_count === 0);
    expect(vocabulary.byNames([used[1] as string, 'no such tag', unused?.name ?? '', used[0] as string]).map((tag) => tag.name)).toEqual([
      used[1],
      used[0],
    ]);
  });
});
