import { describe, expect, it } from 'vitest';
import { listed } from './visible-image-finder.js';

describe('listed', () => {
  it('finds exactly the (key, id) pairs of a list in gallery order, ties included', () => {
    // Newest first, ties by id descending, with runs of equal keys.
    const entries: [number, number][] = [];
    let id = 1;
    for (let key = 50; key > 0; key -= 1) for (let tie = 0; tie < (key % 4); tie += 1) entries.push([key * 1000, id++]);
    entries.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    const list = { ids: Int32Array.from(entries.map((e) => e[1])), keys: Float64Array.from(entries.map((e) => e[0])) };
    for (const [key, entryId] of entries) expect(listed(list, entryId, key)).toBe(true);
    const [key, entryId] = entries[7] as [number, number];
    expect(listed(list, entryId, key + 1), 'the right id under another key').toBe(false);
    expect(listed(list, id + 5, key), 'an id not in the list, among the key ties').toBe(false);
    expect(listed(list, entryId, 0)).toBe(false);
    expect(listed({ ids: new Int32Array(0), keys: new Float64Array(0) }, 1, 1)).toBe(false);
  });
});
