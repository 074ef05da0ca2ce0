import { AppError, tooManyRequests } from '../http/errors.js';
import {
  FILES_IN_FLIGHT_PER_REQUEST_PER_WORKER,
  FILES_IN_FLIGHT_PER_WORKER,
  MAX_UPLOADS_PER_PERSON,
  UPLOAD_BUSY_STREAK_MS,
  UPLOAD_BUSY_TURN_MS,
  UPLOAD_ONE_AT_A_TIME_TURN_MS,
  UPLOAD_RETRY_AFTER_SECONDS,
} from '../images/limits.js';

/** One received file's place in DATA_DIR/tmp, from its first byte until its outcome is known. */
export interface FileSlot {
  release(): void;
}

/** What admission reads of the event loop's turns (http/turn-length.ts: TurnLength). */
export interface TurnReadings {
  medianMs(): number;
  streakMs(): number;
}

const IDLE_TURNS: TurnReadings = { medianMs: () => 0, streakMs: () => 0 };

interface Waiter {
  upload: UploadTicket;
  grant: (slot: FileSlot) => void;
}

/**
 * Who may start an upload, and how many received files uploads may hold at once. Each file holds a
 * slot from its first byte until its outcome is known (its temporary file is gone by then), so
 * DATA_DIR/tmp holds at most `perRequest` files of one request and `total` files altogether. An
 * upload waiting for a slot stops reading its body, which holds the client back over TCP: back-
 * pressure from the processing pool to the sender. A new upload is refused (429 for a person with
 * too many running, 503 when every slot is taken) rather than left waiting behind the others.
 * Also 503 while the event loop's turns are long (UPLOAD_BUSY_TURN_MS, UPLOAD_BUSY_STREAK_MS):
 * under a crowd an upload let in would wait a turn at each of its I/O steps, seconds in all, and
 * its processing would slow the people browsing (decision 0024). While turns are shorter than
 * that but still long (UPLOAD_ONE_AT_A_TIME_TURN_MS: a crowd being served), one upload at a time
 * (decision 0044). Counted in this process's memory: with several processes, each has its own limits.
 */
export class UploadCapacity {
  private readonly uploadsByPerson = new Map<number, number>();
  private readonly waiting: Waiter[] = [];
  private inFlight = 0;

  /** `turns`: how long turns of the event loop take now (http/turn-length.ts). */
  constructor(
    readonly perRequest: number,
    readonly total: number,
    private readonly turns: TurnReadings = IDLE_TURNS,
  ) {}

  /** The limits for a pool of `workers` image workers (IMAGE_WORKERS). */
  static forWorkers(workers: number, turns?: TurnReadings): UploadCapacity {
    return new UploadCapacity(FILES_IN_FLIGHT_PER_REQUEST_PER_WORKER * workers, FILES_IN_FLIGHT_PER_WORKER * workers, turns);
  }

  /** Files held right now, across all uploads. */
  get filesInFlight(): number {
    return this.inFlight;
  }

  /** Starts one upload request of `userId`, or refuses it with 429 or 503 (and Retry-After). */
  admit(userId: number): UploadTicket {
    const running = this.uploadsByPerson.get(userId) ?? 0;
    if (running >= MAX_UPLOADS_PER_PERSON) {
      throw tooManyRequests(
        `You already have ${running} uploads in progress; please wait for one to finish before sending more.`,
        UPLOAD_RETRY_AFTER_SECONDS,
      );
    }
    if (this.tooBusyForAnother()) {
      throw new AppError(503, 'The server is busy serving other people right now; please try again in a few seconds.', {
        'retry-after': String(UPLOAD_RETRY_AFTER_SECONDS),
      });
    }
    if (this.inFlight >= this.total) {
      throw new AppError(503, 'The server is busy with other uploads; please try again in a few seconds.', {
        'retry-after': String(UPLOAD_RETRY_AFTER_SECONDS),
      });
    }
    this.uploadsByPerson.set(userId, running + 1);
    return new UploadTicket(this, userId);
  }

  /**
   * Whether turns of the event loop are long enough that another upload would slow the people
   * browsing: very long, none (decision 0024); long, one at a time (decision 0044).
   */
  private tooBusyForAnother(): boolean {
    const turnMs = this.turns.medianMs();
    if (turnMs >= UPLOAD_BUSY_TURN_MS || this.turns.streakMs() >= UPLOAD_BUSY_STREAK_MS) return true;
    // Anyone's upload running: a person's entry goes with their last one (finish).
    return turnMs >= UPLOAD_ONE_AT_A_TIME_TURN_MS && this.uploadsByPerson.size > 0;
  }

  /** @internal The next file of `upload` may start once it holds fewer than `perRequest` and there is room overall. */
  acquire(upload: UploadTicket, signal: AbortSignal): Promise<FileSlot> {
    signal.throwIfAborted();
    return new Promise<FileSlot>((resolve, reject) => {
      const waiter: Waiter = {
        upload,
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.grantWaiting();
    });
  }

  /** @internal */
  finish(userId: number): void {
    const running = (this.uploadsByPerson.get(userId) ?? 1) - 1;
    if (running > 0) this.uploadsByPerson.set(userId, running);
    else this.uploadsByPerson.delete(userId);
  }

  /** Grants slots in arrival order to every waiting upload that has room of its own, while there is room overall. */
  private grantWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.inFlight < this.total; ) {
      const waiter = this.waiting[i] as Waiter;
      if (waiter.upload.held >= this.perRequest) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      waiter.grant(this.take(waiter.upload));
    }
  }

  private take(upload: UploadTicket): FileSlot {
    this.inFlight += 1;
    upload.held += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        upload.held -= 1;
        this.grantWaiting();
      },
    };
  }
}

/** One admitted upload request: asks for a slot per file, and is finished exactly once. */
export class UploadTicket {
  /** @internal Slots this upload holds now. */
  held = 0;
  private finished = false;

  constructor(
    private readonly capacity: UploadCapacity,
    private readonly userId: number,
  ) {}

  /** Waits until this upload may hold one more received file (rejects with the signal's reason if it aborts first). */
  slot(signal: AbortSignal): Promise<FileSlot> {
    return this.capacity.acquire(this, signal);
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.capacity.finish(this.userId);
  }
}
