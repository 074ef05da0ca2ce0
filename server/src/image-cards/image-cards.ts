import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { ImageWithMedia } from '../images/images.repository.js';
import type { ImageTagLabels, TagKind } from '../tags/tags.repository.js';
import { changedCards, EVERY_IMAGE } from './changed-images.js';

/** What the other domains add to an image's card: its tags, and who liked it. */
export interface CardFacts extends ImageTagLabels {
  /** Ids of the people who like it (their count is the likes; `liked` is the viewer among them). */
  likers: readonly number[];
}

export interface CardSources {
  /** Image rows with their media, by id (ImagesRepository.withMedia). */
  rows(ids: readonly number[]): Promise<ImageWithMedia[]>;
  labels(ids: readonly number[]): Promise<Map<number, ImageTagLabels>>;
  likers(ids: readonly number[]): Promise<Map<number, number[]>>;
}

/** Cards kept of each kind (rows; facts): about 1 KB each, so about 20 MB at most together. */
const MAX_CARDS = 10_000;

/** The facts of an image nobody tagged or liked (one shared object). */
export const NO_FACTS: CardFacts = Object.freeze({ tags: [], customTags: [], likers: [] });

/**
 * What a page shows of each image — its row with the picture's facts, its tags, who likes it — kept
 * per image, so a gallery page of 50 images is built from memory instead of three queries over 50
 * ids (issue 13: under a crowd those were most of the server's time, and every like or tag made
 * every cached page stale). Kept correct the way the other read caches are (decision 0014): each
 * read says the library version its request started with; before answering, the cards catch up
 * to it, dropping just the images changed since (`changedCards`: one statement per version, per
 * process, never per request) — their facts, and their row only when more than their tags or likes
 * changed. Rows are kept only for images that are ready and not in the Trash: what changes in an
 * image while it is processed is not logged. Bounded: the oldest go first.
 */
export class ImageCards {
  private readonly rowCards = new Map<number, ImageWithMedia>();
  private readonly factCards = new Map<number, CardFacts>();
  /** The version the cards are known to be at least as new as (-1: none read yet). */
  private caughtUp = -1;
  /** Moves with each catch-up: a read that started before one may hold stale values and is not kept. */
  private generation = 0;
  private catchingUp: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly sources: CardSources,
    private readonly max = MAX_CARDS,
  ) {}

  /** The rows of these images in the given order (missing ones left out), at least as new as `version`. */
  async rows(ids: readonly number[], version: number): Promise<ImageWithMedia[]> {
    const found = await this.read(this.rowCards, ids, version, {
      fetch: async (missing) => new Map((await this.sources.rows(missing)).map((row) => [row.id, row])),
      keeps: (row) => row.ready === 1 && row.trashed_at === null,
    });
    return found.length === ids.length && !found.includes(undefined) ? (found as ImageWithMedia[]) : found.filter((row) => row !== undefined);
  }

  /** Tags and likers of each image, in the order of `ids`, at least as new as `version`. */
  async facts(ids: readonly number[], version: number): Promise<CardFacts[]> {
    const found = await this.read(this.factCards, ids, version, {
      fetch: async (missing) => {
        const [labels, likers] = await Promise.all([this.sources.labels(missing), this.sources.likers(missing)]);
        return new Map(
          missing.map((id) => {
            const label = labels.get(id);
            const liker = likers.get(id);
            return [id, label || liker ? { tags: label?.tags ?? [], customTags: label?.customTags ?? [], likers: liker ?? [] } : NO_FACTS];
          }),
        );
      },
      keeps: () => true,
    });
    return found.map((facts) => facts ?? NO_FACTS);
  }

  /**
   * A like this process has just committed, as library version `version`, leaving `likes` likes on
   * the image: when the cards stand at the version just before it, that like is the only change in
   * `version` (each version is one transaction's, decision 0011), so the cards move to it by adding
   * or removing one liker here, instead of the catch-up's statement and the image's facts read again
   * (three statements) by the next page that shows it. Under issue 13's crowd a like was ~1.4 ms of
   * the server's time, half of it that catch-up and re-read (decision 0039). Otherwise (cards behind,
   * a catch-up under way, a count that does not add up) nothing is done here and the catch-up does
   * its usual work.
   */
  likeCommitted({ imageId, userId, liked, version, likes }: { imageId: number; userId: number; liked: boolean; version: number; likes: number }): void {
    if (this.caughtUp !== version - 1 || this.catchingUp !== undefined) return;
    // Reads under way may hold facts read before the like: they must not keep them (read()).
    this.generation += 1;
    this.caughtUp = version;
    const facts = this.factCards.get(imageId);
    if (facts === undefined) return;
    const likers = liked ? (facts.likers.includes(userId) ? facts.likers : [...facts.likers, userId]) : facts.likers.filter((id) => id !== userId);
    if (likers.length !== likes) {
      this.factCards.delete(imageId);
      return;
    }
    const none = likers.length === 0 && facts.tags.length === 0 && facts.customTags.length === 0;
    this.factCards.set(imageId, none ? NO_FACTS : { tags: facts.tags, customTags: facts.customTags, likers });
  }

  /**
   * Tags this process has just added, as library version `version` (tag-changes.repository.ts
   * `add`): `names` went onto every one of `imageIds`, and `added` lists the rows that were new —
   * which alone can make a name one of an image's custom tags. Both hold shown names only (hidden
   * ones never reach a card; TagsService leaves them out). As `likeCommitted`: applied only when it
   * is the one change since the cards caught up.
   */
  tagsCommitted({ version, imageIds, names, kind, added }: { version: number; imageIds: readonly number[]; names: readonly string[]; kind: TagKind; added: readonly { imageId: number; name: string }[] }): void {
    if (this.caughtUp !== version - 1 || this.catchingUp !== undefined) return;
    this.generation += 1;
    this.caughtUp = version;
    for (const imageId of new Set(imageIds)) {
      const facts = this.factCards.get(imageId);
      if (facts === undefined) continue;
      const tags = withNames(facts.tags, names);
      const customTags = kind === 'custom' ? withNames(facts.customTags, added.filter((row) => row.imageId === imageId).map((row) => row.name)) : facts.customTags;
      if (tags !== facts.tags || customTags !== facts.customTags) this.factCards.set(imageId, { tags, customTags, likers: facts.likers });
    }
  }

  /** How many cards of each kind are kept at most. */
  get capacity(): number {
    return this.max;
  }

  /**
   * Reads and keeps the cards of these images (gallery order, newest first), `chunk` at a time, as
   * pages would: the oldest of them first, so that, kept in insertion order, the newest are the last
   * to go. After each chunk, `next` says whether to go on (the warm-up yields to requests there,
   * and stops when the server closes). `made`: what was read, each chunk (the warm-up makes the
   * cards' JSON pieces there: card-json.ts `prepareCardJson`).
   */
  async warm(
    ids: readonly number[],
    version: number,
    chunk: number,
    next: () => Promise<boolean>,
    made: (rows: ImageWithMedia[], facts: CardFacts[]) => void = () => {},
  ): Promise<void> {
    for (let end = ids.length; end > 0; end -= chunk) {
      // Oldest first within the chunk too: cards are kept in the order they were read.
      const some = ids.slice(Math.max(0, end - chunk), end).reverse();
      const [rows, facts] = await Promise.all([this.rows(some, version), this.facts(some, version)]);
      made(rows, facts);
      if (!(await next())) return;
    }
  }

  /**
   * Catches up to `version`, then reads what is not kept and keeps it — unless a catch-up happened
   * meanwhile: what was read may predate a change that catch-up dropped, so it serves this request
   * (it is at least as new as its version) and is not kept.
   */
  private async read<T>(
    kept: Map<number, T>,
    ids: readonly number[],
    version: number,
    source: { fetch: (missing: number[]) => Promise<Map<number, T>>; keeps: (card: T) => boolean },
  ): Promise<(T | undefined)[]> {
    if (this.caughtUp < version) await this.catchUp(version);
    const generation = this.generation;
    // An array in the order of `ids` (a page reads 50 cards: no map made per read).
    const found: (T | undefined)[] = new Array<T | undefined>(ids.length);
    let missing: number[] | undefined;
    for (let i = 0; i < ids.length; i += 1) {
      const card = kept.get(ids[i] as number);
      if (card === undefined) (missing ??= []).push(ids[i] as number);
      else found[i] = card;
    }
    if (missing === undefined) return found;
    const fetched = await source.fetch([...new Set(missing)]);
    const keep = generation === this.generation;
    for (let i = 0; i < ids.length; i += 1) {
      if (found[i] !== undefined) continue;
      const card = fetched.get(ids[i] as number);
      if (card === undefined) continue;
      found[i] = card;
      if (keep && source.keeps(card)) kept.set(ids[i] as number, card);
    }
    // The oldest go first (kept in insertion order: moving each hit to the end cost more than the misses it saved).
    while (kept.size > this.max) kept.delete(kept.keys().next().value as number);
    return found;
  }

  /** Drops the cards of images changed after what they were read at, up to `version` (one catch-up at a time). */
  private async catchUp(version: number): Promise<void> {
    while (this.caughtUp < version) {
      this.catchingUp ??= this.dropChanged(version).finally(() => {
        this.catchingUp = undefined;
      });
      await this.catchingUp;
    }
  }

  private async dropChanged(version: number): Promise<void> {
    const from = this.caughtUp;
    const changed = from < 0 ? EVERY_IMAGE : await changedCards(this.db, from, version);
    if (changed === EVERY_IMAGE) {
      this.rowCards.clear();
      this.factCards.clear();
    } else {
      // A like or a tag leaves the row as it was: keeping it keeps the text made from it (card-json.ts).
      for (const id of changed.rowsChanged) this.rowCards.delete(id);
      for (const id of changed.ids) this.factCards.delete(id);
    }
    this.generation += 1;
    this.caughtUp = Math.max(this.caughtUp, version);
  }
}

/** Plain code-unit order, as the database sorts tag names (tags.repository.ts `labelsOf`). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `sorted` with `names` in it, each once, in order: the same array when it holds them all already. */
function withNames(sorted: readonly string[], names: readonly string[]): string[] {
  const missing = names.filter((name) => !sorted.includes(name));
  if (missing.length === 0) return sorted as string[];
  return [...new Set([...sorted, ...missing])].sort(byName);
}
