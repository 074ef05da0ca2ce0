import { describe, expect, it } from 'vitest';
import { TaskPool } from './task-pool.js';

/** A task that records when it runs and finishes when `release()` is called. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
    },
    release: () => release(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('TaskPool', () => {
  it('runs at most `size` tasks at once, in order', async () => {
    const log: string[] = [];
    const pool = new TaskPool(2);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(log, n));
    const runs = [pool.run(a!.task), pool.run(b!.task), pool.run(c!.task)];
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    a!.release();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'end a', 'start c']);
    b!.release();
    c!.release();
    await Promise.all(runs);
    expect(pool.pending).toBe(0);
  });

  it('runs a decode that does not fit beside the running ones alone, and never passes it over', async () => {
    const log: string[] = [];
    const pool = new TaskPool(2, 100);
    const [small1, heavy, small2] = ['small1', 'heavy', 'small2'].map((n) => gate(log, n));
    const runs = [pool.run(small1!.task, 40), pool.run(heavy!.task, 300), pool.run(small2!.task, 40)];
    await tick();
    // The heavy one waits for the room to empty; the small one behind it waits its turn too.
    expect(log).toEqual(['start small1']);
    small1!.release();
    await tick();
    expect(log).toEqual(['start small1', 'end small1', 'start heavy']);
    heavy!.release();
    await tick();
    expect(log.slice(-2)).toEqual(['end heavy', 'start small2']);
    small2!.release();
    await Promise.all(runs);
  });

  it('runs two decodes side by side when both fit the budget', async () => {
    const log: string[] = [];
    const pool = new TaskPool(2, 100);
    const [a, b] = ['a', 'b'].map((n) => gate(log, n));
    const runs = [pool.run(a!.task, 40), pool.run(b!.task, 40)];
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    a!.release();
    b!.release();
    await Promise.all(runs);
    await pool.onIdle();
  });

  it('frees the reservation of a task that fails', async () => {
    const pool = new TaskPool(2, 100);
    await expect(pool.run(() => Promise.reject(new Error('broken')), 90)).rejects.toThrow('broken');
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((n) => gate(log, n));
    const runs = [pool.run(a!.task, 50), pool.run(b!.task, 50)];
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    a!.release();
    b!.release();
    await Promise.all(runs);
  });
});
