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
});
