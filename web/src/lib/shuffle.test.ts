import { describe, expect, it } from 'vitest';
import { keepingOrder } from './shuffle';

const item = (id: string) => ({ _id: id });
const ids = (items: { _id: string }[]) => items.map((entry) => entry._id);

describe('keepingOrder', () => {
  it('keeps the order drawn before, drops what went away and adds what is new at the end', () => {
    expect(ids(keepingOrder(['c', 'a', 'b'], [item('a'), item('b'), item('c')]))).toEqual(['c', 'a', 'b']);
    expect(ids(keepingOrder(['c', 'a', 'b'], [item('a'), item('b'), item('d')], () => 0))).toEqual(['a', 'b', 'd']);
  });

  it('is a plain shuffle without an earlier order', () => {
    // With random() = 0 each step swaps with the first (Fisher–Yates): a b c → c a b... → b c a.
    expect(ids(keepingOrder([], [item('a'), item('b'), item('c')], () => 0))).toEqual(['b', 'c', 'a']);
  });
});
