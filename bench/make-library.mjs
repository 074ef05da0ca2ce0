#!/usr/bin/env node
// Creates a large photo library for the gallery benchmark, in seconds:
//   1. an empty DATA_DIR (and, with --postgres, a freshly created database);
//   2. the built server started once on it (it runs its migrations), the admin and three plain
//      accounts signed up over HTTP (real argon2 hashes), the server stopped;
//   3. N media + N images rows inserted straight into the database (one transaction on SQLite;
//      multi-row INSERT … SELECT FROM unnest(…) on PostgreSQL), all 'ready', with plausible keys,
//      ThumbHash placeholders, sizes and EXIF facts. No image files exist: the gallery only reads rows.
//      30% are the uploader account's, the rest the admin's.
//   4. a vocabulary of 10,000 tags and 3–7 tags per image (~5 on average, Zipf popularity: 'beach'
//      is on ~40% of the images, most tags on a few), with the tags' usage counts.
//   5. the admin's shares: 300 of their images with the restricted-share account, everything with
//      the all-access account; the plain accounts' addresses marked proven (shares reach only those).
//
//   node bench/make-library.mjs [--count 100000] [--data-dir DIR] [--postgres postgres://…/bench_library] [--force]
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tagsOfImage, vocabulary, zipfCumulative } from './lib/vocabulary.mjs';
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
/** What library.json must say for a library to be reused: bump when the library's content changes. */
export const LIBRARY_LAYOUT = 2;
const PLAIN_ACCOUNTS = [LIBRARY_RESTRICTED, LIBRARY_ALL_ACCESS, LIBRARY_UPLOADER];

/** Builds the library; resolves to { count, seconds, dataDir, database }. */
export async function makeLibrary({ count = DEFAULT_COUNT, dataDir, postgres, force = false, log = console.log } = {}) {
  dataDir = path.resolve(dataDir ?? (postgres ? DEFAULT_LIBRARY_PG_DIR : DEFAULT_LIBRARY_DIR));
  const started = performance.now();
  const step = (what) => log(`  ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s  ${what}`);

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

  const insert = postgres ? insertPostgres : insertSqlite;
  await insert({ dataDir, postgres, count });
  step(`${count.toLocaleString('en')} media + images rows inserted, with ${VOCABULARY_SIZE.toLocaleString('en')} tags and the shares`);

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
    builtAt: new Date().toISOString(),
    seconds: Number(seconds.toFixed(2)),
  };
  writeFileSync(path.join(dataDir, 'library.json'), `${JSON.stringify(info, null, 2)}\n`);
  return { count, seconds, dataDir, database: info.database };
}

// ---------------------------------------------------------------------------------------------
// Fake but plausible rows.

const CAMERAS = ['Canon EOS 5D Mark III', 'Apple iPhone 13', 'Google Pixel 7', 'SONY ILCE-7M3', 'OPPO R7plusf', 'KODAK PIXPRO FZ201', null];
const SIZES = [
  [5760, 3840], [3840, 5760], [4032, 3024], [3024, 4032], [4608, 3456], [3120, 4160], [4000, 3000], [1920, 1080],
];
const PLACES = [
  [48.8584, 2.2945], [40.6892, -74.0445], [51.5007, -0.1246], [35.6586, 139.7454], [-33.8568, 151.2153], [52.52, 13.405],
];

/** A handful of real ThumbHashes (gradients), so the web app could even render them. */
async function placeholders() {
  const { rgbaToThumbHash } = await import('thumbhash');
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
    out.push(Buffer.from(rgbaToThumbHash(w, h, rgba)).toString('base64'));
  }
  return out;
}

/** Who uploaded image i: the uploader account 3 in 10 (i ending in 1, 4 or 7), else the admin. */
const uploaderOf = (i, ids) => ([1, 4, 7].includes(i % 10) ? ids.uploader : ids.admin);

/** The admin's images in the restricted share: 300 (i ending in 2, so the admin's) spread over the library. */
function sharedImageIds(count) {
  const step = Math.max(10, Math.floor(count / SHARED_IMAGES / 10) * 10);
  const ids = [];
  for (let i = 2; i <= count && ids.length < SHARED_IMAGES; i += step) ids.push(i);
  return ids;
}

/** Rows in id order: media i and its image i, oldest first. */
async function* rows(count, ids) {
  const thumbs = await placeholders();
  const end = Date.UTC(2025, 0, 1);
  const span = 3 * 365 * 86_400_000; // three years of uploads, evenly spread
  for (let i = 1; i <= count; i += 1) {
    const hash = createHash('sha256').update(`bench-library-${i}`).digest('hex');
    const [width, height] = SIZES[i % SIZES.length];
    const created = new Date(end - span + Math.floor((span * i) / count));
    const taken = new Date(created.getTime() - ((i * 7919) % 30) * 86_400_000 - ((i * 104_729) % 86_400) * 1000);
    const place = i % 3 === 0 ? PLACES[i % PLACES.length] : null;
    const fileName = `IMG_${String(i).padStart(6, '0')}.jpg`;
    yield {
      media: {
        id: i,
        content_hash: hash,
        mime: 'image/jpeg',
        byte_size: 1_500_000 + ((i * 2_654_435_761) % 6_000_000),
        status: 'ready',
        width,
        height,
        placeholder: thumbs[i % thumbs.length],
        taken_at: taken.toISOString().slice(0, 19),
        camera: CAMERAS[i % CAMERAS.length],
        gps_latitude: place ? place[0] + (i % 100) / 10_000 : null,
        gps_longitude: place ? place[1] - (i % 100) / 10_000 : null,
        original_key: `originals/${hash}`,
        display_key: `derived/${hash}/display.webp`,
        thumbnail_key: `derived/${hash}/thumb.webp`,
        created_at: created.toISOString(),
        claimed_at: null,
      },
      image: {
        id: i,
        media_id: i,
        uploaded_by: uploaderOf(i, ids),
        file_name: fileName,
        image_name: fileName.slice(0, -4),
        ready: 1,
        created_at: created.toISOString(),
      },
    };
  }
}

/** The vocabulary and image-tag rows (column arrays: 500,000 row objects would be ~100 MB). */
function tagRows(count) {
  const names = vocabulary(VOCABULARY_SIZE);
  const cumulative = zipfCumulative(names.length);
  const usage = new Int32Array(names.length);
  const created = new Date(Date.UTC(2025, 0, 1)).toISOString();
  const imageTags = { image_id: [], tag_id: [] };
  for (let i = 1; i <= count; i += 1) {
    for (const t of tagsOfImage(i, names.length, cumulative)) {
      imageTags.image_id.push(i);
      imageTags.tag_id.push(t + 1);
      usage[t] += 1;
    }
  }
  const tags = names.map((name, t) => ({ id: t + 1, name, usage_count: usage[t], created_at: created }));
  return { tags, imageTags, created };
}

const MEDIA_COLUMNS = [
  'id', 'content_hash', 'mime', 'byte_size', 'status', 'width', 'height', 'placeholder', 'taken_at', 'camera', 'gps_latitude',
  'gps_longitude', 'original_key', 'display_key', 'thumbnail_key', 'created_at', 'claimed_at',
];
const IMAGE_COLUMNS = ['id', 'media_id', 'uploaded_by', 'file_name', 'image_name', 'ready', 'created_at'];

// ---------------------------------------------------------------------------------------------
// SQLite: prepared statements in one transaction.

async function insertSqlite({ dataDir, count }) {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dataDir, 'photos.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    const ids = accountIds((email) => db.prepare('SELECT id FROM users WHERE email = ?').get(email)?.id);
    const admin = { id: ids.admin };
    const insertMedia = db.prepare(`INSERT INTO media (${MEDIA_COLUMNS.join(', ')}) VALUES (${MEDIA_COLUMNS.map((c) => `@${c}`).join(', ')})`);
    const insertImage = db.prepare(`INSERT INTO images (${IMAGE_COLUMNS.join(', ')}) VALUES (${IMAGE_COLUMNS.map((c) => `@${c}`).join(', ')})`);
    const all = [];
    for await (const row of rows(count, ids)) all.push(row);
    const { tags, imageTags, created } = tagRows(count);
    const insertTag = db.prepare('INSERT INTO tags (id, name, usage_count, created_at) VALUES (@id, @name, @usage_count, @created_at)');
    const insertImageTag = db.prepare(`INSERT INTO image_tags (image_id, tag_id, tagged_by, kind, created_at) VALUES (?, ?, ?, 'tag', ?)`);
    db.transaction(() => {
      for (const { media, image } of all) {
        insertMedia.run(media);
        insertImage.run(image);
      }
      for (const tag of tags) insertTag.run(tag);
      for (let k = 0; k < imageTags.image_id.length; k += 1) insertImageTag.run(imageTags.image_id[k], imageTags.tag_id[k], admin.id, created);
      const insertRecord = db.prepare(
        'INSERT INTO access_records (owner_id, kind, receiver_email, active, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)',
      );
      const restricted = insertRecord.run(admin.id, 'restricted', LIBRARY_RESTRICTED.email, created, created).lastInsertRowid;
      const insertShared = db.prepare('INSERT INTO access_record_images (record_id, image_id, created_at) VALUES (?, ?, ?)');
      for (const id of sharedImageIds(count)) insertShared.run(restricted, id, created);
      insertRecord.run(admin.id, 'all', LIBRARY_ALL_ACCESS.email, created, created);
      if (db.prepare("SELECT 1 FROM pragma_table_info('users') WHERE name = 'email_confirmed_at'").get()) {
        const confirm = db.prepare('UPDATE users SET email_confirmed_at = created_at WHERE email = ?');
        for (const account of PLAIN_ACCOUNTS) confirm.run(account.email);
      }
    })();
    // The server never runs ANALYZE, so neither do we: the library looks like one grown by uploads.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: INSERT … SELECT FROM unnest($1::type[], …) in chunks, one transaction.

const PG_TYPES = {
  media: ['int', 'text', 'text', 'bigint', 'text', 'int', 'int', 'text', 'text', 'text', 'float8', 'float8', 'text', 'text', 'text', 'text', 'text'],
  images: ['int', 'int', 'int', 'text', 'text', 'int', 'text'],
};

async function insertPostgres({ postgres, count }) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: postgres });
  await client.connect();
  try {
    const { rows: users } = await client.query('SELECT id, email FROM users');
    const ids = accountIds((email) => users.find((u) => u.email === email)?.id);
    const admin = { id: ids.admin };
    const chunk = 10_000;
    const flush = async (table, columns, batch) => {
      const arrays = columns.map((c) => batch.map((r) => r[c]));
      const casts = PG_TYPES[table].map((t, k) => `$${k + 1}::${t}[]`).join(', ');
      await client.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${casts})`, arrays);
    };
    await client.query('BEGIN');
    let media = [];
    let images = [];
    for await (const row of rows(count, ids)) {
      media.push(row.media);
      images.push(row.image);
      if (media.length === chunk) {
        await flush('media', MEDIA_COLUMNS, media);
        await flush('images', IMAGE_COLUMNS, images);
        media = [];
        images = [];
      }
    }
    if (media.length) {
      await flush('media', MEDIA_COLUMNS, media);
      await flush('images', IMAGE_COLUMNS, images);
    }
    const { tags, imageTags, created } = tagRows(count);
    await client.query('INSERT INTO tags (id, name, usage_count, created_at) SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[])', [
      tags.map((t) => t.id), tags.map((t) => t.name), tags.map((t) => t.usage_count), tags.map((t) => t.created_at),
    ]);
    for (let k = 0; k < imageTags.image_id.length; k += 100_000) {
      const ids = imageTags.image_id.slice(k, k + 100_000);
      await client.query(
        `INSERT INTO image_tags (image_id, tag_id, tagged_by, kind, created_at) SELECT i, t, $3::int, 'tag', $4::text FROM unnest($1::int[], $2::int[]) AS u(i, t)`,
        [ids, imageTags.tag_id.slice(k, k + 100_000), admin.id, created],
      );
    }
    for (const table of ['media', 'images', 'tags']) {
      await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    const insertRecord = (kind, email) =>
      client.query(
        'INSERT INTO access_records (owner_id, kind, receiver_email, active, created_at, updated_at) VALUES ($1, $2, $3, 1, $4, $4) RETURNING id',
        [admin.id, kind, email, created],
      );
    const restricted = (await insertRecord('restricted', LIBRARY_RESTRICTED.email)).rows[0].id;
    await client.query('INSERT INTO access_record_images (record_id, image_id, created_at) SELECT $1, i, $3 FROM unnest($2::int[]) AS u(i)', [
      restricted, sharedImageIds(count), created,
    ]);
    await insertRecord('all', LIBRARY_ALL_ACCESS.email);
    const confirmable = await client.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'email_confirmed_at'");
    if (confirmable.rowCount > 0) {
      await client.query('UPDATE users SET email_confirmed_at = created_at WHERE email = ANY($1::text[])', [PLAIN_ACCOUNTS.map((a) => a.email)]);
    }
    await client.query('COMMIT');
    // What autovacuum would have done by the time a real library is this big: statistics for the
    // planner and the visibility map for index-only scans.
    await client.query('VACUUM ANALYZE media');
    await client.query('VACUUM ANALYZE images');
    await client.query('VACUUM ANALYZE tags');
    await client.query('VACUUM ANALYZE image_tags');
    await client.query('VACUUM ANALYZE access_records');
    await client.query('VACUUM ANALYZE access_record_images');
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
