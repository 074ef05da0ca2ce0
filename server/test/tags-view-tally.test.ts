import { describe, expect, it } from 'vitest';
import type { ImageIdsQuery } from '../src/access/visible-scope.js';
import type { AuthUser } from '../src/auth/auth-user.js';
import { START_OVER } from '../src/read-caches/library-version.js';
import type { TagsRepository } from '../src/tags/tags.repository.js';
import { type TagRow, ViewTally } from '../src/tags/view-tally.js';
import { VisibleVocabulary } from '../src/tags/visible-vocabulary.js';

const row = (image_id: number, tag_id: number): TagRow => ({ image_id, tag_id, name: `tag ${tag_id}` });
const counts = (tally: ViewTally | undefined) => tally?.vocabulary.startingWith('', 100).map((tag) => [tag.name, tag.usage_count]);

describe('a restricted view’s tags kept per image (ViewTally)', () => {
  it('counts one per row, and replaces just the changed images’ rows, leaving the older vocabulary as it was', () => {
    const first = ViewTally.of([row(1, 10), row(1, 11), row(2, 10), row(2, 10), row(3, 12)]);
    expect(counts(first)).toEqual([['tag 10', 3], ['tag 11', 1], ['tag 12', 1]]);
    expect(first.rows).toBe(5);

    // Image 2 lost one of its two 'tag 10' rows and gained 'tag 13'; image 3 lost its only tag; image 4 is new.
    const next = first.with([2, 3, 4], [row(2, 10), row(2, 13), row(4, 11)]);
    expect(counts(next)).toEqual([['tag 10', 2], ['tag 11', 2], ['tag 13', 1]]);
    expect(next?.rows).toBe(5);
    expect(counts(first)).toEqual([['tag 10', 3], ['tag 11', 1], ['tag 12', 1]]);
    expect(first.rows).toBe(5);

    // The next tally took the counts over: a second version made from the first is not made (the caller counts afresh).
    expect(first.with([1], [])).toBeUndefined();
    const third = next?.with([1], [row(1, 12)]);
    expect(counts(third)).toEqual([['tag 10', 1], ['tag 11', 1], ['tag 12', 1], ['tag 13', 1]]);
    expect(counts(next)).toEqual([['tag 10', 2], ['tag 11', 2], ['tag 13', 1]]);
  });

  it('keeps the very same vocabulary when the changed images’ tags are what they were (a like, a tag added twice)', () => {
    const first = ViewTally.of([row(1, 10), row(2, 11)]);
    const same = first.with([1, 5], [row(1, 10)]);
    expect(same?.vocabulary).toBe(first.vocabulary);
    expect(same?.rows).toBe(2);
  });

  it('matches a tally counted afresh after many changes in place', () => {
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    let rows: TagRow[] = Array.from({ length: 400 }, () => row(next(60), next(40)));
    let tally = ViewTally.of(rows) as ViewTally | undefined;
    for (let step = 0; step < 300; step += 1) {
      const changed = Array.from({ length: 1 + next(4) }, () => next(70));
      const fresh = Array.from({ length: next(6) }, () => row(changed[next(changed.length)] as number, next(45)));
      rows = [...rows.filter((r) => !changed.includes(r.image_id)), ...fresh];
      tally = tally?.with(changed, fresh);
      expect(counts(tally), `step ${step}`).toEqual(counts(ViewTally.of(rows)));
      expect(tally?.rows).toBe(rows.length);
    }
  });
});

describe('VisibleVocabulary with a tally', () => {
  const user: AuthUser = { id: 7, role: 'user', username: 'rita', email: 'rita@example.com', emailConfirmed: true };
  const view = {} as ImageIdsQuery;

  /** A view of `rows` tag rows at version `version`, whose changes since the last read are `changes`. */
  function vocabularyOver(options: { tooMany?: boolean }) {
    const state = { version: 1, rows: [row(1, 10), row(2, 10), row(2, 11)], changes: [] as number[] | typeof START_OVER };
    const calls = { rowsOnView: 0, rowsOnIds: 0, usageOn: 0, viewOf: 0 };
    const tags = {
      rowsOn: async (ids: ImageIdsQuery | readonly number[], limit = Number.POSITIVE_INFINITY) => {
        if (Array.isArray(ids)) {
          calls.rowsOnIds += 1;
          return state.rows.filter((r) => ids.includes(r.image_id));
        }
        calls.rowsOnView += 1;
        return options.tooMany || state.rows.length > limit ? undefined : state.rows;
      },
      usageOn: async () => {
        calls.usageOn += 1;
        const byTag = new Map<number, number>();
        for (const r of state.rows) byTag.set(r.tag_id, (byTag.get(r.tag_id) ?? 0) + 1);
        return [...byTag].map(([id, n]) => ({ id, name: `tag ${id}`, usage_count: n }));
      },
    } as unknown as TagsRepository;
    const vocabulary = new VisibleVocabulary({
      tags,
      libraryVersion: async () => ({ version: state.version, resetVersion: 1, listVersion: 1 }),
      scopeOf: () => 'user:7',
      viewOf: async () => {
        calls.viewOf += 1;
        return { whole: false, imageIds: view };
      },
      changesInView: async () => state.changes,
    });
    const ask = async () => (await (await vocabulary.of(user)).startingWith('', 10)).map((tag) => [tag.name, tag.usage_count]);
    return { state, calls, ask };
  }

  it('reads the changed images’ rows alone after a change in view, and the whole view after a start-over', async () => {
    const { state, calls, ask } = vocabularyOver({});
    expect(await ask()).toEqual([['tag 10', 2], ['tag 11', 1]]);
    state.rows = [row(1, 10), row(1, 11), row(2, 10), row(2, 11)];
    state.changes = [1];
    state.version = 2;
    expect(await ask()).toEqual([['tag 10', 2], ['tag 11', 2]]);
    expect(calls).toEqual({ rowsOnView: 1, rowsOnIds: 1, usageOn: 0, viewOf: 1 });
    state.version = 3;
    state.changes = START_OVER;
    state.rows = [row(2, 11)];
    expect(await ask()).toEqual([['tag 11', 1]]);
    expect(calls).toEqual({ rowsOnView: 2, rowsOnIds: 1, usageOn: 0, viewOf: 2 });
  });

  it('lets the database count a view with too many rows to keep, without reading its rows again each time', async () => {
    const { state, calls, ask } = vocabularyOver({ tooMany: true });
    expect(await ask()).toEqual([['tag 10', 2], ['tag 11', 1]]);
    state.rows = [row(1, 11), row(2, 10), row(2, 11)];
    state.changes = [1];
    state.version = 2;
    expect(await ask()).toEqual([['tag 11', 2], ['tag 10', 1]]);
    expect(calls).toEqual({ rowsOnView: 1, rowsOnIds: 0, usageOn: 2, viewOf: 2 });
  });
});
