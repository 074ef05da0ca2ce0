import { type Kysely, sql } from 'kysely';
import { onlyVisible } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import { normalizeTag } from '../tags/tag-text.js';
import type { VisibleVocabulary } from '../tags/visible-vocabulary.js';
import type { ImagePresenter } from './image-presenter.js';
import type { ImagesRepository } from './images.repository.js';

const MAX_RESULTS = 500;
/** Tags a query's prefix may stand for (the most used first), so a short query stays one small `in`. */
const MAX_MATCHED_TAGS = 50;

/**
 * `GET /search?query=`: visible images whose file name contains the text, or that carry a tag
 * starting with it ('bea' finds images tagged 'beach'). Hidden tags find nothing. The tags a
 * prefix stands for are those on images the person may see, the most used there first, so tags
 * of other people's private photos neither take up the bound nor push the person's own out.
 */
export class SearchService {
  constructor(
    private readonly db: Kysely<DB>,
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
    const tagIds = (await view.startingWith(normalizeTag(text), MAX_MATCHED_TAGS)).map((tag) => tag.id);
    const rows = await onlyVisible(
      this.db
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
        ),
      user,
    )
      .orderBy('images.taken_key', 'desc')
      .orderBy('images.id', 'desc')
      .limit(MAX_RESULTS)
      .execute();
    return this.presenter.presentIdsJson(rows.map((row) => row.id), user);
  }
}
