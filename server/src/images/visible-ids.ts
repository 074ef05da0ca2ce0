import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import type { ImagesRepository } from './images.repository.js';
import { readLibraryVersion } from './library-version.js';

export interface VisibleIdList {
  version: number;
  ids: Int32Array | Float64Array;
}

/**
 * The ids of every image a person may see, newest first, cached per visibility scope and checked
 * against the library version on every read. A gallery page is then a slice and the total a length:
 * page 2,000 costs what page 1 costs, instead of an OFFSET walk and a COUNT over 100,000 index
 * entries on every request. Correct across processes because the version lives in the database;
 * bounded in memory by the number of scopes kept (least recently used go first).
 */
export class VisibleIds {
  private readonly entries = new Map<string, VisibleIdList>();
  private readonly building = new Map<string, Promise<VisibleIdList>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly images: ImagesRepository,
    private readonly maxScopes = 64,
  ) {}

  /** The list and the library version it belongs to. */
  async of(user: AuthUser): Promise<VisibleIdList> {
    const { version, resetVersion } = await readLibraryVersion(this.db);
    const key = scopeOf(user);
    const cached = this.entries.get(key);
    if (cached?.version === version) {
      // Map order is recency order: re-insert to mark as recently used.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const buildKey = `${key}@${version}`;
    let build = this.building.get(buildKey);
    if (!build) {
      // Concurrent requests after a change share one rebuild. When only images were added since the
      // cached copy (uploads finishing), just those are read and merged in.
      const catchUp = cached && cached.version >= resetVersion;
      build = catchUp
        ? this.images.visibleAfter(user, cached.version).then((added) => ({ version, ids: mergeNewest(cached.ids, added) }))
        : this.images.allVisibleIds(user).then((ids) => ({ version, ids: packed(ids) }));
      this.building.set(buildKey, build);
      build.finally(() => this.building.delete(buildKey)).catch(() => undefined);
    }
    const entry = await build;
    const current = this.entries.get(key);
    if (!current || current.version <= entry.version) this.entries.set(key, entry);
    while (this.entries.size > this.maxScopes) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}

/**
 * Merges newly visible ids into a newest-first list. Usually they are all newer than anything in
 * it (fresh uploads) and go in front; an id already present (read twice across a race) is skipped.
 */
function mergeNewest(ids: VisibleIdList['ids'], added: number[]): VisibleIdList['ids'] {
  if (added.length === 0) return ids;
  const merged: number[] = [];
  let i = 0;
  for (const id of added) {
    while (i < ids.length && (ids[i] as number) > id) merged.push(ids[i++] as number);
    if (i < ids.length && ids[i] === id) continue;
    merged.push(id);
  }
  while (i < ids.length) merged.push(ids[i++] as number);
  return packed(merged);
}

/** Everyone who sees the same images shares a scope; today that is each user alone, or all admins. */
function scopeOf(user: AuthUser): string {
  return user.role === 'admin' ? 'admin' : `user:${user.id}`;
}

/** 4 bytes per id while ids fit, instead of a JS array's 8+. */
function packed(ids: number[]): Int32Array | Float64Array {
  return ids.every((id) => id <= 0x7fffffff) ? Int32Array.from(ids) : Float64Array.from(ids);
}
