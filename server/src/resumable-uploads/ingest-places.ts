import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../http/errors.js';
import type { FileSlot, UploadCapacity, UploadTicket } from '../ingest/upload-capacity.js';

/** How often a finished upload asks again for a place when the person or the server is at the limit. */
const RETRY_MS = 250;

interface PersonEntry {
  ticket: Promise<UploadTicket>;
  users: number;
}

/**
 * The multipart path's limits (UploadCapacity), applied to finished tus uploads: a person's
 * finished uploads being ingested together count as one upload request of theirs — admitted like a
 * multipart request (at most MAX_UPLOADS_PER_PERSON at once, with their multipart ones) and holding
 * at most its per-request share of files in processing — and all count toward the server's total.
 * The bytes are all in by then, so where a multipart request would be answered 429 or 503 a finished
 * upload waits for its place instead: the final PATCH is answered later, nothing is sent again.
 */
export class IngestPlaces {
  private readonly byPerson = new Map<number, PersonEntry>();

  constructor(
    private readonly capacity: UploadCapacity,
    private readonly signal: AbortSignal,
  ) {}

  /** Waits for a place to ingest one file of `userId`; release it once the outcome is known. */
  async take(userId: number): Promise<FileSlot> {
    let entry = this.byPerson.get(userId);
    if (!entry) {
      entry = { ticket: this.admit(userId), users: 0 };
      this.byPerson.set(userId, entry);
    }
    entry.users += 1;
    const person = entry;
    let slot: FileSlot;
    try {
      slot = await (await person.ticket).slot(this.signal);
    } catch (error) {
      this.leave(userId, person);
      throw error;
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        slot.release();
        this.leave(userId, person);
      },
    };
  }

  private leave(userId: number, entry: PersonEntry): void {
    entry.users -= 1;
    if (entry.users > 0) return;
    if (this.byPerson.get(userId) === entry) this.byPerson.delete(userId);
    entry.ticket.then(
      (ticket) => ticket.finish(),
      () => undefined,
    );
  }

  private async admit(userId: number): Promise<UploadTicket> {
    for (;;) {
      try {
        return this.capacity.admit(userId);
      } catch (error) {
        if (!(error instanceof AppError) || (error.statusCode !== 429 && error.statusCode !== 503)) throw error;
      }
      await sleep(RETRY_MS, undefined, { signal: this.signal });
    }
  }
}
