/** How often a turn is measured: ten timer wake-ups a second, nothing to speak of on an idle server. */
export const TURN_SAMPLE_MS = 100;
/** Turns the verdict is taken over: the last ~0.8 s while idle, a little longer under a crowd. */
export const TURN_SAMPLES = 8;

/**
 * How long a turn of the event loop takes, as the median of the last TURN_SAMPLES measured turns —
 * so one long synchronous moment (a start-up collection, a large query) does not count, while a
 * crowd that makes every turn long does — and, sooner, as two long turns in a row (streakMs). A
 * turn is measured from a timer (timers run first in a turn) to an immediate callback (the check
 * phase, after the poll phase that ran the turn's I/O callbacks: the requests read, files written,
 * answers from the decoder).
 *
 * Why: every step of an upload that waits for I/O (~30 of them: temporary file, hashing, the
 * decoder, storage, the database) waits for the next turn, and under issue 13's crowd a turn takes
 * 100–300 ms, so an upload let in then took 4–12 s. The turn's length says beforehand what an upload
 * would wait (ingest/upload-capacity.ts refuses new ones while it is long; decision 0024).
 */
export class TurnLength {
  private readonly samples: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** When the turn being measured began (performance.now()), or -1 between measurements. */
  private measuringSince = -1;

  constructor(
    private readonly sampleMs = TURN_SAMPLE_MS,
    private readonly sampleCount = TURN_SAMPLES,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const startedAt = performance.now();
      this.measuringSince = startedAt;
      setImmediate(() => {
        this.measuringSince = -1;
        this.add(performance.now() - startedAt);
      });
    }, this.sampleMs);
    // Never the reason the process stays up.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.samples.length = 0;
    this.measuringSince = -1;
  }

  /** The median of the last turns measured, in ms; 0 until TURN_SAMPLES of them are. */
  medianMs(): number {
    if (this.samples.length < this.sampleCount) return 0;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  }

  /**
   * How long two turns in a row have taken at least, in ms: the last turn measured and either the
   * one before it or the one running now. Two long turns in a row are a crowd arriving, a second
   * before the median has enough of them (in the soak's first second, turns of 213, 435 and 439 ms
   * while the median still read 0, and the uploads let in then took ~8 s); one long moment alone
   * is not (the turns before and after it are short). Under long turns every turn is measured: the
   * timer is due at each one's start.
   */
  streakMs(): number {
    const last = this.samples.at(-1) ?? 0;
    const before = this.samples.at(-2) ?? 0;
    const running = this.measuringSince < 0 ? 0 : performance.now() - this.measuringSince;
    return Math.min(last, Math.max(before, running));
  }

  private add(ms: number): void {
    // Stopped meanwhile: the immediate was already scheduled.
    if (!this.timer) return;
    this.samples.push(ms);
    if (this.samples.length > this.sampleCount) this.samples.shift();
  }
}
