import { describe, expect, it } from 'vitest';
import { MAX_BYTES_PER_BATCH, MAX_FILES_PER_BATCH, planBatches } from './plan-batches';

const MB = 1024 * 1024;

describe('planBatches', () => {
  it('keeps the order and at most 20 files per batch', () => {
    const batches = planBatches(Array.from({ length: 45 }, () => MB));
    expect(batches.map((batch) => batch.length)).toEqual([20, 20, 5]);
    expect(batches.flat()).toEqual(Array.from({ length: 45 }, (_, index) => index));
    expect(MAX_FILES_PER_BATCH).toBe(20);
  });

  it('keeps each batch within 50 MB, a larger file going alone', () => {
    expect(MAX_BYTES_PER_BATCH).toBe(50 * MB);
    expect(planBatches([30 * MB, 15 * MB, 10 * MB, 120 * MB, 1 * MB])).toEqual([[0, 1], [2], [3], [4]]);
  });

  it('plans nothing for no files', () => {
    expect(planBatches([])).toEqual([]);
  });
});
