import { type Kysely, sql } from 'kysely';
import { onlyVisible } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DialectName } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { normalizeTag } from '../tags/tag-text.js';
import type { TagRef } from '../tags/tags.repository.js';
import type { VisibleVocabulary } from '../tags/visible-vocabulary.js';
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
  ) {}

  /** The matching images as the JSON text of an array (ImagePresenter.presentIdsJson). */
  async searchJson(user: AuthUser, text: string): Promise<string> {
    const needle = text.trim().toLowerCase();
    if (!needle) return '[]';
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const view = await this.vocabulary.of(user);
    const tags = await view.startingWith(normalizeTag(text), MAX_MATCHED_TAGS);
    const tagIds = tags.map((tag) => tag.id);
    const candidates = await this.fewCandidates(needle, tags);
    let query = this.db
      .selectFrom('images')
      .select('images.id')
      .where('images.ready', '=', 1)
      .where((eb) =>
        eb.or([
          sql<boolean>`lower(images.file_name) like ${pattern} escape '\\'`,
          ...(tagIds.length > 0
            ? [eb('images.id', 'in', eb.selectFrom('image_tags').select('image_tags.image_id').where('image_tags.tag_id', 'in', tagIds))]
            : []),
        ]),
      );
    if (candidates) query = query.where(candidates);
    const rows = await onlyVisible(query, user)
      .orderBy('images.taken_key', 'desc')
      .orderBy('images.id', 'desc')
      .limit(MAX_RESULTS)
      .execute();
    return this.presenter.presentIdsJson(rows.map((row) => row.id), user);
  }

  /**
   * On SQLite, when few images can match, the ids that may: names from the trigram index
   * (`image_names`, migration 014; its `like` is unescaped, so `_` and `%` in the text only widen
   * it, and the escaped `like` above still decides) and images with a matching tag. The query then
   * reads just those and sorts them. When many can match (a common tag; a text under 3 characters,
   * which the index cannot answer), undefined: reading the gallery order until 500 are found stops
   * early instead. (On PostgreSQL the planner weighs pg_trgm's index on `lower(file_name)` itself.)
   */
  private async fewCandidates(needle: string, tags: readonly TagRef[]) {
    if (this.dialect !== 'sqlite' || [...needle].length < 3) return undefined;
    const tagged = tags.reduce((sum, tag) => sum + tag.usage_count, 0);
    if (tagged > MAX_CANDIDATES) return undefined;
    const names = sql`select rowid from image_names where image_names.file_name like ${`%${needle}%`}`;
    const { rows } = await sql<{ n: number }>`select count(*) as n from (${names} limit ${MAX_CANDIDATES + 1})`.execute(this.db);
    if (tagged + Number(rows[0]?.n ?? 0) > MAX_CANDIDATES) return undefined;
    return tags.length === 0
      ? sql<boolean>`images.id in (${names})`
      : sql<boolean>`images.id in (${names} union select image_id from image_tags where tag_id in (${sql.join(tags.map((tag) => tag.id))}))`;
  }
}
