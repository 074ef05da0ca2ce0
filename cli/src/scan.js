// @ts-check
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { HEAD_BYTES, imageTypeOf } from './image-type.js';

/**
 * @typedef {object} LocalFile
 * @property {string} path absolute
 * @property {string} relative to the imported folder, for messages
 * @property {number} size
 * @property {number} mtimeMs
 * @property {string} type MIME type from the first bytes
 * @property {string} sha256
 */

/**
 * @typedef {object} Skipped
 * @property {string} relative
 * @property {string} reason
 */

/**
 * Every regular file under `root`, depth first, in name order; hidden files and folders (".…")
 * and symbolic links are left out.
 * @param {string} root
 * @returns {AsyncGenerator<string>}
 */
export async function* walk(root) {
  const entries = (await readdir(root, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * The images under `root`, each hashed (SHA-256, streamed), and what was skipped and why.
 * `cached` gives a hash already known for a path with the same size and time, so a second run
 * does not read every file again.
 * @param {string} root
 * @param {{ cached: (file: string, size: number, mtimeMs: number) => string | undefined, onFile?: (done: number) => void }} options
 * @returns {Promise<{ images: LocalFile[], skipped: Skipped[] }>}
 */
export async function scan(root, options) {
  /** @type {LocalFile[]} */
  const images = [];
  /** @type {Skipped[]} */
  const skipped = [];
  for await (const file of walk(root)) {
    const relative = path.relative(root, file);
    try {
      const info = await stat(file);
      if (info.size === 0) {
        skipped.push({ relative, reason: 'empty file' });
        continue;
      }
      const type = imageTypeOf(await readHead(file));
      if (!type) {
        skipped.push({ relative, reason: 'not an image' });
        continue;
      }
      const sha256 = options.cached(file, info.size, info.mtimeMs) ?? (await hashFile(file));
      images.push({ path: file, relative, size: info.size, mtimeMs: info.mtimeMs, type, sha256 });
    } catch (error) {
      // Unreadable (permissions, gone meanwhile): said in the summary, the rest goes on.
      skipped.push({ relative, reason: `cannot be read (${error instanceof Error ? error.message : String(error)})` });
    }
    options.onFile?.(images.length + skipped.length);
  }
  return { images, skipped };
}

/** @param {string} file */
async function readHead(file) {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** @param {string} file */
export async function hashFile(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk);
  return hash.digest('hex');
}
