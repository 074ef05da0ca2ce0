#!/usr/bin/env node
// Creates a large photo library for the benchmarks (and for trying the app on a big library): a
// 100,000-image one in ~10 s, 1,000,000 images in ~1.5 minutes on SQLite.
//   1. an empty DATA_DIR (and, with --postgres, a freshly created database);
//   2. the built server started once on it (it runs its migrations), the admin and three plain
//      accounts signed up over HTTP (real argon2 hashes), the server stopped;
//   3. N media + N images rows inserted straight into the database, all 'ready', as planned by
//      lib/library-plan.mjs: photos taken over 20 years (more in recent years) in events — weekday
//      snaps, weekend outings, holidays, vacations abroad — with bursts of shots on their days,
//      offsets recorded by newer phones and cameras, ~7% without a date taken (date_source 'file'
//      or 'upload'), and ids in upload order, which is not the taken order (backfill sessions of old
//      photos, old scans uploaded recently). Camera facts are filled in and facts_version is 1.
//      Uploads are whole events: ~30% the uploader account's, the rest the admin's. Thumbnails and
//      display images are 16 shared gradient files under DATA_DIR/media (no originals exist).
//   4. a vocabulary of 10,000 tags and 3–7 tags per image (~5 on average, Zipf popularity: 'beach'
//      is on ~40% of the images, most tags on a few), with the tags' usage counts; likes: the admin
//      likes ~2% of the images, the all-access account ~1.5%.
//   5. the admin's shares: 300 of their images (from ~20 events over the years) with the
//      restricted-share account, everything with the all-access account; the plain accounts'
//      addresses marked proven (shares reach only those).
// Fast: the secondary indexes are dropped and built again after the rows; SQLite writes in one
// transaction without a journal, PostgreSQL takes COPY with foreign-key triggers off.
//
//   node bench/make-library.mjs [--count 100000] [--data-dir DIR] [--postgres postgres://…/bench_library] [--force]
// Then run the app on it: DATA_DIR=DIR npm start (with DATABASE_URL=… for PostgreSQL); the
// accounts are in DIR/library.json.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tagsOfImage, vocabulary, zipfCumulative } from './lib/vocabulary.mjs';
import { IMAGE_COLUMNS, MEDIA_COLUMNS, UPLOAD_END, mix, photoRow, planLibrary } from './lib/library-plan.mjs';
import { copyRows } from './lib/pg-copy.mjs';
import {
  DEFAULT_LIBRARY_DIR,
  DEFAULT_LIBRARY_PG_DIR,
  LIBRARY_ADMIN,
  LIBRARY_ALL_ACCESS,
  LIBRARY_RESTRICTED,
  LIBRARY_UPLOADER,
  ensureServerBuilt,
  installCleanupHandlers,
  parseArgs,
  root,
  signUp,
  startServer,
} from './lib/common.mjs';

export const DEFAULT_COUNT = 100_000;
export const VOCABULARY_SIZE = 10_000;
/** Images in the restricted share. */
export const SHARED_IMAGES = 300;
/**
 * What library.json must say for a library to be reused: bump when the library's content changes.
 * 3: the timeline (taken dates over 20 years, upload order, camera facts, likes, shared files).
 */
export const LIBRARY_LAYOUT = 3;
const PLAIN_ACCOUNTS = [LIBRARY_RESTRICTED, LIBRARY_ALL_ACCESS, LIBRARY_UPLOADER];

/** Builds the library; resolves to { count, seconds, dataDir, database, steps }. */
export async function makeLibrary({ count = DEFAULT_COUNT, dataDir, postgres, force = false, log = console.log } = {}) {
  dataDir = path.resolve(dataDir ?? (postgres ? DEFAULT_LIBRARY_PG_DIR : DEFAULT_LIBRARY_DIR));
  const started = performance.now();
  const steps = [];
  const step = (what) => {
    const at = (performance.now() - started) / 1000;
    steps.push([Number(at.toFixed(1)), what]);
    log(`  ${at.toFixed(1).padStart(5)} s  ${what}`);
  };

  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  if (postgres) {
    await recreatePostgresDatabase(postgres, force);
    step(`database ${new URL(postgres).pathname.slice(1)} created`);
  }

  // Migrations and real accounts (the first is the admin), by the server itself.
  const server = await startServer({ dataDir, databaseUrl: postgres, logLevel: 'warn' });
  try {
    for (const account of [LIBRARY_ADMIN, ...PLAIN_ACCOUNTS]) await signUp(server.url, account);
  } finally {
    await server.stop();
  }
  step('server started (migrations), admin and plain accounts signed up, server stopped');

  const plan = planLibrary(count, { sharedImages: SHARED_IMAGES });
  const pictures = await sharedPictures(dataDir);
  step(`planned ${plan.events.length.toLocaleString('en')} events; 16 shared thumbnails written`);
  const insert = postgres ? insertPostgres : insertSqlite;
  await insert({ dataDir, postgres, count, plan, pictures, step });
  step(`done: ${count.toLocaleString('en')} images, ${VOCABULARY_SIZE.toLocaleString('en')} tags, likes and the shares`);

  const seconds = (performance.now() - started) / 1000;
  const info = {
    count,
    tags: VOCABULARY_SIZE,
    layout: LIBRARY_LAYOUT,
    schema: schemaFingerprint(),
    database: postgres ? redact(postgres) : path.relative(root, path.join(dataDir, 'photos.sqlite')),
    admin: { email: LIBRARY_ADMIN.email, password: LIBRARY_ADMIN.password },
    accounts: Object.fromEntries(
      [['restricted', LIBRARY_RESTRICTED], ['allAccess', LIBRARY_ALL_ACCESS], ['uploader', LIBRARY_UPLOADER]].map(([role, a]) => [role, { email: a.email, password: a.password }]),
    ),
    sharedImages: SHARED_IMAGES,
    ...describe(plan),
    builtAt: new Date().toISOString(),
    seconds: Number(seconds.toFixed(2)),
    steps,
  };
  writeFileSync(path.join(dataDir, 'library.json'), `${JSON.stringify(info, null, 2)}\n`);
  return { count, seconds, dataDir, database: info.database, steps };
}

// ---------------------------------------------------------------------------------------------
// Shared pieces: placeholders and the few derived files every row points at.

/**
 * 16 gradients (even: landscape 100×75, odd: portrait 75×100): their real ThumbHashes, and a
 * thumbnail and display WebP of each written once under DATA_DIR/media, so the web app shows
 * pictures. Every row's display and thumbnail keys name one of these shared files; a delete removes
 * the keys derived from the photo's own content hash (media-processor's storedKeys), never these.
 */
async function sharedPictures(dataDir) {
  const { rgbaToThumbHash } = await import('thumbhash');
  const { default: sharp } = await import('sharp');
  const out = [];
  for (let k = 0; k < 16; k += 1) {
    const w = k % 2 ? 75 : 100;
    const h = k % 2 ? 100 : 75;
    const rgba = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y += 1) {
      for (let x = 0; x < w; x += 1) {
        const i = (y * w + x) * 4;
        rgba[i] = (x * 255) / w + k * 13;
        rgba[i + 1] = (y * 255) / h + k * 29;
        rgba[i + 2] = 255 - (k * 47) % 255;
        rgba[i + 3] = 255;
      }
    }
    const base = `derived/bench-library/${k}`;
    const picture = sharp(Buffer.from(rgba), { raw: { width: w, height: h, channels: 4 } });
    mkdirSync(path.join(dataDir, 'media', base), { recursive: true });
    // Gradients scale up smoothly: 400 px thumbnails and 1,200 px display images, encoded quickly.
    await picture.clone().resize(w * 4, h * 4).webp({ quality: 80, effort: 0 }).toFile(path.join(dataDir, 'media', base, 'thumb.webp'));
    await picture.clone().resize(w * 12, h * 12).webp({ quality: 80, effort: 0 }).toFile(path.join(dataDir, 'media', base, 'display.webp'));
    out.push({ placeholder: Buffer.from(rgbaToThumbHash(w, h, rgba)).toString('base64'), displayKey: `${base}/display.webp`, thumbnailKey: `${base}/thumb.webp` });
  }
  return (landscape, k) => out[(k % 8) * 2 + (landscape ? 0 : 1)];
}

/** The vocabulary and image-tag rows (typed arrays: 5,000,000 row objects would be gigabytes). */
function tagRows(count) {
  const names = vocabulary(VOCABULARY_SIZE);
  const cumulative = zipfCumulative(names.length);
  const usage = new Int32Array(names.length);
  const imageIds = new Int32Array(count * 7);
  const tagIds = new Int32Array(count * 7);
  let n = 0;
  for (let i = 1; i <= count; i += 1) {
    for (const t of tagsOfImage(i, names.length, cumulative)) {
      imageIds[n] = i;
      tagIds[n] = t + 1;
      n += 1;
      usage[t] += 1;
    }
  }
  const tags = names.map((name, t) => [t + 1, name, usage[t], STAMP]);
  return { tags, imageIds: imageIds.subarray(0, n), tagIds: tagIds.subarray(0, n) };
}

/** When the vocabulary, tags, likes and shares were made. */
const STAMP = new Date(UPLOAD_END).toISOString();

/** Likes: the admin likes ~2% of the library, the all-access account ~1.5% (image ids, ascending). */
function likeRows(count) {
  const admin = [];
  const family = [];
  for (let i = 1; i <= count; i += 1) {
    const h = mix(i, 41) % 1000;
    if (h < 20) admin.push(i);
    if (h >= 985) family.push(i);
  }
  return { admin, family };
}

/** Photos per date source and how many months, for library.json. */
function describe(plan) {
  const sources = { taken: 0, file: 0, upload: 0 };
  for (let p = 0; p < plan.count; p += 1) sources[['taken', 'file', 'file', 'upload'][plan.source[p]]] += 1;
  return { dateSources: sources, events: plan.events.length };
}

// ---------------------------------------------------------------------------------------------
// SQLite: the secondary indexes dropped, prepared statements in one transaction without a
// journal, the indexes built again (with their exact SQL) on the full tables.

const BULK_TABLES = ['media', 'images', 'image_tags', 'likes'];

async function insertSqlite({ dataDir, count, plan, pictures, step }) {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dataDir, 'photos.sqlite'));
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('cache_size = -1048576'); // 1 GB: the unique content-hash index takes random inserts
    db.pragma('temp_store = MEMORY');
    db.pragma('threads = 2'); // CREATE INDEX sorts with a helper thread
    const ids = accountIds((email) => db.prepare('SELECT id, email FROM users WHERE email = ?').get(email)?.id);
    const familyId = db.prepare('SELECT id FROM users WHERE email = ?').get(LIBRARY_ALL_ACCESS.email).id;
    const indexes = db
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${BULK_TABLES.map(() => '?').join(', ')})`)
      .all(...BULK_TABLES);
    for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);

    const insertMedia = db.prepare(`INSERT INTO media (${MEDIA_COLUMNS.join(', ')}) VALUES (${MEDIA_COLUMNS.map(() => '?').join(', ')})`);
    const insertImage = db.prepare(`INSERT INTO images (${IMAGE_COLUMNS.join(', ')}) VALUES (${IMAGE_COLUMNS.map(() => '?').join(', ')})`);
    const { tags, imageIds, tagIds } = tagRows(count);
    const likes = likeRows(count);
    const insertTag = db.prepare('INSERT INTO tags (id, name, usage_count, created_at) VALUES (?, ?, ?, ?)');
    const insertImageTag = db.prepare(`INSERT INTO image_tags (image_id, tag_id, tagged_by, kind, created_at) VALUES (?, ?, ?, 'tag', ?)`);
    const insertLike = db.prepare('INSERT INTO likes (image_id, user_id, created_at) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let id = 1; id <= count; id += 1) {
        const row = photoRow(plan, id, ids, pictures);
        insertMedia.run(row.media);
        insertImage.run(row.image);
      }
      step(`${count.toLocaleString('en')} media + images rows`);
      for (const tag of tags) insertTag.run(tag);
      for (let k = 0; k < imageIds.length; k += 1) insertImageTag.run(imageIds[k], tagIds[k], ids.admin, STAMP);
      for (const id of likes.admin) insertLike.run(id, ids.admin, STAMP);
      for (const id of likes.family) insertLike.run(id, familyId, STAMP);
      step(`${imageIds.length.toLocaleString('en')} image tags, ${(likes.admin.length + likes.family.length).toLocaleString('en')} likes`);
      const insertRecord = db.prepare(
        'INSERT INTO access_records (owner_id, kind, receiver_email, active, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)',
      );
      const restricted = insertRecord.run(ids.admin, 'restricted', LIBRARY_RESTRICTED.email, STAMP, STAMP).lastInsertRowid;
      const insertShared = db.prepare('INSERT INTO access_record_images (record_id, image_id, created_at) VALUES (?, ?, ?)');
      for (const id of sharedImageIds(plan)) insertShared.run(restricted, id, STAMP);
      insertRecord.run(ids.admin, 'all', LIBRARY_ALL_ACCESS.email, STAMP, STAMP);
      const confirm = db.prepare('UPDATE users SET email_confirmed_at = created_at WHERE email = ?');
      for (const account of PLAIN_ACCOUNTS) confirm.run(account.email);
      for (const { sql } of indexes) db.exec(sql);
      step(`${indexes.length} indexes built`);
    })();
    // The server never runs ANALYZE, so neither do we: the library looks like one grown by uploads.
    db.pragma('locking_mode = NORMAL');
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}

/** Image ids of the restricted share (the plan picks photos; ids are their upload positions). */
function sharedImageIds(plan) {
  const idOf = new Uint32Array(plan.count);
  for (let k = 0; k < plan.count; k += 1) idOf[plan.order[k]] = k + 1;
  return [...plan.sharedPhotos].map((p) => idOf[p]).sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: COPY in one transaction, foreign-key triggers off (session_replication_role, when
// the role may set it), the secondary indexes dropped first and built again after.

async function insertPostgres({ postgres, count, plan, pictures, step }) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: postgres });
  await client.connect();
  try {
    const { rows: users } = await client.query('SELECT id, email FROM users');
    const ids = accountIds((email) => users.find((u) => u.email === email)?.id);
    const familyId = users.find((u) => u.email === LIBRARY_ALL_ACCESS.email).id;
    await client.query('BEGIN');
    await client.query("SET LOCAL synchronous_commit = off");
    await client.query("SET LOCAL maintenance_work_mem = '512MB'");
    try {
      await client.query('SAVEPOINT replica');
      await client.query("SET LOCAL session_replication_role = 'replica'");
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT replica'); // not a superuser: foreign keys are checked row by row
    }
    // Secondary indexes only: those behind primary keys and unique constraints stay.
    const { rows: indexes } = await client.query(
      `SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
      [BULK_TABLES],
    );
    for (const { name } of indexes) await client.query(`DROP INDEX "${name}"`);

    const chunk = 5000;
    const both = (function* () {
      for (let start = 1; start <= count; start += chunk) {
        const media = [];
        const images = [];
        for (let id = start; id < Math.min(start + chunk, count + 1); id += 1) {
          const row = photoRow(plan, id, ids, pictures);
          media.push(row.media);
          images.push(row.image);
        }
        yield { media, images };
      }
    })();
    // Two COPYs cannot run at once on one connection: media first (images reference them), keeping
    // each chunk's images for the second.
    const imageChunks = [];
    await copyRows(client, 'media', MEDIA_COLUMNS, (function* () {
      for (const { media, images } of both) {
        imageChunks.push(images);
        yield media;
      }
    })());
    await copyRows(client, 'images', IMAGE_COLUMNS, (function* () {
      while (imageChunks.length) yield imageChunks.shift();
    })());
    step(`${count.toLocaleString('en')} media + images rows`);

    const { tags, imageIds, tagIds } = tagRows(count);
    await copyRows(client, 'tags', ['id', 'name', 'usage_count', 'created_at'], [tags]);
    await copyRows(client, 'image_tags', ['image_id', 'tag_id', 'tagged_by', 'kind', 'created_at'], (function* () {
      for (let k = 0; k < imageIds.length; k += 20_000) {
        const rows = [];
        for (let j = k; j < Math.min(k + 20_000, imageIds.length); j += 1) rows.push([imageIds[j], tagIds[j], ids.admin, 'tag', STAMP]);
        yield rows;
      }
    })());
    const likes = likeRows(count);
    await copyRows(client, 'likes', ['image_id', 'user_id', 'created_at'], [
      [...likes.admin.map((id) => [id, ids.admin, STAMP]), ...likes.family.map((id) => [id, familyId, STAMP])],
    ]);
    step(`${imageIds.length.toLocaleString('en')} image tags, ${(likes.admin.length + likes.family.length).toLocaleString('en')} likes`);
    for (const table of ['media', 'images', 'tags']) {
      await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    const insertRecord = (kind, email) =>
      client.query(
        'INSERT INTO access_records (owner_id, kind, receiver_email, active, created_at, updated_at) VALUES ($1, $2, $3, 1, $4, $4) RETURNING id',
        [ids.admin, kind, email, STAMP],
      );
    const restricted = (await insertRecord('restricted', LIBRARY_RESTRICTED.email)).rows[0].id;
    await client.query('INSERT INTO access_record_images (record_id, image_id, created_at) SELECT $1, i, $3 FROM unnest($2::int[]) AS u(i)', [
      restricted, sharedImageIds(plan), STAMP,
    ]);
    await insertRecord('all', LIBRARY_ALL_ACCESS.email);
    await client.query('UPDATE users SET email_confirmed_at = created_at WHERE email = ANY($1::text[])', [PLAIN_ACCOUNTS.map((a) => a.email)]);
    for (const { sql } of indexes) await client.query(sql);
    step(`${indexes.length} indexes built`);
    await client.query('COMMIT');
    // What autovacuum would have done by the time a real library is this big: statistics for the
    // planner and the visibility map for index-only scans.
    for (const table of ['media', 'images', 'tags', 'image_tags', 'likes', 'access_records', 'access_record_images', 'users']) {
      await client.query(`VACUUM ANALYZE ${table}`);
    }
    step('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

/** The accounts' ids, looked up by address: the admin and the plain accounts signed up before. */
function accountIds(idOf) {
  const ids = { admin: idOf(LIBRARY_ADMIN.email), uploader: idOf(LIBRARY_UPLOADER.email) };
  for (const account of [LIBRARY_ADMIN, ...PLAIN_ACCOUNTS]) {
    if (idOf(account.email) === undefined) throw new Error(`The account ${account.email} is missing after sign-up.`);
  }
  return ids;
}

/** Drops and creates the database named in `url` (connecting to the server's `postgres` database). */
async function recreatePostgresDatabase(url, force) {
  const { default: pg } = await import('pg');
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Unusual database name "${name}"; use letters, digits and _.`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
    if (exists) {
      if (!name.toLowerCase().includes('bench') && !force) {
        throw new Error(`Database "${name}" exists and its name does not contain "bench"; pass --force to drop and recreate it.`);
      }
      await client.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    }
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * A hash of the built migrations: when they change (even an edited migration), a library built
 * before no longer matches what the server expects and is rebuilt.
 */
export function schemaFingerprint() {
  const dir = path.join(root, 'server', 'dist', 'db', 'migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js')).sort()) hash.update(file).update(readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, 16);
}

function redact(url) {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

// ---------------------------------------------------------------------------------------------

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  installCleanupHandlers();
  const args = parseArgs(process.argv.slice(2), { count: 'number', 'data-dir': 'string', postgres: 'string', force: 'boolean' });
  const build = ensureServerBuilt();
  if (!build.ok) console.warn('(continuing with the existing build)');
  const count = args.count ?? DEFAULT_COUNT;
  console.log(`Making a ${count.toLocaleString('en')}-image library${args.postgres ? ` in ${redact(args.postgres)}` : ''}...`);
  makeLibrary({ count, dataDir: args['data-dir'], postgres: args.postgres, force: args.force }).then(
    ({ seconds, dataDir, database }) => {
      console.log(`Library ready in ${seconds.toFixed(1)} s: ${database} (DATA_DIR ${path.relative(process.cwd(), dataDir) || '.'})`);
      console.log(`Admin: ${LIBRARY_ADMIN.email} / ${LIBRARY_ADMIN.password}`);
      console.log(`Plain accounts (same password): ${LIBRARY_RESTRICTED.email} (restricted share of ${SHARED_IMAGES} images), ${LIBRARY_ALL_ACCESS.email} (all access), ${LIBRARY_UPLOADER.email} (30% of the uploads)`);
    },
    (error) => {
      console.error(`make-library failed: ${error instanceof Error ? error.message : error}`);
      process.exitCode = 1;
    },
  );
}
