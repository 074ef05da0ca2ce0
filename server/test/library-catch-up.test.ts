import { afterEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/auth/auth-user.js';
import type { Database } from '../src/db/database.js';
import { ImagesRepository } from '../src/images/images.repository.js';
import { ImageCards } from '../src/image-cards/image-cards.js';
import { bumpLibraryVersion, type LibraryVersion, pruneRemovals, pruneTouches, readLibraryVersion } from '../src/read-caches/library-version.js';
import { LikesRepository } from '../src/likes/likes.repository.js';
import { TagsRepository } from '../src/tags/tags.repository.js';
import { VisibleIds } from '../src/read-caches/visible-ids.js';
import { openMigratedDatabase, testDatabases } from './support/databases.js';
import { seed } from './support/library-rows.js';

/**
 * A cached id list catches up with removals instead of being read again; when the removals it needs
 * were pruned after its request's version was read (the hourly housekeeping, a reader far behind),
 * it must start over rather than keep showing images that are gone.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(kind: 'sqlite' | 'postgres'): Promise<Database> {
  const { database, close } = await openMigratedDatabase(kind);
  cleanups.push(close);
  return database;
}

/** Takes an image out of every list the way the Trash does: not ready, recorded as removed. */
async function removeImage(database: Database, id: number): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await trx.updateTable('images').set({ ready: 0, trashed_at: new Date().toISOString() }).where('id', '=', id).execute();
    await bumpLibraryVersion(trx, { removed: [id] });
  });
}

describe.each(testDatabases)('a cached id list catching up (%s)', (kind) => {
  it('drops what was removed since, and starts over when those removals were pruned after its version was read', async () => {
    const database = await open(kind);
    const { admin, ids } = await seed(database, 3);
    let version: LibraryVersion = await readLibraryVersion(database.db);
    const lists = new VisibleIds(database.db, new ImagesRepository(database.db), async () => version);
    expect([...(await lists.of(admin)).ids].sort()).toEqual([...ids].sort());

    const [first, second] = ids as [number, number];
    await removeImage(database, first);
    version = await readLibraryVersion(database.db);
    expect([...(await lists.of(admin)).ids]).not.toContain(first);

    // A request reads its version; then housekeeping prunes every removal before the list catches up.
    await removeImage(database, second);
    version = await readLibraryVersion(database.db);
    await pruneRemovals(database.db, 0);
    const list = [...(await lists.of(admin)).ids];
    expect(list, 'an image whose removal was pruned meanwhile').not.toContain(second);
    expect(list).toEqual(ids.filter((id) => id !== first && id !== second));
  });

  it('reads nothing for a list after likes and tags (the list is the same), and catches up after a removal', async () => {
    const database = await open(kind);
    const { admin, ids } = await seed(database, 3);
    let statements = 0;
    const counted = database.db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    let version: LibraryVersion = await readLibraryVersion(database.db);
    const lists = new VisibleIds(counted, new ImagesRepository(counted), async () => version);
    const first = await lists.of(admin);
    const [liked, removed] = ids as [number, number];

    await database.db.transaction().execute((trx) => bumpLibraryVersion(trx, { touched: [liked], only: 'likes' }));
    await database.db.transaction().execute((trx) => bumpLibraryVersion(trx, { touched: [liked], only: 'tags' }));
    await database.db.transaction().execute((trx) => bumpLibraryVersion(trx, 'relabel'));
    version = await readLibraryVersion(database.db);
    expect(version.listVersion).toBeLessThan(version.version);
    const before = statements;
    const after = await lists.of(admin);
    expect(statements, 'statements to bring the list up to a like, a tag and a relabel').toBe(before);
    expect(after.version).toBe(version.version);
    expect([...after.ids]).toEqual([...first.ids]);

    await removeImage(database, removed);
    version = await readLibraryVersion(database.db);
    expect(version.listVersion).toBe(version.version);
    const caughtUp = await lists.of(admin);
    expect(statements).toBeGreaterThan(before);
    expect([...caughtUp.ids]).toEqual([...first.ids].filter((id) => id !== removed));
  });

  it('image cards drop just what was touched since, and every card when those touches were pruned meanwhile', async () => {
    const database = await open(kind);
    const { admin, ids } = await seed(database, 2);
    const [first, second] = ids as [number, number];
    const images = new ImagesRepository(database.db);
    const likes = new LikesRepository(database.db);
    const tags = new TagsRepository(database.db, []);
    const cards = new ImageCards(database.db, {
      rows: (wanted) => images.withMedia(wanted),
      labels: (wanted) => tags.labelsOf(wanted),
      likers: (wanted) => likes.likersOf(wanted),
    });
    const likersNow = async () => {
      const { version } = await readLibraryVersion(database.db);
      const facts = await cards.facts(ids, version);
      return facts.map((card) => card.likers);
    };
    expect(await likersNow()).toEqual([[], []]);

    await likes.set(first, admin.id, true, new Date().toISOString());
    expect(await likersNow(), 'a like, caught up from the touch log').toEqual([[admin.id], []]);

    // A like, then the touch log pruned before the cards catch up: they must start over.
    await likes.set(second, admin.id, true, new Date().toISOString());
    const { version } = await readLibraryVersion(database.db);
    await pruneTouches(database.db, 0);
    const facts = await cards.facts(ids, version);
    expect(facts.map((card) => card.likers), 'a like whose touch was pruned meanwhile').toEqual([[admin.id], [admin.id]]);
  });
});
