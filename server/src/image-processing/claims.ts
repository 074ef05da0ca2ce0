import type { MediaRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import type { ClaimTerms, MediaClaimsRepository } from './media-claims.repository.js';
import { isDeadOnThisHost, newOwnerToken } from './claim-owner.js';

/** How often a process confirms, per row, that it is still working on what it claimed. */
export const HEARTBEAT_MS = 5_000;
/** A claim whose heartbeat is older than this (three missed beats) belongs to a process that died. */
export const CLAIM_STALE_MS = 3 * HEARTBEAT_MS;

export type Claimed<T> = { claimed: true; value: T } | { claimed: false };

/**
 * Who works on which media row (decision record: "processing claims").
 *
 * A pending or deleting row is held by one process: `media.claimed_by` names it (claim-owner.ts),
 * `media.claimed_at` is its heartbeat, refreshed every HEARTBEAT_MS for each row it is working on.
 * Another process takes a row over only when the heartbeat is CLAIM_STALE_MS old or the owner is
 * known to be dead (same machine, pid gone): a live process's work is never taken, and a dead one's
 * is taken up within seconds — at once by a restart on the same machine, or by a re-upload.
 * A row a live process holds but stopped working on (an error it gave up on, a bug) simply stops
 * being refreshed, so it is taken over like a dead process's.
 *
 * In this process, `working` holds the work on each row, so two requests here never both take the
 * same row, and a request can wait for this process's own work directly instead of polling.
 */
export class Claims {
  readonly owner = newOwnerToken();
  private readonly working = new Map<number, Promise<unknown>>();

  constructor(private readonly deps: { claims: MediaClaimsRepository; clock: Clock }) {}

  terms(): ClaimTerms {
    const now = this.deps.clock.now();
    return { owner: this.owner, now: now.toISOString(), staleBefore: new Date(now.getTime() - CLAIM_STALE_MS).toISOString() };
  }

  /** Runs `work` on a row this process already holds (it has just created it), as this process's work on it. */
  hold<T>(mediaId: number, work: () => Promise<T>): Promise<T> {
    const running = work().finally(() => {
      if (this.working.get(mediaId) === running) this.working.delete(mediaId);
    });
    this.working.set(mediaId, running);
    return running;
  }

  /** This process's work on the row, if any (settles when it ends, either way). */
  ongoing(mediaId: number): Promise<unknown> | undefined {
    return this.working.get(mediaId)?.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Takes the row over and runs `work` on it, if nobody works on it: it is unclaimed, its heartbeat
   * is stale, or its owner is dead. `{ claimed: false }` when someone (here or elsewhere) is on it.
   */
  async claimAndRun<T>(row: MediaRow, work: () => Promise<T>): Promise<Claimed<T>> {
    const terms = this.terms();
    if (this.working.has(row.id) || !isFree(row, terms)) return { claimed: false };
    const dead = isDeadOnThisHost(row.claimed_by) ? (row.claimed_by ?? undefined) : undefined;
    return this.hold(row.id, async (): Promise<Claimed<T>> => {
      if (!(await this.deps.claims.claim(row, terms, dead))) return { claimed: false };
      return { claimed: true, value: await work() };
    });
  }

  /** `claimAndRun` for many 'deleting' rows at once: `work` gets those taken. */
  async claimDeletingAndRun(rows: readonly MediaRow[], work: (taken: MediaRow[]) => Promise<void>): Promise<void> {
    const terms = this.terms();
    const free = rows.filter((row) => !this.working.has(row.id) && isFree(row, terms));
    if (free.length === 0) return;
    const dead = [...new Set(free.flatMap((row) => (row.claimed_by && isDeadOnThisHost(row.claimed_by) ? [row.claimed_by] : [])))];
    const running = (async () => {
      const taken = new Set(await this.deps.claims.claimDeleting(free.map((row) => row.id), terms, dead));
      await work(free.filter((row) => taken.has(row.id)));
    })();
    for (const row of free) this.working.set(row.id, running);
    try {
      await running;
    } finally {
      for (const row of free) if (this.working.get(row.id) === running) this.working.delete(row.id);
    }
  }

  /** Owners of pending and deleting rows that are certainly gone (processes of this machine). */
  async deadOwners(): Promise<string[]> {
    return (await this.deps.claims.claimOwners()).filter((owner) => owner !== this.owner && isDeadOnThisHost(owner));
  }

  /** The heartbeat of every row this process is working on. */
  async beat(): Promise<void> {
    if (this.working.size === 0) return;
    await this.deps.claims.refreshClaims(this.owner, [...this.working.keys()], this.deps.clock.now().toISOString());
  }

  /** Settles once this process works on nothing. */
  async idle(): Promise<void> {
    while (this.working.size > 0) await Promise.allSettled([...this.working.values()]);
  }

  /** Lets other processes take over at once whatever this one still holds (at shutdown). */
  release(): Promise<void> {
    return this.deps.claims.releaseClaims(this.owner);
  }

  isWorkingOn(mediaId: number): boolean {
    return this.working.has(mediaId);
  }
}

/** Nobody works on the row: unclaimed, its heartbeat stale, or its owner known to be dead. */
function isFree(row: MediaRow, terms: ClaimTerms): boolean {
  return row.claimed_at === null || row.claimed_at < terms.staleBefore || isDeadOnThisHost(row.claimed_by);
}
