// @ts-check
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * @typedef {object} StateData
 * @property {1} version
 * @property {string} server
 * @property {string} account
 * @property {Record<string, { size: number, mtimeMs: number, sha256: string }>} hashes by absolute path
 * @property {Record<string, { url: string, size: number }>} uploads unfinished uploads by content (SHA-256)
 * @property {Record<string, { fileName: string, reason: string }>} refused by content
 */

/**
 * What an import remembers between runs, per server and account: the upload URL of every file
 * begun (so a new run resumes it from the server's offset), the hashes of files already read,
 * and what the server refused. Written atomically, soon after each change and at exit.
 */
export class ImportState {
  /**
   * @param {string} file
   * @param {StateData} data
   */
  constructor(file, data) {
    this.file = file;
    this.data = data;
    /** @type {NodeJS.Timeout | undefined} */
    this.timer = undefined;
    /** @type {Promise<void>} */
    this.writing = Promise.resolve();
  }

  /**
   * The default place: $XDG_CONFIG_HOME (or ~/.config)/photo-library/state-<server+account>.json.
   * @param {string} server
   * @param {string} account
   * @param {NodeJS.ProcessEnv} env
   */
  static defaultFile(server, account, env) {
    const base = env['XDG_CONFIG_HOME'] || path.join(os.homedir(), '.config');
    const key = createHash('sha256').update(`${server}\n${account}`).digest('hex').slice(0, 16);
    return path.join(base, 'photo-library', `state-${key}.json`);
  }

  /**
   * @param {string} file
   * @param {string} server
   * @param {string} account
   */
  static async load(file, server, account) {
    /** @type {StateData} */
    const fresh = { version: 1, server, account, hashes: {}, uploads: {}, refused: {} };
    try {
      const data = JSON.parse(await readFile(file, 'utf8'));
      if (data?.version === 1 && data.server === server && data.account === account) return new ImportState(file, { ...fresh, ...data });
    } catch {
      // none yet, or unreadable: start afresh
    }
    return new ImportState(file, fresh);
  }

  /**
   * @param {string} file
   * @param {number} size
   * @param {number} mtimeMs
   */
  cachedHash(file, size, mtimeMs) {
    const known = this.data.hashes[file];
    return known && known.size === size && known.mtimeMs === mtimeMs ? known.sha256 : undefined;
  }

  /** @param {{ path: string, size: number, mtimeMs: number, sha256: string }} file */
  rememberHash(file) {
    this.data.hashes[file.path] = { size: file.size, mtimeMs: file.mtimeMs, sha256: file.sha256 };
    this.changed();
  }

  /** @param {string} sha256 */
  uploadUrl(sha256) {
    return this.data.uploads[sha256]?.url;
  }

  /**
   * @param {string} sha256
   * @param {string} url
   * @param {number} size
   */
  setUploadUrl(sha256, url, size) {
    this.data.uploads[sha256] = { url, size };
    this.changed(50);
  }

  /** @param {string} sha256 */
  uploadDone(sha256) {
    delete this.data.uploads[sha256];
    this.changed();
  }

  /** @param {string} sha256 */
  refusedBefore(sha256) {
    return this.data.refused[sha256];
  }

  /**
   * @param {string} sha256
   * @param {string} fileName
   * @param {string} reason
   */
  setRefused(sha256, fileName, reason) {
    this.data.refused[sha256] = { fileName, reason };
    this.changed();
  }

  /** @param {number} [delayMs] */
  changed(delayMs = 500) {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delayMs);
  }

  /** Writes now (waiting for a write under way first). */
  async flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = this.writing.catch(() => undefined).then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(this.data));
      await rename(temp, this.file);
    });
    return this.writing;
  }
}
