import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Tags (one shared vocabulary, DECISIONS §3), likes and "I'm in this photo" (see
 * docs/decisions/0004-tags-likes-presence.md). Rows about an image go with it: deleting an image
 * cascades here (and `deleteImages` keeps the tags' usage counts right).
 */
export function tagsLikesPresence({ idColumn, dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('tags')
        .addColumn('id', 'integer', idColumn)
        // Trimmed and lower-cased by the server. Byte order on both databases (SQLite's default;
        // "C" on PostgreSQL), so `name >= q AND name < q || U+10FFFF` is an index range for prefixes.
        .addColumn('name', dialect === 'postgres' ? sql`text collate "C"` : 'text', (c) => c.notNull().unique())
        // Image-tag rows carrying this tag, kept in step by every write: ranks suggestions without counting.
        .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      // Suggestions read a prefix range of names ranked by usage: with the count in the index the
      // range is read from the index alone (no row lookups, which were half a suggestion's cost).
      await db.schema.createIndex('tags_name_usage').on('tags').columns(['name', 'usage_count']).execute();

      await db.schema
        .createTable('image_tags')
        .addColumn('image_id', 'integer', (c) => c.notNull().references('images.id').onDelete('cascade'))
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
        // Who added it: "My Tagged Images" and who may remove it.
        .addColumn('tagged_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // 'custom': added as a custom tag from search results (the image's customTags).
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('tag').check(sql`kind in ('tag', 'custom')`))
        .addColumn('created_at', 'text', (c) => c.notNull())
        // An image's tags in one range; the same person adding the same tag again is a no-op.
        .addPrimaryKeyConstraint('image_tags_pk', ['image_id', 'tag_id', 'tagged_by'])
        // SQLite: rows stored in primary-key order, so an image's tags are one contiguous read.
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      // The tag filter walks one tag's images newest first; merges move one tag's rows.
      await db.schema.createIndex('image_tags_tag_image').on('image_tags').columns(['tag_id', 'image_id']).execute();
      // A person's tagged images newest first ("My Tagged Images"), and the tags they used (/user-tags:
      // on SQLite the index also holds the rest of the primary key, tag_id, so that is an index-only read).
      await db.schema.createIndex('image_tags_tagger_image').on('image_tags').columns(['tagged_by', 'image_id']).execute();

      await db.schema
        .createTable('likes')
        .addColumn('image_id', 'integer', (c) => c.notNull().references('images.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('likes_pk', ['image_id', 'user_id'])
        .execute();
      await db.schema.createIndex('likes_user_created').on('likes').columns(['user_id', 'created_at']).execute();

      await db.schema
        .createTable('photo_people')
        .addColumn('image_id', 'integer', (c) => c.notNull().references('images.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('photo_people_pk', ['image_id', 'user_id'])
        .execute();
      await db.schema.createIndex('photo_people_user_created').on('photo_people').columns(['user_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('photo_people').execute();
      await db.schema.dropTable('likes').execute();
      await db.schema.dropTable('image_tags').execute();
      await db.schema.dropTable('tags').execute();
    },
  };
}
