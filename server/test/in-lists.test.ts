import { describe, expect, it } from 'vitest';
import { IN_LIST_SIZE, inListSlices } from '../src/db/in-lists.js';

describe('id lists in `in (…)` slices (db/in-lists.ts)', () => {
  it('covers every id once, in order, in slices no longer than IN_LIST_SIZE', () => {
    const ids = Array.from({ length: 2 * IN_LIST_SIZE + 345 }, (_, i) => i + 1);
    const slices = [...inListSlices(ids)];
    expect(slices.map((slice) => slice.length)).toEqual([IN_LIST_SIZE, IN_LIST_SIZE, 345]);
    expect(slices.flat()).toEqual(ids);
  });

  it('gives no slice for no ids, and one for a short list', () => {
    expect([...inListSlices([])]).toEqual([]);
    expect([...inListSlices([7, 3])]).toEqual([[7, 3]]);
  });
});
