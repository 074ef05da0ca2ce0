import { stat } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { TURN_SAMPLE_MS, TURN_SAMPLES, TurnLength } from '../src/http/turn-length.js';
import { UPLOAD_BUSY_STREAK_MS, UPLOAD_BUSY_TURN_MS } from '../src/images/limits.js';
import { busyFor, longTurns } from './support/long-turns.js';

/** Long enough for all the samples to be new. */
const FULL_WINDOW_MS = TURN_SAMPLE_MS * (TURN_SAMPLES + 2);

describe('the length of a turn of the event loop (http/turn-length.ts)', () => {
  const turns = new TurnLength();
  afterEach(() => turns.stop());

  it('is 0 until it has its samples, then small on an idle loop', async () => {
    turns.start();
    expect(turns.medianMs()).toBe(0);
    await sleep(FULL_WINDOW_MS);
    expect(turns.medianMs()).toBeLessThan(20);
  });

  it('is not moved by one long synchronous moment', async () => {
    turns.start();
    await sleep(FULL_WINDOW_MS);
    // One I/O callback of 400 ms, in the poll phase where a turn is measured.
    await new Promise<void>((resolve) =>
      stat('.', () => {
        busyFor(400);
        resolve();
      }),
    );
    await sleep(TURN_SAMPLE_MS * 3);
    expect(turns.medianMs()).toBeLessThan(20);
  });

  it('is long while every turn is, and short again once they are', async () => {
    turns.start();
    await sleep(FULL_WINDOW_MS);
    const stop = longTurns(40);
    try {
      await sleep(FULL_WINDOW_MS * 1.5);
      expect(turns.medianMs()).toBeGreaterThanOrEqual(UPLOAD_BUSY_TURN_MS);
    } finally {
      stop();
    }
    await sleep(FULL_WINDOW_MS);
    expect(turns.medianMs()).toBeLessThan(20);
  });

  it('reads a streak while two long turns come in a row, before the median has them', async () => {
    turns.start();
    await sleep(FULL_WINDOW_MS);
    const stop = longTurns(120, 2);
    const streaks: number[] = [];
    try {
      // Read in the poll phase, after this turn's own 120 ms, as an upload's admission is.
      for (let i = 0; i < 3; i += 1) streaks.push(await inTurn(() => busyFor(120)));
      expect(turns.medianMs(), 'read before the median had its turns').toBeLessThan(UPLOAD_BUSY_TURN_MS);
    } finally {
      stop();
    }
    expect(Math.max(...streaks)).toBeGreaterThanOrEqual(UPLOAD_BUSY_STREAK_MS);
  });

  it('reads no streak on an idle loop, nor in the turns right after one long moment', async () => {
    turns.start();
    await sleep(FULL_WINDOW_MS);
    expect(await inTurn()).toBeLessThan(UPLOAD_BUSY_STREAK_MS);
    // The long moment itself, read at its end: the turn before it was short.
    expect(await inTurn(() => busyFor(300))).toBeLessThan(UPLOAD_BUSY_STREAK_MS);
    // The turns after it: their own time is short.
    expect(await inTurn()).toBeLessThan(UPLOAD_BUSY_STREAK_MS);
    expect(await inTurn()).toBeLessThan(UPLOAD_BUSY_STREAK_MS);
  });

  /** `turns.streakMs()` read in an I/O callback of a later turn, after `work` there. */
  function inTurn(work: () => void = () => undefined): Promise<number> {
    return new Promise((resolve) =>
      stat('.', () => {
        work();
        resolve(turns.streakMs());
      }),
    );
  }
});
