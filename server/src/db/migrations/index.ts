import type { ColumnDefinitionBuilder, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { accounts } from './001_accounts.js';
import { images } from './002_images.js';
import { visibleSince } from './003_visible_since.js';
import { tagsLikesPresence } from './004_tags_likes_presence.js';
import { sharing } from './005_sharing.js';
import { addressProofs } from './006_address_proofs.js';
import { processingClaims } from './007_processing_claims.js';
import { downloads } from './008_downloads.js';
import { trash } from './009_trash.js';
import { timeline } from './010_timeline.js';
import { resumableUploads } from './011_resumable_uploads.js';
import { libraryRemovals } from './012_library_removals.js';
import { libraryTouches } from './013_library_touches.js';
import { fileNameSearch } from './014_file_name_search.js';
import { touchKinds } from './015_touch_kinds.js';
import { uploadLocks } from './016_upload_locks.js';
import { touchRows } from './017_touch_rows.js';
import { listVersion } from './018_list_version.js';

export interface MigrationContext {
  dialect: DialectName;
  /** An auto-numbered integer primary key, spelled the way each database wants it. */
  idColumn(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}

/** Every migration, in order. Names never change once released: they are recorded in the database. */
export function allMigrations(dialect: DialectName): Record<string, Migration> {
  const context: MigrationContext = {
    dialect,
    idColumn: (c) =>
      dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
  };
  return {
    '001_accounts': accounts(context),
    '002_images': images(context),
    '003_visible_since': visibleSince(),
    '004_tags_likes_presence': tagsLikesPresence(context),
    '005_sharing': sharing(context),
    '006_address_proofs': addressProofs(context),
    '007_processing_claims': processingClaims(),
    '008_downloads': downloads(context),
    '009_trash': trash(),
    '010_timeline': timeline(context),
    '011_resumable_uploads': resumableUploads(),
    '012_library_removals': libraryRemovals(),
    '013_library_touches': libraryTouches(),
    '014_file_name_search': fileNameSearch(context),
    '015_touch_kinds': touchKinds(),
    '016_upload_locks': uploadLocks(),
    '017_touch_rows': touchRows(),
    '018_list_version': listVersion(),
  };
}
