import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { processIsRunning } from '../shared/process-alive.js';

const PARTIAL = /\.(\d+)\.(\d+)\.partial$/;
const PROCESS_STARTED = performance.timeOrigin;

/**
 * Removes the `<key>.<pid>.<ms>.partial` files LocalStorage writes before renaming them into place
 * (local-storage.ts), when the process that wrote one is certainly gone: its pid is not running,
 * or it is our own pid from before this process started. A killed process leaves them behind; a
 * live writer's are never touched. Local storage is one machine's disk, so the pid check is sound.
 */
export async function removeAbandonedPartials(root: string): Promise<number> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    const match = entry.isFile() ? PARTIAL.exec(entry.name) : null;
    if (!match) continue;
    const pid = Number(match[1]);
    const writtenAt = Number(match[2]);
    const gone = pid === process.pid ? writtenAt < PROCESS_STARTED : !processIsRunning(pid);
    if (!gone) continue;
    await rm(path.join(entry.parentPath, entry.name), { force: true });
    removed += 1;
  }
  return removed;
}
