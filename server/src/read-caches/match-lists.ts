import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { changedImages, EVERY_IMAGE } from '../image-cards/changed-images.js';
import { SingleFlight } from '../shared/single-flight.js';
import { removedAfter } from './library-version.js';

/** An image in a list of matches, with its place in the gallery order (`taken_key`, then id, newest first). */
export interface Placed {
  id: number;
  key: number;
}

/** How one list of matches is read: whole, or just for some images. */
export interface MatchSource {
  /** Every match in gallery order, at most the list's bound. */
  readAll(): Promise<Placed[]>;
  /** Which of these images match now (and are in view), with their places. */
  recheck(ids: readonly number[]): Promise<Placed[]>;
  /** Past this many changed images the list is read again (default MAX_CHANGED): a recheck that costs little per image may take more. */
  maxChanged?: number;
}

interface Entry {
  version: number;
  matches: Placed[];
  /** The bound was reached: matches past the last one kept are not known. */
  cut: boolean;
}

/** Past this many changed images, reading the list again is cheaper than checking each. */
const MAX_CHANGED = 200;

/**
 * Lists of matching images (a search's answer: which images, in gallery order), per key and library
 * version, caught up from one version to the next instead of read again: only images changed since
 * (tagged, renamed, new: `changedImages` without likes, which match nothing) are checked, and put in
 * or taken out at their place. A library in use changes many times a second (issue 13's soak: ~150
 * likes and tags a second), so a cache valid for one version alone would almost never answer, and
 * reading a common word's 500 matches costs ~2 ms. Any removal, reset or relabel since, or a change
 * too big to check, reads the list again; so does losing a match from a list that was cut at its
 * bound (the next one is not known). The least recently used lists go first.
 */
export class MatchLists {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new SingleFlight<Entry>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly bound: number,
    private readonly maxLists = 256,
  ) {}

  /** The ids matching at library version `version` (or later), in gallery order. */
  async ids(key: string, version: number, source: MatchSource): Promise<number[]> {
    const cached = this.entries.get(key);
    // Concurrent searches of one list at one version (a crowd after a change) share one catch-up.
    const entry = cached?.version === version ? cached : await this.building.run(`${key}@${version}`, () => this.read(cached, version, source));
    this.keep(key, entry);
    return entry.matches.map((match) => match.id);
  }

  private async read(cached: Entry | undefined, version: number, source: MatchSource): Promise<Entry> {
    const caught = cached && cached.version < version ? await this.catchUp(cached, version, source) : undefined;
    if (caught) return caught;
    const matches = await source.readAll();
    return { version, matches, cut: matches.length >= this.bound };
  }

  private async catchUp(cached: Entry, version: number, source: MatchSource): Promise<Entry | undefined> {
    const [changed, removed] = await Promise.all([
      changedImages(this.db, cached.version, version, { likesMatter: false }),
      removedAfter(this.db, cached.version),
    ]);
    if (changed === EVERY_IMAGE || typeof removed === 'string' || removed.length > 0 || changed.length > (source.maxChanged ?? MAX_CHANGED)) return undefined;
    if (changed.length === 0) return { ...cached, version };
    const touched = new Set(changed);
    const now = await source.recheck([...touched]);
    const still = new Set(now.map((match) => match.id));
    if (cached.cut && cached.matches.some((match) => touched.has(match.id) && !still.has(match.id))) return undefined;
    const merged = cached.matches.filter((match) => !touched.has(match.id)).concat(now);
    merged.sort((a, b) => b.key - a.key || b.id - a.id);
    const cut = cached.cut || merged.length >= this.bound;
    return { version, matches: merged.slice(0, this.bound), cut };
  }

  private keep(key: string, entry: Entry): void {
    const current = this.entries.get(key);
    if (current && current.version > entry.version) return;
    // Map order is recency order: re-insert to mark as recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxLists) this.entries.delete(this.entries.keys().next().value as string);
  }
}
