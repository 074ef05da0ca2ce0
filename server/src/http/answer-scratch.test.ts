import { describe, expect, it } from 'vitest';
import { AnswerScratch } from './answer-scratch.js';

describe('AnswerScratch', () => {
  it('lends the same bytes again only after they were given back', () => {
    const scratch = new AnswerScratch();
    const first = scratch.lend(30_000);
    const second = scratch.lend(30_000);
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer);
    first.giveBack();
    const third = scratch.lend(20_000);
    expect(third.bytes.buffer).toBe(first.bytes.buffer);
    const fourth = scratch.lend(20_000);
    expect(fourth.bytes.buffer).not.toBe(first.bytes.buffer);
  });

  it('takes each lent scratch back once, however often giveBack is called', () => {
    const scratch = new AnswerScratch();
    const lent = scratch.lend(1000);
    lent.giveBack();
    lent.giveBack();
    expect(scratch.freeCount).toBe(1);
    const a = scratch.lend(1000);
    const b = scratch.lend(1000);
    expect(b.bytes.buffer).not.toBe(a.bytes.buffer);
  });

  it('lends enough bytes for a large answer, and gives an answer over the limit bytes of its own', () => {
    const scratch = new AnswerScratch(1024 * 1024, 4);
    const small = scratch.lend(10);
    small.giveBack();
    const large = scratch.lend(300_000);
    expect(large.bytes.length).toBeGreaterThanOrEqual(300_000);
    large.giveBack();
    // The small one was too small for it and was let go; the large one is lent again.
    expect(scratch.freeCount).toBe(1);
    expect(scratch.lend(200_000).bytes.buffer).toBe(large.bytes.buffer);
    const huge = scratch.lend(2 * 1024 * 1024);
    expect(huge.bytes.length).toBe(2 * 1024 * 1024);
    huge.giveBack();
    expect(scratch.freeCount).toBe(0);
  });

  it('keeps at most maxFree scratches for reuse', () => {
    const scratch = new AnswerScratch(1024 * 1024, 2);
    const lent = [scratch.lend(100), scratch.lend(100), scratch.lend(100)];
    for (const l of lent) l.giveBack();
    expect(scratch.freeCount).toBe(2);
  });
});
