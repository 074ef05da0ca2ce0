import { setFlagsFromString } from 'node:v8';

/** Turns at least this long (median) are a crowd being served (http/turn-length.ts). */
export const CROWD_TURN_MS = 20;
/** And below this, the crowd has gone (a gap between the two, so the setting does not flap). */
export const CALM_TURN_MS = 8;
/** The old generation may grow to 2.5× what a full collection left live before the next one. */
export const CROWD_HEAP_GROWING_PERCENT = 150;
const CHECK_MS = 500;

/**
 * While a crowd is being served, V8 lets the old generation grow further between full collections;
 * once it has gone, V8 decides again as it does by itself.
 *
 * Why (issue 13, decision 0037): under the soak's crowd every full collection stretched the turn it
 * ended in from ~60 to ~110–150 ms. Its own pause is ~5–15 ms, but its marking threads take the
 * second core from the load and the turn waits ~35–45 ms for a core. V8 chose a growing factor of
 * ~1.24 (it counts a collection cheap on a small heap), so one came every ~4–5 s, and the 1% of
 * answers caught in those turns set the p99. With 2.5 a full collection comes every ~20 s of the
 * crowd. At rest the server keeps V8's own choice, so the memory rows (issue 14) are what they were.
 *
 * V8 reads `--heap-growing-percent` each time it sets the next limit (after a full collection); 0 is
 * its own choice.
 */
export class CrowdHeapGrowth {
  private timer: NodeJS.Timeout | undefined;
  private crowded = false;

  constructor(
    private readonly medianTurnMs: () => number,
    private readonly setFlags: (flags: string) => void = setFlagsFromString,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.crowded) this.set(false);
  }

  /** Looks at the turns now (the timer calls it; tests too). */
  check(): void {
    const turn = this.medianTurnMs();
    if (!this.crowded && turn >= CROWD_TURN_MS) this.set(true);
    else if (this.crowded && turn < CALM_TURN_MS) this.set(false);
  }

  get underCrowd(): boolean {
    return this.crowded;
  }

  private set(crowded: boolean): void {
    this.crowded = crowded;
    this.setFlags(`--heap-growing-percent=${crowded ? CROWD_HEAP_GROWING_PERCENT : 0}`);
  }
}
