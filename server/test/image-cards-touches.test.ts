import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { ImageCards } from '../src/image-cards/image-cards.js';
import type { ImageWithMedia } from '../src/images/images.repository.js';
import { bumpLibraryVersion } from '../src/read-caches/library-version.js';
import { openMigratedDatabase, testDatabases } from './support/databases.js';

/**
 * Image cards (decision 0014) after a like or a tag keep the image's row — the same object, and so
 * the JSON pieces made from it (card-json.ts) — and read only its tags and likes again; after any
 * other touch (a fact read again) they read the row too. Under issue 13's soak likes and tags are
 * ~250 changes a second, and each had made every process read the row again.
 */
describe.each(testDatabases)('image cards after touches (%s)', (kind) => {
  let database: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, close } = await openMigratedDatabase(kind));
  });
  afterAll(async () => close());

  it('keep the row across likes and tags, and read it again when more than those changed', async () => {
    const reads = { rows: 0, facts: 0 };
    const cards = new ImageCards(database.db, {
      rows: async (ids) => {
        reads.rows += 1;
        return ids.map((id) => ({ id, ready: 1, trashed_at: null }) as unknown as ImageWithMedia);
      },
      labels: async () => {
        reads.facts += 1;
        return new Map();
      },
      likers: async () => new Map(),
    });
    const bump = (change: Parameters<typeof bumpLibraryVersion>[1]) => database.db.transaction().execute((trx) => bumpLibraryVersion(trx, change));
    const read = async (version: number) => ({ row: (await cards.rows([7], version))[0], facts: await cards.facts([7], version) });

    const start = await bump({ touched: [8] });
    const first = await read(start);
    expect(reads).toEqual({ rows: 1, facts: 1 });

    const liked = await read(await bump({ touched: [7], only: 'likes' }));
    expect(liked.row).toBe(first.row);
    expect(reads).toEqual({ rows: 1, facts: 2 });

    const tagged = await read(await bump({ touched: [7], only: 'tags' }));
    expect(tagged.row).toBe(first.row);
    expect(reads).toEqual({ rows: 1, facts: 3 });

    // Another image's like changes nothing of this one.
    await read(await bump({ touched: [9], only: 'likes' }));
    expect(reads).toEqual({ rows: 1, facts: 3 });

    // A fact read again (facts-backfill): the row may differ.
    const refreshed = await read(await bump({ touched: [7] }));
    expect(refreshed.row).not.toBe(first.row);
    expect(reads).toEqual({ rows: 2, facts: 4 });
  });

  it('move to a like this process committed without reading, when it is the only change since they caught up', async () => {
    let factReads = 0;
    let likersNow: number[] = [3];
    const cards = new ImageCards(database.db, {
      rows: async (ids) => ids.map((id) => ({ id, ready: 1, trashed_at: null }) as unknown as ImageWithMedia),
      labels: async () => new Map([[7, { tags: ['beach'], customTags: [] }]]),
      likers: async () => {
        factReads += 1;
        return new Map([[7, likersNow]]);
      },
    });
    const bump = (change: Parameters<typeof bumpLibraryVersion>[1]) => database.db.transaction().execute((trx) => bumpLibraryVersion(trx, change));
    const start = await bump({ touched: [8] });
    expect((await cards.facts([7], start))[0]).toEqual({ tags: ['beach'], customTags: [], likers: [3] });
    expect(factReads).toBe(1);

    // Person 5 likes image 7: the version it committed is the cards' next one.
    likersNow = [3, 5];
    const liked = await bump({ touched: [7], only: 'likes' });
    cards.likeCommitted({ imageId: 7, userId: 5, liked: true, version: liked, likes: 2 });
    expect((await cards.facts([7], liked))[0]).toEqual({ tags: ['beach'], customTags: [], likers: [3, 5] });
    expect(factReads).toBe(1);

    // Person 3 takes theirs back.
    likersNow = [5];
    const unliked = await bump({ touched: [7], only: 'likes' });
    cards.likeCommitted({ imageId: 7, userId: 3, liked: false, version: unliked, likes: 1 });
    expect((await cards.facts([7], unliked))[0]?.likers).toEqual([5]);
    expect(factReads).toBe(1);

    // Another change came first (another process's tag): the like is not applied, the catch-up reads.
    likersNow = [5, 9];
    await bump({ touched: [7], only: 'tags' });
    const behind = await bump({ touched: [7], only: 'likes' });
    cards.likeCommitted({ imageId: 7, userId: 9, liked: true, version: behind, likes: 2 });
    expect((await cards.facts([7], behind))[0]?.likers).toEqual([5, 9]);
    expect(factReads).toBe(2);

    // A count that does not add up (the card was not what the like changed): read again.
    likersNow = [5, 9, 11, 12];
    const odd = await bump({ touched: [7], only: 'likes' });
    cards.likeCommitted({ imageId: 7, userId: 11, liked: true, version: odd, likes: 4 });
    expect((await cards.facts([7], odd))[0]?.likers).toEqual([5, 9, 11, 12]);
    expect(factReads).toBe(3);
  });

  it('take tags this process added in place: every name on every image, custom only where a custom row was new', async () => {
    let labelReads = 0;
    const cards = new ImageCards(database.db, {
      rows: async (ids) => ids.map((id) => ({ id, ready: 1, trashed_at: null }) as unknown as ImageWithMedia),
      labels: async () => {
        labelReads += 1;
        return new Map([
          [7, { tags: ['beach', 'zoo'], customTags: [] }],
          [8, { tags: ['dog'], customTags: ['dog'] }],
        ]);
      },
      likers: async () => new Map([[8, [4]]]),
    });
    const bump = (change: Parameters<typeof bumpLibraryVersion>[1]) => database.db.transaction().execute((trx) => bumpLibraryVersion(trx, change));
    const start = await bump({ touched: [9] });
    await cards.facts([7, 8], start);
    expect(labelReads).toBe(1);

    // "summer" added to both; "beach" was on 7 already (by someone, as a plain tag): no new custom row there.
    const version = await bump({ touched: [7, 8], only: 'tags' });
    cards.tagsCommitted({
      version,
      imageIds: [7, 8],
      names: ['beach', 'summer'],
      kind: 'custom',
      added: [
        { imageId: 7, name: 'summer' },
        { imageId: 8, name: 'beach' },
        { imageId: 8, name: 'summer' },
      ],
    });
    expect(await cards.facts([7, 8], version)).toEqual([
      { tags: ['beach', 'summer', 'zoo'], customTags: ['summer'], likers: [] },
      { tags: ['beach', 'dog', 'summer'], customTags: ['beach', 'dog', 'summer'], likers: [4] },
    ]);
    expect(labelReads).toBe(1);

    // Behind another change: not applied, read again.
    await bump({ touched: [8], only: 'likes' });
    const behind = await bump({ touched: [7], only: 'tags' });
    cards.tagsCommitted({ version: behind, imageIds: [7], names: ['zz'], kind: 'tag', added: [{ imageId: 7, name: 'zz' }] });
    await cards.facts([7], behind);
    expect(labelReads).toBe(2);
  });
});
