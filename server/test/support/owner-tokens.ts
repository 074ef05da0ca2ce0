import { newOwnerToken } from '../../src/image-processing/claim-owner.js';
import { processIsRunning } from '../../src/shared/process-alive.js';

/** An owner token of this machine whose process is gone (claims and locks it holds are orphans). */
export function deadOwnerToken(): string {
  const parts = newOwnerToken().split('|');
  let pid = 4_000_000;
  while (processIsRunning(pid)) pid += 1;
  parts[1] = String(pid);
  return parts.join('|');
}
