import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { onlyVisible } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { JsonBytes } from '../shared/json-bytes.js';
import type { DialectName } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { normalizeTag } from '../tags/tag-text.js';
import type { TagRef } from '../tags/tags.repository.js';
import type { VisibleVocabulary } from '../tags/visible-vocabulary.js';
import type { VisibleIds } from '../read-caches/visible-ids.js';
import { MatchLists, type Placed } from '../read-caches/match-lists.js';
import type { ImagePresenter } from './image-presenter.js';
import type { ImageCards } from '../image-cards/image-cards.js';
import { matchesKept, ViewSets } from '../read-caches/kept-matches.js';

const MAX_RESULTS = 500;
/** The answer around its array of images. */
const ANSWER_AROUND = { before: '{"images":', after: '}' };
/** Tags a query's prefix may stand for (the most used first), so a short query stays one small `in`. */
const MAX_MATCHED_TAGS = 50;
/** Up to this many possible matches, a search reads just them (`fewCandidates`); past it, the gallery order. */
const MAX_CANDIDATES = 5_000;
/** Someone who sees at most this many images is searched among just those (`amongVisible`), a slice at a time. */
const MAX_VIEW_SEARCHED = 5_000;
const VIEW_SLICE = 500;
/** Changed images a restricted view's kept list is caught up with in memory, at most (read-caches/match-lists.ts). */
const MAX_VIEW_CHANGED = 5_000;

/** Whether an image matches the search (its name, or one of the matched tags). */
type Matches = (eb: ExpressionBuilder<DB, 'images'>) => Expression<SqlBool>;

/**
 * `GET /search?query=`: visible images whose file name contains the text, or that carry a tag
 * starting with it ('bea' finds images tagged 'beach'). Hidden tags find nothing. The tags a
 * prefix stands for are those on images the person may see, the most used there first, so tags
 * of other people's private photos neither take up the bound nor push the person's own out.
 */
export class SearchService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: DialectName,
    private readonly presenter: ImagePresenter,
    private readonly vocabulary: VisibleVocabulary,
    private readonly visibleIds: VisibleIds,
    /** Images' rows and tags kept in memory (image-cards/): what a catch-up checks changed images against on SQLite. */
    private readonly cards: Pick<ImageCards, 'rows' | 'facts'>,
  ) {
    this.matchLists = new MatchLists(db, MAX_RESULTS);
  }

  private readonly matchLists: MatchLists;
  private readonly viewSets = new ViewSets();

  /** The contract's `searchImages` answer, `{"images":[…]}`, as UTF-8 JSON (ImagePresenter.presentIdsJson). */
  async searchJson(user: AuthUser, text: string): Promise<JsonBytes> {
    const needle = text.trim().toLowerCase();
    // No file name or tag holds a control character (ingest and tags/ remove or refuse them), so
    // none can match; and SQLite's `like` stops reading its pattern at a NUL (which then matched
    // every image) while PostgreSQL refuses a NUL in text outright.
    // eslint-disable-next-line no-control-regex
    if (!needle || /[\u0000-\u001f\u007f]/.test(needle)) return this.presenter.presentIdsJson([], user, ANSWER_AROUND);
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const view = await this.vocabulary.of(user);
    const tags = await view.startingWith(normalizeTag(text), MAX_MATCHED_TAGS);
    const tagIds = tags.map((tag) => tag.id);
    // A tag is asked per image, not as the list of every image carrying one of the tags: for a
    // common tag that list is tens of thousands of ids, built on every search even when only 300
    // images are looked at. `+` makes it one probe of the key that starts with the image instead of
    // one probe of the tag index per tag (SQLite, 100,000 images: 8.3 → 1.1 ms for a 300-photo view,
    // 8.0 → 1.3 ms for the first 500 in gallery order; PostgreSQL, a 1,000-photo view: 12 → 1.4 ms).
    // Not when PostgreSQL reads the gallery order: there its planner does better joining the tag
    // index, and `+` would stop it (15 → 69 ms).
    const matches = (perImage: boolean): Matches => (eb) =>
      eb.or([
        sql<boolean>`lower(images.file_name) like ${pattern} escape '\\'`,
        ...(tagIds.length > 0
          ? [
              eb.exists(
                eb
                  .selectFrom('image_tags')
                  .select(sql`1`.as('one'))
                  .whereRef('image_tags.image_id', '=', 'images.id')
                  .where(perImage ? sql<boolean>`+image_tags.tag_id in (${sql.join(tagIds)})` : sql<boolean>`image_tags.tag_id in (${sql.join(tagIds)})`),
              ),
            ]
          : []),
      ]);
    // Kept per view, query and the tags it stands for, and caught up with the library's changes
    // (read-caches/match-lists.ts): a crowd searching the same words reads each list once.
    const key = `${view.key}|${tagIds.join(',')}|${needle}`;
    const inMemory = await this.keptMatchesFor(user, view.wholeLibrary);
    const ids = await this.matchLists.ids(key, view.version, {
      readAll: () => this.matchingIds(user, needle, tags, matches),
      recheck: (changed) =>
        inMemory
          ? matchesKept(this.cards, inMemory.inView ? changed.filter((id) => inMemory.inView?.has(id)) : changed, view.version, {
              needle,
              tagNames: new Set(tags.map((tag) => tag.name)),
            })
          : this.recheck(user, changed, matches(true)),
      // A small view is checked in memory against its own images first: the images changed
      // elsewhere cost a set lookup each, so a busy library need not read it again.
      ...(inMemory?.inView ? { maxChanged: MAX_VIEW_CHANGED } : {}),
    });
    return this.presenter.presentIdsJson(ids, user, ANSWER_AROUND);
  }

  /**
   * Whether a kept list is caught up from the cards in memory (read-caches/kept-matches.ts) rather
   * than by `recheck`: on SQLite only (its lower() and like are matched exactly there; PostgreSQL's
   * lower() follows its locale, so there the database decides), for the whole library, or for a view
   * of at most MAX_VIEW_SEARCHED images, checked against its visible list (read-caches/visible-ids.ts:
   * the same rule as `onlyVisible`, at the same library version) as a set made once per list. A
   * larger view keeps the statement: a set of its list, made again whenever an upload changes the
   * list, would cost more than the statement saves.
   */
  private async keptMatchesFor(user: AuthUser, wholeLibrary: boolean): Promise<{ inView?: ReadonlySet<number> } | undefined> {
    if (this.dialect !== 'sqlite') return undefined;
    if (wholeLibrary) return {};
    const visible = (await this.visibleIds.of(user)).ids;
    return visible.length <= MAX_VIEW_SEARCHED ? { inView: this.viewSets.of(visible) } : undefined;
  }

  /** Which of these images the person sees and that match now, with their places in the gallery order. */
  private async recheck(user: AuthUser, ids: readonly number[], matches: Matches): Promise<Placed[]> {
    const query = this.db.selectFrom('images').select(['images.id', 'images.taken_key']).where('images.ready', '=', 1).where(this.idIn(ids)).where(matches);
    return placed(await onlyVisible(query, user).execute());
  }

  /**
   * The cheapest read for who is asking: a view of one slice is read whole; else, on SQLite, the few
   * images whose name or tag can match (`fewCandidates`); else a view of up to 5,000 slice by slice;
   * else the gallery order until MAX_RESULTS match.
   */
  private async matchingIds(user: AuthUser, needle: string, tags: readonly TagRef[], matches: (perImage: boolean) => Matches): Promise<Placed[]> {
    const visible = await this.visibleIds.of(user);
    if (visible.ids.length <= VIEW_SLICE) return this.amongVisible(visible.ids, matches(true));
    const candidates = await this.fewCandidates(needle, tags);
    if (candidates) return this.inGalleryOrder(user, matches(true), candidates);
    return visible.ids.length <= MAX_VIEW_SEARCHED ? this.amongVisible(visible.ids, matches(true)) : this.inGalleryOrder(user, matches(this.dialect === 'sqlite'));
  }

  /**
   * Someone who sees few images (a restricted share, a new account): which of those match, read in
   * the order of their visible list (read-caches/visible-ids.ts: the gallery's order and
   * visibility) a slice at a time, until MAX_RESULTS are found. Reading the whole library's matches
   * instead — every image tagged 'beach' — and then dropping what they may not see cost 35 ms per
   * search on the 100,000-image library.
   */
  private async amongVisible(visible: Int32Array | Float64Array, matches: Matches): Promise<Placed[]> {
    const found: Placed[] = [];
    for (let start = 0; start < visible.length && found.length < MAX_RESULTS; start += VIEW_SLICE) {
      const slice = Array.from(visible.subarray(start, start + VIEW_SLICE));
      const rows = await this.db.selectFrom('images').select(['images.id', 'images.taken_key']).where(this.idIn(slice)).where(matches).execute();
      const keys = new Map(placed(rows).map((match) => [match.id, match.key]));
      for (const id of slice) {
        const key = keys.get(id);
        if (key !== undefined && found.length < MAX_RESULTS) found.push({ id, key });
      }
    }
    return found;
  }

  /** `images.id` among `ids`, as one parameter: one statement whatever their number (SQLite prepares each text once). */
  private idIn(ids: readonly number[]) {
    return this.dialect === 'sqlite'
      ? sql<boolean>`images.id in (select value from json_each(${JSON.stringify(ids)}))`
      : sql<boolean>`images.id = any(${ids})`;
  }

  /** The gallery order read until MAX_RESULTS match, or just the few `candidates` that can, sorted. */
  private async inGalleryOrder(
    user: AuthUser,
    matches: Matches,
    candidates?: Expression<SqlBool>,
  ): Promise<Placed[]> {
    let query = this.db.selectFrom('images').select(['images.id', 'images.taken_key']).where('images.ready', '=', 1).where(matches);
    if (candidates) query = query.where(candidates);
    // With few candidates, `+` keeps SQLite from walking the whole taken-order index to find them
    // (7.5 → 0.4 ms for a file name on 100,000 images): it reads the candidates, then sorts them.
    const order = candidates ? [sql`+images.taken_key`, sql`+images.id`] : [sql`images.taken_key`, sql`images.id`];
    const rows = await onlyVisible(query, user)
      .orderBy(order[0]!, 'desc')
      .orderBy(order[1]!, 'desc')
      .limit(MAX_RESULTS)
      .execute();
    return placed(rows);
  }

  /**
   * On SQLite, when few images in the whole library can match, the ids that may: names from the
   * trigram index (`image_names`, migration 014; its `like` is unescaped, so `_` and `%` in the text
   * only widen it, and the escaped `like` above still decides) and images with a matching tag. The
   * query then reads just those and sorts them. When many can match (a common tag; a text under 3
   * characters, which the index cannot answer), undefined: reading the gallery order until 500 are
   * found stops early instead. (On PostgreSQL the planner weighs pg_trgm's index on
   * `lower(file_name)` itself.) Counted over the library, not the person's view: the candidates are
   * read from the library.
   */
  private async fewCandidates(needle: string, tags: readonly TagRef[]) {
    if (this.dialect !== 'sqlite' || [...needle].length < 3) return undefined;
    // Uses in the person's view are at most those in the library: past the bound already, no need to count.
    if (tags.reduce((sum, tag) => sum + tag.usage_count, 0) > MAX_CANDIDATES) return undefined;
    const tagIds = tags.map((tag) => tag.id);
    const names = sql`select rowid from image_names where image_names.file_name like ${`%${needle}%`}`;
    const tagged = sql`select image_id from image_tags where tag_id in (${sql.join(tagIds.length > 0 ? tagIds : [-1])})`;
    const bound = MAX_CANDIDATES + 1;
    const { rows } = await sql<{ names: number; tagged: number }>`
      select (select count(*) from (${names} limit ${bound})) as names, (select count(*) from (${tagged} limit ${bound})) as tagged`.execute(this.db);
    if (Number(rows[0]?.names ?? 0) + Number(rows[0]?.tagged ?? 0) > MAX_CANDIDATES) return undefined;
    return tagIds.length === 0 ? sql<boolean>`images.id in (${names})` : sql<boolean>`images.id in (${names} union ${tagged})`;
  }
}

/** Rows of (id, taken_key) as places in the gallery order (both databases may answer bigints as text). */
function placed(rows: readonly { id: number; taken_key: number }[]): Placed[] {
  return rows.map((row) => ({ id: Number(row.id), key: Number(row.taken_key) }));
}
