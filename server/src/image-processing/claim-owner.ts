import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { processIsRunning } from '../shared/process-alive.js';

/**
 * Names the process that claims work (`media.claimed_by`), so that a process starting on the same
 * machine can tell at once that the owner of a claim is dead instead of waiting for its heartbeat to
 * go stale. A token is `host|pid|process start|random`: the host is the host name plus the kernel's
 * boot id (a host name alone repeats across machines and reboots; the boot id changes with each
 * boot), the random part tells apart several servers built in one process (tests).
 */
const HOST = `${os.hostname()}~${bootId()}`;
const PROCESS_STARTED = Math.round(performance.timeOrigin);

export function newOwnerToken(): string {
  return [HOST, process.pid, PROCESS_STARTED, randomBytes(4).toString('hex')].join('|');
}

/**
 * True only when `token` names a process of this machine that is certainly gone: its pid is not
 * running, or it is our own pid from before this process started (a container restarted, pid 1
 * again). Anything else — another machine, a pid that exists (perhaps reused) — is left to the
 * heartbeat, so a live process's work is never taken from it on a guess.
 */
export function isDeadOnThisHost(token: string | null): boolean {
  const parts = token?.split('|');
  if (parts?.length !== 4 || parts[0] !== HOST) return false;
  const pid = Number(parts[1]);
  const started = Number(parts[2]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return started < PROCESS_STARTED;
  return !processIsRunning(pid);
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8);
  } catch {
    return 'no-boot-id';
  }
}
