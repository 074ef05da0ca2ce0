import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type PeriodicJob, startPeriodicJob } from '../src/shared/periodic-job.js';
import { eventually } from './support/eventually.js';

/** A real logger whose lines are kept. */
function logger() {
  const lines: { msg: string; err?: { message: string } }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

/** A piece of work that waits until released, counting its runs. */
function gatedWork() {
  let release = () => {};
  const work = {
    runs: 0,
    fail: false,
    release: () => release(),
    run: async () => {
      work.runs += 1;
      await new Promise<void>((resolve) => (release = resolve));
      if (work.fail) throw new Error('the database is away');
      return work.runs;
    },
  };
  return work;
}

describe('background work on an interval (shared/periodic-job.ts)', () => {
  let job: PeriodicJob<number> | undefined;
  afterEach(async () => {
    await job?.stop();
  });

  it('runs at once, and joins a run under way instead of starting another', async () => {
    const work = gatedWork();
    job = startPeriodicJob(work.run, { everyMs: 60_000, logger: logger().log, failed: 'failed' });
    expect(work.runs).toBe(1);
    const joined = job.runOnce();
    expect(work.runs).toBe(1);
    work.release();
    expect(await joined).toBe(1);
    const next = job.runOnce();
    expect(work.runs).toBe(2);
    work.release();
    expect(await next).toBe(2);
  });

  it('logs a failed run and runs again at the next tick', async () => {
    const work = gatedWork();
    const { log, lines } = logger();
    work.fail = true;
    job = startPeriodicJob(work.run, { everyMs: 50, logger: log, failed: 'the sweep failed; will retry' });
    work.release();
    await eventually(async () => expect(lines.map((line) => [line.msg, line.err?.message])).toEqual([['the sweep failed; will retry', 'the database is away']]), 5000, 10);
    work.fail = false;
    await eventually(async () => expect(work.runs).toBe(2), 5000, 10);
    work.release();
  });

  it('stop waits for the run under way, and no run starts after it', async () => {
    const work = gatedWork();
    job = startPeriodicJob(work.run, { everyMs: 20, logger: logger().log, failed: 'failed' });
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await sleep(50);
    expect(stopped).toBe(false);
    work.release();
    await stopping;
    await sleep(50);
    expect(work.runs).toBe(1);
  });
});
