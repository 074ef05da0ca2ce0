import { setTimeout as sleep } from 'node:timers/promises';
import type { Lock, Locker, RequestRelease } from '@tus/server';
import { isDeadOnThisHost } from '../image-processing/claim-owner.js';
import type { Clock } from '../shared/clock.js';
import type { UploadLocksRepository } from './upload-locks.repository.js';

export interface UploadLockTiming {
  /** How long a lock stays held without a renewal: the longest a dead process elsewhere blocks an upload. */
  leaseMs: number;
  /** How often a holder renews its lease and looks for a release asked from another process. */
  renewMs: number;
  /** How often a waiting request tries again. */
  pollMs: number;
  /** How long a request waits for the lock before tus answers it with its lock timeout. */
  timeoutMs: number;
}

/** tus's own lock timeout is 30 s; another process's request is asked to stop within `renewMs`. */
export const UPLOAD_LOCK_TIMING: UploadLockTiming = { leaseMs: 15_000, renewMs: 1_000, pollMs: 100, timeoutMs: 30_000 };

export interface UploadLockerDeps {
  /** Turn-taking inside this process (tus's MemoryLocker): a release asked here reaches the holder at once. */
  local: Locker;
  locks: UploadLocksRepository;
  /** This process's owner token (claim-owner.ts). */
  owner: string;
  clock: Clock;
  /** What tus answers when the lock cannot be had in time (its ERRORS.ERR_LOCK_TIMEOUT). */
  timeoutError: unknown;
  timing?: UploadLockTiming;
}

/**
 * tus's lock on an upload, held across every process of the app (decision 0010). A client sends one
 * request per upload at a time, but after a dropped connection its retry may reach another process
 * while the first still reads the old request; both would then write the upload's bytes. Here the
 * retry waits: it takes this process's lock (tus's MemoryLocker), then a lease in the database
 * (`upload_locks`), asking the holder to stop — at once in this process, through the row elsewhere
 * (the holder reads it as it renews its lease) — and takes over a dead process's lease at once when
 * that process ran on this machine, else once the lease runs out.
 */
export class UploadLocker implements Locker {
  private readonly deps: UploadLockerDeps & { timing: UploadLockTiming };

  constructor(deps: UploadLockerDeps) {
    this.deps = { ...deps, timing: deps.timing ?? UPLOAD_LOCK_TIMING };
  }

  newLock(id: string): Lock {
    return new UploadLock(id, this.deps);
  }
}

class UploadLock implements Lock {
  private readonly local: Lock;
  private renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly id: string,
    private readonly deps: UploadLockerDeps & { timing: UploadLockTiming },
  ) {
    this.local = deps.local.newLock(id);
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.local.lock(signal, requestRelease);
    try {
      await this.takeShared(signal);
    } catch (error) {
      await this.local.unlock();
      throw error;
    }
    this.keepLease(requestRelease);
  }

  async unlock(): Promise<void> {
    clearInterval(this.renewal);
    // tus unlocks after the request's work is done (bytes stored, answer decided): a release the
    // database refuses must not turn that into an error. The row is then left to its lease; a request
    // of this process takes it over at once (its own token), one elsewhere when the lease runs out.
    await this.deps.locks.release(this.id, this.deps.owner).catch(() => undefined);
    await this.local.unlock();
  }

  private async takeShared(signal: AbortSignal): Promise<void> {
    const { locks, owner, timing } = this.deps;
    const deadline = Date.now() + timing.timeoutMs;
    let orphanOf: string | undefined;
    for (;;) {
      if (await locks.take(this.id, owner, { ...this.lease(), orphanOf })) return;
      const holder = await locks.askRelease(this.id);
      // Our own token with this process's lock free: a release that failed earlier. A dead process
      // of this machine: gone for certain. Either way nobody will let go, so the lease is taken over.
      const orphan = holder !== undefined && (holder === owner || isDeadOnThisHost(holder)) ? holder : undefined;
      if (orphan !== undefined && orphan !== orphanOf) {
        orphanOf = orphan;
        continue;
      }
      if (signal.aborted || Date.now() >= deadline) throw this.deps.timeoutError;
      await sleep(timing.pollMs);
    }
  }

  /** Renews the lease while the request lasts; asks the request to stop when another process wants the upload. */
  private keepLease(requestRelease: RequestRelease): void {
    let released = false;
    const renew = async () => {
      const state = await this.deps.locks.renew(this.id, this.deps.owner, this.lease().until);
      // Lost (the lease ran out while this process stalled, and someone took it): stop as well.
      if (!released && (state === undefined || state.releaseAsked)) {
        released = true;
        await requestRelease();
      }
    };
    // A failed renewal (the database briefly away) is tried again at the next tick; the lease outlasts a few.
    this.renewal = setInterval(() => void renew().catch(() => undefined), this.deps.timing.renewMs);
    this.renewal.unref();
  }

  private lease(): { now: string; until: string } {
    const now = this.deps.clock.now();
    return { now: now.toISOString(), until: new Date(now.getTime() + this.deps.timing.leaseMs).toISOString() };
  }
}
