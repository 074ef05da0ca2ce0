/** The speed is measured over this much of the recent past. */
export const SPEED_WINDOW_MS = 10_000;

/** Bytes sent over time, and the speed over the last SPEED_WINDOW_MS (or since the first byte, when more recent). */
export class TransferRate {
  private readonly samples: { at: number; bytes: number }[] = [];
  private total = 0;
  private firstAt = 0;

  /** `bytes` more went out at `at` (ms). */
  add(bytes: number, at: number): void {
    if (this.samples.length === 0) this.firstAt = at;
    this.total += bytes;
    this.samples.push({ at, bytes: this.total });
    // Keep one sample from before the window: the speed is measured from it.
    while (this.samples.length > 1 && this.samples[1]!.at <= at - SPEED_WINDOW_MS) this.samples.shift();
  }

  /** Bytes per second; 0 until a second has passed. */
  perSecond(now: number): number {
    const first = this.samples[0];
    if (!first) return 0;
    const from = Math.max(now - SPEED_WINDOW_MS, this.firstAt);
    const base = this.samples.findLast((sample) => sample.at <= from) ?? first;
    const elapsed = now - from;
    return elapsed >= 1000 ? ((this.total - base.bytes) * 1000) / elapsed : 0;
  }
}
