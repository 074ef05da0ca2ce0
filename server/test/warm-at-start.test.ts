import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/schema.js';
import { ImageCards } from '../src/image-cards/image-cards.js';
import { ImagesRepository } from '../src/images/images.repository.js';
import { LikesRepository } from '../src/likes/likes.repository.js';
import { readLibraryVersion } from '../src/read-caches/library-version.js';
import { VisibleIds } from '../src/read-caches/visible-ids.js';
import { warmAtStart } from '../src/read-caches/warm-at-start.js';
import { TagsRepository } from '../src/tags/tags.repository.js';
import { openMigratedDatabase, testDatabases } from './support/databases.js';
import { seed } from './support/library-rows.js';

/**
 * After a start, the whole library's id list and its newest cards are read before anyone asks
 * (decision 0030): the first pages a crowd opens then read nothing from the database.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The read caches over a database that counts the statements run through it. */
function cachesCounting(db: Kysely<DB>, capacity: number) {
  const counter = { statements: 0 };
  const counted = db.withPlugin({
    transformQuery: (args) => {
      counter.statements += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const images = new ImagesRepository(counted);
  const tags = new TagsRepository(counted, []);
  const likes = new LikesRepository(counted);
  const cards = new ImageCards(counted, { rows: (ids) => images.withMedia(ids), labels: (ids) => tags.labelsOf(ids), likers: (ids) => likes.likersOf(ids) }, capacity);
  const visibleIds = new VisibleIds(counted, images, () => readLibraryVersion(db));
  return { counter, cards, visibleIds };
}

const logger = pino({ level: 'silent' });

/** A library of `images` images, its caches (keeping `capacity` cards) warmed, and the version they are at. */
async function warmedLibrary(kind: 'sqlite' | 'postgres', images: number, capacity: number) {
  const { database, close } = await openMigratedDatabase(kind);
  cleanups.push(close);
  const { admin } = await seed(database, images);
  const caches = cachesCounting(database.db, capacity);
  await warmAtStart({ visibleIds: caches.visibleIds, cards: caches.cards, logger }).done;
  const { version } = await readLibraryVersion(database.db);
  return { admin, version, ...caches };
}

describe.each(testDatabases)('warming the read caches at start (%s)', (kind) => {
  it('reads the list and the newest cards the cache keeps, so the first pages read nothing', async () => {
    const { admin, counter, cards, visibleIds, version } = await warmedLibrary(kind, 700, 600);
    const warmed = counter.statements;
    expect(warmed, 'the warm-up read something').toBeGreaterThan(0);

    const list = await visibleIds.of(admin);
    expect(list.ids.length).toBe(700);
    const newest = [...list.ids.subarray(0, 600)];
    // What a gallery page asks for, in its order: every one of the 600 newest, in pages of 50.
    for (let page = 0; page < 12; page += 1) {
      const ids = newest.slice(page * 50, page * 50 + 50);
      const rows = await cards.rows(ids, version);
      await cards.facts(ids, version);
      expect(rows.map((row) => row.id)).toEqual(ids);
    }
    expect(counter.statements, 'statements for the list and the 600 newest cards after the warm-up').toBe(warmed);

    // Beyond what the cache keeps, nothing was read: the 100 oldest are read when asked for.
    await cards.rows([list.ids[650] as number], version);
    expect(counter.statements).toBeGreaterThan(warmed);
  });

  it('makes the warmed cards’ JSON pieces too, so their first page only copies them', async () => {
    const { admin, cards, visibleIds, version } = await warmedLibrary(kind, 120, 100);
    const ids = [...(await visibleIds.of(admin)).ids];
    // The pieces are kept on each row object, under a symbol of card-json.ts (shared/kept-on.ts).
    const keptPieces = (row: object) => Object.getOwnPropertySymbols(row).length;
    const warmed = await cards.rows(ids.slice(0, 100), version);
    expect(warmed.filter((row) => keptPieces(row) === 0).map((row) => row.id), 'warmed rows without their pieces').toEqual([]);
    const beyond = await cards.rows(ids.slice(100), version);
    expect(beyond.every((row) => keptPieces(row) === 0), 'rows past the cache capacity are not warmed').toBe(true);
  });

  it('keeps the newest longest: cards read after the warm-up push out its oldest first', async () => {
    const { admin, counter, cards, visibleIds, version } = await warmedLibrary(kind, 300, 250);
    const ids = [...(await visibleIds.of(admin)).ids];

    // 10 older images read into the full cache: the 10 oldest warmed ones go, the newest stay.
    await cards.rows(ids.slice(280, 290), version);
    const before = counter.statements;
    await cards.rows(ids.slice(0, 240), version);
    expect(counter.statements, 'the 240 newest are still kept').toBe(before);
    await cards.rows(ids.slice(240, 250), version);
    expect(counter.statements, 'the oldest warmed ones were pushed out').toBeGreaterThan(before);
  });

  it('stops between two chunks when asked, and an empty library is warm at once', async () => {
    const { database, close } = await openMigratedDatabase(kind);
    cleanups.push(close);
    const empty = cachesCounting(database.db, 100);
    await expect(warmAtStart({ visibleIds: empty.visibleIds, cards: empty.cards, logger }).done).resolves.toBeUndefined();

    await seed(database, 2_000);
    const { counter, cards, visibleIds } = cachesCounting(database.db, 2_000);
    const warmUp = warmAtStart({ visibleIds, cards, logger });
    await warmUp.stop();
    const stoppedAt = counter.statements;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counter.statements, 'nothing read after stop()').toBe(stoppedAt);
    // The list and at most one chunk of cards (rows, tags, likers) were read: not all eight chunks.
    expect(stoppedAt).toBeLessThan(1 + 2 * 4);
  });
});
