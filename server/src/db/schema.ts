import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * The database as Kysely sees it. Timestamps are ISO-8601 UTC strings on both SQLite and
 * PostgreSQL: they sort correctly as text and read the same from either driver.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Stored lower-cased; unique. */
  email: string;
  password_hash: string;
  role: 'admin' | 'user';
  profile_image_key: string | null;
  /** Bumped when the password changes, so every token issued before stops working. */
  token_version: Generated<number>;
  /** When the account proved it owns `email` (opened a mailed link); null until then. */
  email_confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A mailed link that proves an address: confirmation at sign-up, or a share mail (decision 0006). */
export interface AddressProofsTable {
  id: Generated<number>;
  /** Lower-cased, like users.email. */
  email: string;
  /** SHA-256 of the token: a leaked database row cannot be turned into a working link. */
  token_hash: string;
  purpose: 'signup' | 'share';
  next_path: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the token: a leaked database row cannot be turned into a working link. */
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  /** Unix seconds at which the current counting window began. */
  window_start: number;
  count: number;
}

/**
 * One stored picture, shared by every upload of the same bytes (DECISIONS §4: identical content
 * is stored once). Object keys derive from the content hash.
 */
export interface MediaTable {
  id: Generated<number>;
  /** SHA-256 of the original bytes, hex. */
  content_hash: string;
  mime: string;
  byte_size: number;
  /**
   * 'pending' until the derived images exist; only 'ready' media are ever shown. 'deleting': no image
   * uses it any more and its files are being removed; the row goes once they are (it keeps the
   * content hash taken meanwhile, so the same picture cannot be stored again under its feet).
   */
  status: 'pending' | 'ready' | 'deleting';
  /** Upright pixel size of the original. */
  width: number | null;
  height: number | null;
  /** Base64 ThumbHash for the blur-up placeholder. */
  placeholder: string | null;
  taken_at: string | null;
  camera: string | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  /** The offset EXIF recorded with the date taken ('+09:00'), if any. */
  taken_offset: string | null;
  /** The file's own date from its metadata (EXIF ModifyDate), wall-clock like `taken_at`. */
  file_date: string | null;
  lens: string | null;
  f_number: number | null;
  /** Seconds. */
  exposure_time: number | null;
  iso: number | null;
  /** Millimetres. */
  focal_length: number | null;
  /** 0: facts read before the timeline (decision 0009); 1: every fact above read from the original. */
  facts_version: Generated<number>;
  original_key: string;
  display_key: string | null;
  thumbnail_key: string | null;
  created_at: string;
  /**
   * Work in progress on a pending or deleting row (image-processing/claims.ts): the process doing it
   * (`claimed_by`, an owner token) and its last heartbeat (`claimed_at`, refreshed every few seconds).
   * A claim whose heartbeat stopped, or whose process is known to be dead, is taken over.
   */
  claimed_at: string | null;
  claimed_by: string | null;
}

/** A person's upload: one row per (uploader, media). */
export interface ImagesTable {
  id: Generated<number>;
  media_id: number;
  uploaded_by: number;
  /** The file name as uploaded (spec's FileName). */
  file_name: string;
  /** The file name without its extension (spec's imageName). */
  image_name: string;
  /** Copy of media.status = 'ready' (1/0), so gallery pages are read from one index. */
  ready: number;
  /** The library version at which the image became visible (see read-caches/library-version.ts). */
  visible_since: number | null;
  created_at: string;
  /** When it was moved to the Trash (null: not in the Trash); `ready` is 0 meanwhile. */
  trashed_at: string | null;
  /** Who moved it there (the uploader or an admin). */
  trashed_by: number | null;
  /** What every list sorts by, newest first: ms since 1970 UTC (timeline/taken-key.ts, decision 0009). */
  taken_key: Generated<number>;
  /** Where `taken_key` came from: the date taken, the file's own date, or the upload time. */
  date_source: Generated<'taken' | 'file' | 'upload'>;
  /** The file's last-modified time as the uploading client reported it (ISO), if it did. */
  file_modified_at: string | null;
}

/** A single row (id 1): `version` changes whenever the set of visible images may have changed. */
export interface LibraryStateTable {
  id: number;
  version: number;
  /** The last version whose change was more than images becoming visible: readers start over. */
  reset_version: Generated<number>;
  /** The last version that changed what many images show (a tag renamed or merged): per-image caches start over. */
  relabel_version: Generated<number>;
  /** The last version that changed which images are in anyone's list (migration 018): likes and tags leave it. */
  list_version: Generated<number>;
}

/** An image whose card changed in place (a like, a tag) at a library version (image-cards/). */
export interface LibraryTouchesTable {
  version: number;
  image_id: number;
  /** 1 when the touch was a like alone: caches that do not show likes skip it (migration 015). */
  likes_only: Generated<number>;
  /** 1 when the touch was a like or a tag: the image's row is unchanged, only its facts (migration 017). */
  facts_only: Generated<number>;
}

/** An image that left the lists (or moved in the order) at a library version (read-caches/library-version.ts). */
export interface LibraryRemovalsTable {
  version: number;
  image_id: number;
}

/** Who a person shared with (DECISIONS §3): everything ('all') or the listed images ('restricted'). */
export interface AccessRecordsTable {
  id: Generated<number>;
  owner_id: number;
  kind: 'all' | 'restricted';
  /** Lower-cased; matched against users.email, so whoever signs up with it later sees the share. */
  receiver_email: string;
  /** 1 active, 0 switched off by the owner. */
  active: Generated<number>;
  /** All-access only: SHA-256 (hex) of the link token; the token itself is never stored. */
  link_hash: string | null;
  /** All-access only: random salt the token is derived from with the server secret (see share-links.ts). */
  link_salt: string | null;
  /** All-access only: 1 (the default) lets the public link page download; 0 switched off by the owner. */
  allow_downloads: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A short-lived download URL (downloads/): SHA-256 of its token, whose it is and which images. */
export interface DownloadTicketsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  kind: 'original' | 'zip';
  /** JSON array of image ids. */
  image_ids: string;
  file_name: string;
  created_at: string;
  expires_at: string;
}

/** The images of one restricted access record. */
export interface AccessRecordImagesTable {
  record_id: number;
  image_id: number;
  created_at: string;
}

/** A person's e-mail templates for share mails (spec §4: at most one default). */
export interface EmailTemplatesTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  subject: string;
  body: string;
  is_default: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** The shared tag vocabulary (DECISIONS §3): trimmed, lower-cased, unique. */
export interface TagsTable {
  id: Generated<number>;
  name: string;
  /** Number of image_tags rows carrying the tag, kept in step by every write (ranks suggestions). */
  usage_count: Generated<number>;
  created_at: string;
}

/** A tag on an image, per person who added it (an image shows each tag once). */
export interface ImageTagsTable {
  image_id: number;
  tag_id: number;
  tagged_by: number;
  /** 'custom' when added as a custom tag from search results. */
  kind: 'tag' | 'custom';
  created_at: string;
}

/** One person's like of one image. */
export interface LikesTable {
  image_id: number;
  user_id: number;
  created_at: string;
}

/** "I'm in this photo": a person marked present in an image. */
export interface PhotoPeopleTable {
  image_id: number;
  user_id: number;
  created_at: string;
}

export interface DB {
  address_proofs: AddressProofsTable;
  access_records: AccessRecordsTable;
  download_tickets: DownloadTicketsTable;
  access_record_images: AccessRecordImagesTable;
  email_templates: EmailTemplatesTable;
  users: UsersTable;
  password_resets: PasswordResetsTable;
  rate_limits: RateLimitsTable;
  media: MediaTable;
  images: ImagesTable;
  library_state: LibraryStateTable;
  library_removals: LibraryRemovalsTable;
  library_touches: LibraryTouchesTable;
  tags: TagsTable;
  image_tags: ImageTagsTable;
  likes: LikesTable;
  photo_people: PhotoPeopleTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type MediaRow = Selectable<MediaTable>;
export type ImageRow = Selectable<ImagesTable>;
