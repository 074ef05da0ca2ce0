import type { Kysely } from 'kysely';
import { onlyVisible } from '../access/image-visibility.js';
import type { ImageIdsQuery } from '../access/visible-scope.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB, ImageTagsTable } from '../db/schema.js';
import { inListSlices } from '../db/in-lists.js';
import { normalizeTags } from './tag-text.js';
import type { TagPrefixAnswers } from './tag-prefixes.js';
import type { TagRow } from './view-tally.js';

export type TagKind = ImageTagsTable['kind'];
export interface TagRef {
  id: number;
  name: string;
  usage_count: number;
}
export interface ImageTagLabels {
  /** Every tag on the image, each once, sorted. */
  tags: string[];
  /** Those of them added as custom tags (search results). */
  customTags: string[];
}

/**
 * The end of the index range of every name starting with `prefix`: names are compared byte-wise
 * (SQLite's default, collation "C" on PostgreSQL) and U+10FFFF is the largest character, so
 * `name >= prefix AND name < prefixEnd(prefix)` needs no LIKE and no escaping.
 */
export const prefixEnd = (prefix: string) => `${prefix}\u{10FFFF}`;

/** Plain code-unit order, as the database sorts names (not the locale's). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Reads of the shared tag vocabulary and of tags on images (changes: `tag-changes.repository.ts`).
 * Tags named in HIDDEN_TAGS never come out of a read.
 */
export class TagsRepository {
  private readonly hidden: readonly string[];

  constructor(
    private readonly db: Kysely<DB>,
    hiddenTags: readonly string[],
    /** SQLite: whole-library prefix answers kept while no tag under the prefix is written (tag-prefixes.ts). */
    private readonly prefixAnswers?: TagPrefixAnswers,
  ) {
    // Spelled as tags are stored, so 'Summer  2024' in HIDDEN_TAGS hides 'summer 2024'.
    this.hidden = normalizeTags(hiddenTags);
  }

  isHidden(name: string): boolean {
    return this.hidden.includes(name);
  }

  /** Tags on at least one image, alphabetically. */
  async vocabulary(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('tags')
      .select('tags.name')
      .where('tags.usage_count', '>', 0)
      .$if(this.hidden.length > 0, (qb) => qb.where('tags.name', 'not in', this.hidden))
      .orderBy('tags.name')
      .limit(limit)
      .execute();
    return rows.map((row) => row.name);
  }

  /** Tags starting with `prefix` (already trimmed and lower-cased), most used first: one index range. */
  async startingWith(prefix: string, limit: number): Promise<readonly TagRef[]> {
    return this.prefixAnswers ? this.prefixAnswers.get(prefix, limit, () => this.readStartingWith(prefix, limit)) : this.readStartingWith(prefix, limit);
  }

  private async readStartingWith(prefix: string, limit: number): Promise<TagRef[]> {
    return this.db
      .selectFrom('tags')
      .select(['tags.id', 'tags.name', 'tags.usage_count'])
      .where('tags.name', '>=', prefix)
      .where('tags.name', '<', prefixEnd(prefix))
      .where('tags.usage_count', '>', 0)
      .$if(this.hidden.length > 0, (qb) => qb.where('tags.name', 'not in', this.hidden))
      .orderBy('tags.usage_count', 'desc')
      .orderBy('tags.name')
      .limit(limit)
      .execute();
  }

  /**
   * Every shown tag on these images (a person's visible ones: `access/visible-scope.ts`), with its
   * rows on them only (the same measure as `usage_count`, which is this over the whole library).
   * Each image's tags are one primary-key range, counted per tag before the names are joined, so
   * the cost follows the number of images, not the library.
   */
  async usageOn(imageIds: ImageIdsQuery): Promise<TagRef[]> {
    const counted = this.db
      .selectFrom('image_tags')
      .select(['image_tags.tag_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('image_tags.image_id', 'in', imageIds)
      .groupBy('image_tags.tag_id');
    const rows = await this.db
      .selectFrom(counted.as('counted'))
      .innerJoin('tags', 'tags.id', 'counted.tag_id')
      .select(['tags.id', 'tags.name', 'counted.n'])
      .$if(this.hidden.length > 0, (qb) => qb.where('tags.name', 'not in', this.hidden))
      .execute();
    // PostgreSQL counts are bigint, read as strings.
    return rows.map((row) => ({ id: row.id, name: row.name, usage_count: Number(row.n) }));
  }

  /**
   * Every shown tag row on these images (a view's subquery, or a few ids), named: what `usageOn`
   * counts, kept per image by a view's tally (view-tally.ts). Undefined when there are more than
   * `limit` rows: the caller counts in the database instead of holding them all.
   */
  async rowsOn(imageIds: ImageIdsQuery | readonly number[], limit = Number.POSITIVE_INFINITY): Promise<TagRow[] | undefined> {
    const rows: { image_id: number; tag_id: number }[] = [];
    const read = (ids: ImageIdsQuery | readonly number[], atMost: number) =>
      this.db
        .selectFrom('image_tags')
        .select(['image_id', 'tag_id'])
        .where('image_id', 'in', ids)
        .$if(Number.isFinite(atMost), (qb) => qb.limit(atMost + 1))
        .execute();
    if (Array.isArray(imageIds)) {
      for (const ids of inListSlices(imageIds)) rows.push(...(await read(ids, limit - rows.length)));
    } else rows.push(...(await read(imageIds as ImageIdsQuery, limit)));
    if (rows.length > limit) return undefined;
    const names = await this.shownNames(rows.map((row) => row.tag_id));
    return rows.flatMap((row) => {
      const name = names.get(row.tag_id);
      return name === undefined ? [] : [{ image_id: row.image_id, tag_id: row.tag_id, name }];
    });
  }

  /** The tags of these names that exist (hidden ones included: they exist, they are just not listed). */
  async byNames(names: readonly string[]): Promise<TagRef[]> {
    if (names.length === 0) return [];
    return this.db.selectFrom('tags').select(['id', 'name', 'usage_count']).where('name', 'in', names).execute();
  }

  /**
   * Shown tags of each image: the image's rows by primary key, then the names of their tags by id
   * (two index reads; a join lets the planners walk the whole vocabulary instead).
   */
  async labelsOf(imageIds: readonly number[]): Promise<Map<number, ImageTagLabels>> {
    const rows = [];
    for (const ids of inListSlices(imageIds)) {
      rows.push(
        ...(await this.db
          .selectFrom('image_tags')
          .select(['image_id', 'tag_id', 'kind'])
          .where('image_id', 'in', ids)
          .execute()),
      );
    }
    const names = await this.shownNames(rows.map((row) => row.tag_id));
    const sets = new Map<number, { tags: Set<string>; customTags: Set<string> }>();
    for (const row of rows) {
      const name = names.get(row.tag_id);
      if (name === undefined) continue;
      let entry = sets.get(row.image_id);
      if (!entry) sets.set(row.image_id, (entry = { tags: new Set(), customTags: new Set() }));
      entry.tags.add(name);
      if (row.kind === 'custom') entry.customTags.add(name);
    }
    return new Map(
      [...sets].map(([id, entry]) => [id, { tags: [...entry.tags].sort(byName), customTags: [...entry.customTags].sort(byName) }]),
    );
  }

  /** Names of the given tags, leaving out hidden ones. */
  private async shownNames(tagIds: readonly number[]): Promise<Map<number, string>> {
    const unique = [...new Set(tagIds)];
    const names = new Map<number, string>();
    for (const ids of inListSlices(unique)) {
      const rows = await this.db
        .selectFrom('tags')
        .select(['id', 'name'])
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) if (!this.isHidden(row.name)) names.set(row.id, row.name);
    }
    return names;
  }

  /** Who added each of these tags to the image (for deciding who may remove them). */
  async taggersOn(imageId: number, tagIds: readonly number[]): Promise<{ tag_id: number; tagged_by: number }[]> {
    if (tagIds.length === 0) return [];
    return this.db
      .selectFrom('image_tags')
      .select(['tag_id', 'tagged_by'])
      .where('image_id', '=', imageId)
      .where('tag_id', 'in', tagIds)
      .execute();
  }

  /**
   * Shown tags the person has added to images they may still see, alphabetically: their rows off the
   * (tagged_by, image_id) index, each image checked by primary key. A share switched off takes its
   * images' tags out of the list, even the person's own words there (an admin may have renamed them).
   */
  async usedBy(user: AuthUser, limit: number): Promise<string[]> {
    const rows = await onlyVisible(
      this.db
        .selectFrom('image_tags')
        .innerJoin('images', 'images.id', 'image_tags.image_id')
        .select('image_tags.tag_id')
        .distinct()
        .where('image_tags.tagged_by', '=', user.id)
        .where('images.ready', '=', 1),
      user,
    ).execute();
    const names = await this.shownNames(rows.map((row) => row.tag_id));
    return [...names.values()].sort(byName).slice(0, limit);
  }

  /** Images the person has tagged, in gallery order (newest taken first). */
  async imagesTaggedBy(userId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('image_tags')
      .innerJoin('images', 'images.id', 'image_tags.image_id')
      .select('image_tags.image_id')
      .where('image_tags.tagged_by', '=', userId)
      .groupBy(['image_tags.image_id', 'images.taken_key'])
      .orderBy('images.taken_key', 'desc')
      .orderBy('image_tags.image_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.image_id);
  }

  /** The shown tags this person added to each of these images, latest first. */
  async addedBy(userId: number, imageIds: readonly number[]): Promise<Map<number, string[]>> {
    const rows = [];
    for (const ids of inListSlices(imageIds)) {
      rows.push(
        ...(await this.db
          .selectFrom('image_tags')
          .select(['image_id', 'tag_id', 'created_at'])
          .where('tagged_by', '=', userId)
          .where('image_id', 'in', ids)
          .execute()),
      );
    }
    const names = await this.shownNames(rows.map((row) => row.tag_id));
    rows.sort((a, b) => b.created_at.localeCompare(a.created_at) || byName(names.get(a.tag_id) ?? '', names.get(b.tag_id) ?? ''));
    const added = new Map<number, string[]>();
    for (const row of rows) {
      const name = names.get(row.tag_id);
      if (name !== undefined) added.set(row.image_id, [...(added.get(row.image_id) ?? []), name]);
    }
    return added;
  }

  /**
   * Ready images the person may see that carry every one of `tagIds`, in gallery order (newest
   * taken first). The first tag drives (pass the rarest): its images are read off (tag_id, image_id),
   * each checked for the others by primary key, and the matches sorted by their taken key.
   */
  async imagesWithAll(user: AuthUser, tagIds: readonly number[], limit: number): Promise<number[]> {
    const [driver, ...others] = tagIds;
    if (driver === undefined) return [];
    let query = this.db
      .selectFrom('image_tags')
      .innerJoin('images', 'images.id', 'image_tags.image_id')
      .select('image_tags.image_id')
      .where('image_tags.tag_id', '=', driver)
      .where('images.ready', '=', 1);
    for (const other of others) {
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('image_tags as other')
            .select('other.image_id')
            .whereRef('other.image_id', '=', 'image_tags.image_id')
            .where('other.tag_id', '=', other),
        ),
      );
    }
    // Several people may have added the driving tag: group to list each image once.
    const rows = await onlyVisible(query, user)
      .groupBy(['image_tags.image_id', 'images.taken_key'])
      .orderBy('images.taken_key', 'desc')
      .orderBy('image_tags.image_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.image_id);
  }
}
