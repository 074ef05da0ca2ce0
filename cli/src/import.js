// @ts-check
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Api, accountOf } from './api.js';
import { ask, askHidden } from './prompt.js';
import { Progress, formatBytes } from './progress.js';
import { scan } from './scan.js';
import { ImportState } from './state.js';
import { Refusal, uploadFile } from './uploader.js';

/** @typedef {import('./args.js').ImportOptions} ImportOptions */
/** @typedef {import('./scan.js').LocalFile} LocalFile */

/**
 * @typedef {object} Summary
 * @property {string} folder
 * @property {string} server
 * @property {boolean} dryRun
 * @property {boolean} interrupted
 * @property {{ file: string, imageId: string | undefined }[]} uploaded
 * @property {{ file: string, why: string, imageId?: string | undefined }[]} duplicates
 * @property {{ file: string, reason: string }[]} refused
 * @property {{ file: string, reason: string }[]} skipped
 * @property {{ file: string, error: string }[]} failed
 * @property {string[]} unfinished files not uploaded because the run was stopped
 * @property {{ toUpload: number, sent: number, alreadyOnServer: number }} bytes
 */

/**
 * `photo-library import`: signs in, finds the images under the folder, asks the server which
 * contents it already has, and uploads the rest (N at a time, resumable), then says what happened.
 * @param {ImportOptions} options
 * @param {{ env: NodeJS.ProcessEnv, signal: AbortSignal, log: (line: string) => void }} io
 * @returns {Promise<Summary>}
 */
export async function runImport(options, io) {
  const folder = path.resolve(options.folder);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`${options.folder} is not a folder.`);

  const api = new Api(options.server, options.token);
  if (!options.token) {
    const email = options.email ?? (await ask('E-mail: '));
    const password = io.env['PHOTO_PASSWORD'] ?? (await askHidden('Password: '));
    await api.signIn(email, password);
  }
  const token = /** @type {string} */ (api.token);
  const account = accountOf(token);
  const state = await ImportState.load(options.state ?? ImportState.defaultFile(options.server, account, io.env), options.server, account);

  /** @type {Summary} */
  const summary = {
    folder, server: options.server, dryRun: options.dryRun, interrupted: false,
    uploaded: [], duplicates: [], refused: [], skipped: [], failed: [], unfinished: [],
    bytes: { toUpload: 0, sent: 0, alreadyOnServer: 0 },
  };

  io.log(`Looking for photos in ${folder} …`);
  const { images, skipped } = await scan(folder, { cached: (file, size, mtimeMs) => state.cachedHash(file, size, mtimeMs) });
  summary.skipped = skipped.map(({ relative, reason }) => ({ file: relative, reason }));
  if (!options.dryRun) for (const image of images) state.rememberHash(image);

  // One upload per content: a second copy in the folder is the same photo.
  /** @type {Map<string, LocalFile>} */
  const distinct = new Map();
  for (const image of images) {
    const first = distinct.get(image.sha256);
    if (first) summary.duplicates.push({ file: image.relative, why: `same as ${first.relative}` });
    else distinct.set(image.sha256, image);
  }
  const known = await api.known([...distinct.values()].map(({ sha256, size }) => ({ sha256, size })));
  /** @type {LocalFile[]} */
  const toUpload = [];
  for (const image of distinct.values()) {
    const imageId = known.get(image.sha256);
    const refusedBefore = state.refusedBefore(image.sha256);
    if (imageId) summary.duplicates.push({ file: image.relative, why: 'already in your library', imageId });
    else if (refusedBefore && !options.retryRefused) summary.refused.push({ file: image.relative, reason: `${refusedBefore.reason} (in an earlier run)` });
    else toUpload.push(image);
  }
  summary.bytes.toUpload = toUpload.reduce((sum, f) => sum + f.size, 0);
  io.log(
    `${images.length} photos found (${skipped.length} other files skipped): ` +
      `${toUpload.length} to upload (${formatBytes(summary.bytes.toUpload)}), ${summary.duplicates.length} already there.`,
  );
  if (options.dryRun) {
    summary.unfinished = toUpload.map((f) => f.relative);
    return summary;
  }

  const progress = new Progress({ totalFiles: toUpload.length, totalBytes: summary.bytes.toUpload });
  const queue = [...toUpload];
  const stop = new AbortController();
  const onAbort = () => stop.abort(io.signal.reason);
  io.signal.addEventListener('abort', onAbort, { once: true });
  const worker = async () => {
    for (let file = queue.shift(); file && !stop.signal.aborted; file = queue.shift()) {
      await uploadOne(file);
    }
  };
  /** @param {LocalFile} file */
  const uploadOne = async (file) => {
    try {
      const { outcome, sentBytes, resumedFrom } = await uploadFile({
        file, server: options.server, token, state, api, signal: stop.signal, onProgress: (delta) => progress.advance(delta),
      });
      summary.bytes.sent += sentBytes;
      summary.bytes.alreadyOnServer += resumedFrom;
      if (outcome.status === 'kept') summary.uploaded.push({ file: file.relative, imageId: outcome.imageId });
      else if (outcome.status === 'duplicate') summary.duplicates.push({ file: file.relative, why: 'already in your library', imageId: outcome.imageId });
      else {
        summary.refused.push({ file: file.relative, reason: outcome.reason ?? 'refused' });
        state.setRefused(file.sha256, outcome.fileName, outcome.reason ?? 'refused');
      }
      progress.fileDone(`${file.relative}: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`);
    } catch (error) {
      if (stop.signal.aborted) {
        summary.unfinished.push(file.relative);
        return;
      }
      if (error instanceof Refusal && error.status === 401) {
        stop.abort(error);
        summary.failed.push({ file: file.relative, error: 'The session ended; sign in again.' });
        return;
      }
      if (error instanceof Refusal) summary.refused.push({ file: file.relative, reason: error.message });
      else summary.failed.push({ file: file.relative, error: error instanceof Error ? error.message : String(error) });
      progress.fileDone(`${file.relative}: ${error instanceof Refusal ? 'refused' : 'failed'} (${error instanceof Error ? error.message : String(error)})`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.parallel, Math.max(1, toUpload.length)) }, worker));
  } finally {
    io.signal.removeEventListener('abort', onAbort);
    progress.finish();
    summary.interrupted = io.signal.aborted;
    summary.unfinished.push(...queue.map((f) => f.relative));
    await state.flush();
  }
  return summary;
}

/**
 * The summary as a person reads it.
 * @param {Summary} summary
 * @returns {string}
 */
export function describe(summary) {
  const lines = [];
  const list = (/** @type {string[]} */ items, max = 20) => [
    ...items.slice(0, max).map((item) => `      ${item}`),
    ...(items.length > max ? [`      … and ${items.length - max} more`] : []),
  ];
  if (summary.dryRun) {
    lines.push(`Dry run: nothing was sent. From ${summary.folder}:`);
    lines.push(`  would upload  ${summary.unfinished.length} (${formatBytes(summary.bytes.toUpload)})`, ...list(summary.unfinished));
  } else {
    lines.push(summary.interrupted ? `Stopped. From ${summary.folder}:` : `Done. From ${summary.folder}:`);
    const resumed = summary.bytes.alreadyOnServer > 0 ? `, ${formatBytes(summary.bytes.alreadyOnServer)} were already on the server` : '';
    lines.push(`  uploaded    ${summary.uploaded.length} (${formatBytes(summary.bytes.sent)} sent${resumed})`);
  }
  lines.push(`  duplicates  ${summary.duplicates.length} (already in your library, or the same photo twice)`);
  lines.push(`  refused     ${summary.refused.length}`, ...list(summary.refused.map((r) => `${r.file}: ${r.reason}`), 50));
  lines.push(`  skipped     ${summary.skipped.length} (not images)`, ...list(summary.skipped.map((s) => `${s.file}: ${s.reason}`), 10));
  if (summary.failed.length > 0) lines.push(`  failed      ${summary.failed.length}`, ...list(summary.failed.map((f) => `${f.file}: ${f.error}`)));
  if (!summary.dryRun && summary.unfinished.length > 0) {
    lines.push(`  not finished ${summary.unfinished.length}: run the same command again to continue where it stopped.`);
  }
  return lines.join('\n');
}
