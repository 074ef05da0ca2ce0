import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { onlyVisible } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DialectName } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { normalizeTag } from '../tags/tag-text.js';
import type { TagRef } from '../tags/tags.repository.js';
import type { VisibleVocabulary } from '../tags/visible-vocabulary.js';
import type { VisibleIds } from '../read-caches/visible-ids.js';
import type { ImagePresenter } from './image-presenter.js';
import type { ImagesRepository } from './images.repository.js';

const MAX_RESULTS = 500;
/** Tags a query's prefix may stand for (the most used first), so a short query stays one small `in`. */
const MAX_MATCHED_TAGS = 50;
/** Up to this many possible matches, a search reads just them (`fewCandidates`); past it, the gallery order. */
const MAX_CANDIDATES = 5_000;

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
    private readonly images: ImagesRepository,
    private readonly presenter: ImagePresenter,
    private readonly vocabulary: VisibleVocabulary,
    private readonly visibleIds: VisibleIds,
  ) {}

  /** The matching images as the JSON text of an array (ImagePresenter.presentIdsJson). */
  async searchJson(user: AuthUser, text: string): Promise<string> {
    const needle = text.trim().toLowerCase();
    if (!needle) return '[]';
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const view = await this.vocabulary.of(user);
    const tags = await view.startingWith(normalizeTag(text), MAX_MATCHED_TAGS);
    const tagIds = tags.map((tag) => tag.id);
    const matches = (eb: ExpressionBuilder<DB, 'images'>) =>
      eb.or([
        sql<boolean>`lower(images.file_name) like ${pattern} escape '\\'`,
        // Asked per image (the index on tag and image answers it), not as the list of every image
        // carrying one of the tags: for a common tag that list is tens of thousands of ids, built on
        // every search even when only 300 images are looked at (5.2 → 1.5 ms for a 300-photo view).
        ...(tagIds.length > 0
          ? [eb.exists(eb.selectFrom('image_tags').select(sql`1`.as('one')).whereRef('image_tags.image_id', '=', 'images.id').where('image_tags.tag_id', 'in', tagIds))]
          : []),
      ]);
    const visible = await this.visibleIds.of(user);
    const ids = visible.ids.length <= MAX_CANDIDATES ? await this.amongVisible(visible.ids, matches) : await this.inGalleryOrder(user, needle, tags, matches);
    return this.presenter.presentIdsJson(ids, user);
  }

  /**
   * Someone who sees few images (a restricted share, a new account): which of those match, in the
   * order of their visible list (read-caches/visible-ids.ts: the gallery's order and visibility).
   * Reading the whole library's matches instead — every image tagged 'beach' — and then dropping
   * what they may not see cost 30 ms per search on the 100,000-image library.
   */
  private async amongVisible(visible: ArrayLike<number>, matches: (eb: ExpressionBuilder<DB, 'images'>) => Expression<SqlBool>): Promise<number[]> {
    if (visible.length === 0) return [];
    const rows = await this.db.selectFrom('images').select('images.id').where('images.id', 'in', Array.from(visible)).where(matches).execute();
    const found = new Set(rows.map((row) => Number(row.id)));
    const ids: number[] = [];
    for (let i = 0; i < visible.length && ids.length < MAX_RESULTS; i += 1) {
      const id = visible[i] as number;
      if (found.has(id)) ids.push(id);
    }
    return ids;
  }

  /** Someone who sees many images: the gallery order read until MAX_RESULTS match, or just the few that can. */
  private async inGalleryOrder(
    user: AuthUser,
    needle: string,
    tags: readonly TagRef[],
    matches: (eb: ExpressionBuilder<DB, 'images'>) => Expression<SqlBool>,
  ): Promise<number[]> {
    const candidates = await this.fewCandidates(needle, tags);
    let query = this.db.selectFrom('images').select('images.id').where('images.ready', '=', 1).where(matches);
    if (candidates) query = query.where(candidates);
    // With few candidates, `+` keeps SQLite from walking the whole taken-order index to find them
    // (7.5 → 0.4 ms for a file name on 100,000 images): it reads the candidates, then sorts them.
    const order = candidates ? [sql`+images.taken_key`, sql`+images.id`] : [sql`images.taken_key`, sql`images.id`];
    const rows = await onlyVisible(query, user)
      .orderBy(order[0]!, 'desc')
      .orderBy(order[1]!, 'desc')
      .limit(MAX_RESULTS)
      .execute();
    return rows.map((row) => Number(row.id));
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
