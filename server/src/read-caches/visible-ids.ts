import type { Kysely } from 'kysely';
import { seesWholeLibrary } from '../access/image-visibility.js';
import { visibilityScope } from '../access/visible-scope.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import { type ImagesRepository, type ListViewer, type OrderedColumns, type OrderedId, WHOLE_LIBRARY } from '../images/images.repository.js';
import { SingleFlight } from '../shared/single-flight.js';
import { type LibraryVersion, readLibraryVersion, removedAfter, START_OVER } from './library-version.js';

export interface VisibleIdList {
  version: number;
  /** Image ids in gallery order: newest taken first, ties by id (decision 0009). */
  ids: Int32Array | Float64Array;
  /** Each id's `taken_key` (ms since 1970 UTC), same positions: descending. */
  keys: Float64Array;
}

/** Most ids kept over all scopes (12 bytes each: 48 MB), whatever the number of scopes. */
const MAX_KEPT_IDS = 4_000_000;

/**
 * The ids of every image a person may see, in gallery order, cached per visibility scope and
 * checked against the library version on every read. A gallery page is then a slice and the total
 * a length: page 2,000 costs what page 1 costs, instead of an OFFSET walk and a COUNT over 100,000
 * index entries on every request. The keys kept beside the ids make a month of the timeline two
 * binary searches (timeline/). Everyone who sees the whole library (admins, all-access recipients)
 * shares one list. Correct across processes because the version lives in the database (read with
 * the session's account: no round trip of its own, decision 0011); bounded in
 * memory by the number of scopes and ids kept (least recently used go first).
 *
 * After a change a list catches up instead of being read again — at a million photos a fresh read
 * takes a second or more, a catch-up milliseconds: images removed since (trashed, deleted, moved)
 * are dropped, images that became visible since are merged in at their places. Only a 'reset' (a
 * share switched, an address proven) makes it start over.
 */
export class VisibleIds {
  private readonly entries = new Map<string, VisibleIdList>();
  private readonly building = new SingleFlight<VisibleIdList>();
  /**
   * Whether each person sees the whole library, per reset version: only a share granted or switched
   * and an address proven change it, and those are 'reset' changes (library-version.ts). Keyed by
   * the library version, it was asked again after every like and tag (a query per request under a crowd).
   */
  private readonly whole = new Map<string, { resetVersion: number; whole: boolean }>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly images: ImagesRepository,
    /** The library version this person's request is checked against (read-caches/request-versions.ts). */
    private readonly versionOf: (user: AuthUser) => Promise<LibraryVersion>,
    private readonly maxScopes = 64,
    private readonly maxIds = MAX_KEPT_IDS,
  ) {}

  /** The list and the library version it belongs to. */
  async of(user: AuthUser): Promise<VisibleIdList> {
    const libraryVersion = await this.versionOf(user);
    const whole = await this.seesWholeLibrary(user, libraryVersion.resetVersion);
    return whole ? this.listOf(WHOLE_LIBRARY, WHOLE_LIBRARY, libraryVersion) : this.listOf(visibilityScope(user), user, libraryVersion);
  }

  /**
   * The list everyone who sees the whole library shares, at the library's version now: read when
   * the server starts (read-caches/warm-at-start.ts), so the first person to open the gallery does
   * not wait for it — at a million photos that read takes a second or more.
   */
  async wholeLibrary(): Promise<VisibleIdList> {
    return this.listOf(WHOLE_LIBRARY, WHOLE_LIBRARY, await readLibraryVersion(this.db));
  }

  private async listOf(key: string, viewer: ListViewer, { version, resetVersion, listVersion }: LibraryVersion): Promise<VisibleIdList> {
    const cached = this.entries.get(key);
    if (cached?.version === version) {
      // Map order is recency order: re-insert to mark as recently used.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    // Only likes, tags or relabels since the cached copy (most versions, under a crowd): the list is
    // the same, filed under the new version; nothing read.
    if (cached && cached.version < version && cached.version >= listVersion && cached.version >= resetVersion) {
      const same = { ...cached, version };
      this.entries.delete(key);
      this.entries.set(key, same);
      return same;
    }
    // Concurrent requests after a change share one rebuild. When only images were added since the
    // cached copy (uploads finishing), just those are read and merged in at their places.
    const build = this.building.run(`${key}@${version}`, () => {
      const readAll = () => this.images.allVisibleIds(viewer).then((columns) => ({ version, ...packedColumns(columns) }));
      return cached && cached.version >= resetVersion
        ? Promise.all([this.images.visibleAfter(viewer, cached.version), removedAfter(this.db, cached.version)]).then(([added, removed]) =>
            removed === START_OVER ? readAll() : { version, ...mergeOrdered(without(cached, removed), added) },
          )
        : readAll();
    });
    const entry = await build;
    const current = this.entries.get(key);
    if (!current || current.version <= entry.version) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    this.evict();
    return entry;
  }

  private async seesWholeLibrary(user: AuthUser, resetVersion: number): Promise<boolean> {
    if (user.role === 'admin') return true;
    const key = visibilityScope(user);
    const known = this.whole.get(key);
    if (known?.resetVersion === resetVersion) return known.whole;
    const whole = await seesWholeLibrary(this.db, user);
    this.whole.delete(key);
    this.whole.set(key, { resetVersion, whole });
    if (this.whole.size > 10_000) this.whole.delete(this.whole.keys().next().value as string);
    return whole;
  }

  private evict(): void {
    let kept = 0;
    for (const entry of this.entries.values()) kept += entry.ids.length;
    // Oldest first; the most recently used one always stays, however large.
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= 1 || (this.entries.size <= this.maxScopes && kept <= this.maxIds)) break;
      this.entries.delete(key);
      kept -= entry.ids.length;
    }
  }
}

/** True when (keyA, idA) comes before (keyB, idB) in gallery order (newest first). */
function before(keyA: number, idA: number, keyB: number, idB: number): boolean {
  return keyA > keyB || (keyA === keyB && idA > idB);
}

/**
 * Merges newly visible images (in gallery order) into a list. Fresh uploads of new photos go in
 * front; old scans land in their year. An id already present (read twice across a race) is skipped.
 */
export function mergeOrdered(list: Pick<VisibleIdList, 'ids' | 'keys'>, added: readonly OrderedId[]): Pick<VisibleIdList, 'ids' | 'keys'> {
  if (added.length === 0) return { ids: list.ids, keys: list.keys };
  const merged: OrderedId[] = [];
  const { ids, keys } = list;
  let i = 0;
  for (const row of added) {
    while (i < ids.length && before(keys[i] as number, ids[i] as number, row.taken_key, row.id)) {
      merged.push({ id: ids[i] as number, taken_key: keys[i] as number });
      i++;
    }
    if (i < ids.length && ids[i] === row.id) continue;
    merged.push(row);
  }
  for (; i < ids.length; i++) merged.push({ id: ids[i] as number, taken_key: keys[i] as number });
  return packed(merged);
}


/** The list without the given ids (the same arrays when none of them is in it). */
function without(list: Pick<VisibleIdList, 'ids' | 'keys'>, removed: readonly number[]): Pick<VisibleIdList, 'ids' | 'keys'> {
  if (removed.length === 0) return list;
  const gone = new Set(removed);
  let kept = 0;
  for (const id of list.ids) if (!gone.has(id)) kept += 1;
  if (kept === list.ids.length) return list;
  const ids = list.ids instanceof Int32Array ? new Int32Array(kept) : new Float64Array(kept);
  const keys = new Float64Array(kept);
  let at = 0;
  list.ids.forEach((id, index) => {
    if (gone.has(id)) return;
    ids[at] = id;
    keys[at] = list.keys[index] as number;
    at += 1;
  });
  return { ids, keys };
}

/** A whole list as read: 4 bytes per id while ids fit, keys as doubles (exact for ms). */
function packedColumns({ ids, keys }: OrderedColumns): Pick<VisibleIdList, 'ids' | 'keys'> {
  const small = ids.every((id) => id <= 0x7fffffff);
  return { ids: small ? Int32Array.from(ids) : Float64Array.from(ids), keys: Float64Array.from(keys) };
}

/** 4 bytes per id while ids fit, instead of a JS array's 8+; keys as doubles (exact for ms). */
function packed(rows: readonly OrderedId[]): Pick<VisibleIdList, 'ids' | 'keys'> {
  const small = rows.every((row) => row.id <= 0x7fffffff);
  const ids = small ? new Int32Array(rows.length) : new Float64Array(rows.length);
  const keys = new Float64Array(rows.length);
  rows.forEach((row, index) => {
    ids[index] = row.id;
    keys[index] = row.taken_key;
  });
  return { ids, keys };
}
