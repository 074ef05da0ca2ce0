import type { Image } from '@photo/contract';
import { type Kysely, sql } from 'kysely';
import { onlyVisible } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import type { ImagePresenter } from './image-presenter.js';
import type { ImagesRepository } from './images.repository.js';

const MAX_RESULTS = 500;

/** `GET /search?query=`: visible images whose name contains the text (tags join in with the tags domain). */
export class SearchService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly images: ImagesRepository,
    private readonly presenter: ImagePresenter,
  ) {}

  async search(user: AuthUser, text: string): Promise<Image[]> {
    const needle = text.trim().toLowerCase();
    if (!needle) return [];
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await onlyVisible(
      this.db
        .selectFrom('images')
        .select('images.id')
        .where('images.ready', '=', 1)
        .where(sql<boolean>`lower(images.file_name) like ${pattern} escape '\\'`),
      user,
    )
      .orderBy('images.id', 'desc')
      .limit(MAX_RESULTS)
      .execute();
    return this.presenter.present(await this.images.withMedia(rows.map((row) => row.id)));
  }
}
