import { describe, expect, it } from 'vitest';
import { justifyRows, MAX_TILE_RATIO, tileRatio } from './justify-rows';

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('justifyRows', () => {
  it('fills each full row edge to edge with one height, keeping every ratio', () => {
    const ratios = [1.5, 1, 0.75, 1.5, 1.5, 1, 1, 2];
    const rows = justifyRows(ratios, { containerWidth: 1000, targetHeight: 200, gap: 10 });
    for (const row of rows.slice(0, -1)) {
      expect(sum(row.widths) + 10 * (row.widths.length - 1)).toBeCloseTo(1000);
      expect(row.height).toBeGreaterThanOrEqual(100);
      expect(row.height).toBeLessThanOrEqual(300);
      row.widths.forEach((width, offset) => expect(width / row.height).toBeCloseTo(ratios[row.start + offset]!));
    }
    expect(rows.flatMap((row) => row.widths)).toHaveLength(ratios.length);
    expect(rows.map((row) => [row.start, row.end])).toEqual(rows.map((row, index) => [rows[index - 1]?.end ?? 0, row.end]));
  });

  it('ends a row before a picture when that lands nearer the target height', () => {
    // Three squares at 200px fill 600 of 650px; a fourth would shrink the row to 162.5px, but
    // stretching three to 216.7px is nearer the target.
    const rows = justifyRows([1, 1, 1, 1, 1, 1], { containerWidth: 650, targetHeight: 200, gap: 0 });
    expect(rows.map((row) => row.end - row.start)).toEqual([3, 3]);
    expect(rows[0]!.height).toBeCloseTo(216.67);
    // Four squares in 760px: 190px with the fourth beats 253px without it.
    expect(justifyRows([1, 1, 1, 1], { containerWidth: 760, targetHeight: 200, gap: 0 })[0]!.end).toBe(4);
  });

  it('leaves the last row at the target height, not stretched', () => {
    const rows = justifyRows([1, 1, 1, 1, 1, 1], { containerWidth: 1000, targetHeight: 200, gap: 0 });
    expect(rows.map((row) => row.end - row.start)).toEqual([5, 1]);
    expect(rows[1]).toEqual({ start: 5, end: 6, height: 200, widths: [200] });
  });

  it('only changes the last row when more pictures are appended', () => {
    const first = [1.2, 0.8, 1.5, 1, 1.33, 0.66, 1.77, 1];
    const before = justifyRows(first, { containerWidth: 900, targetHeight: 180, gap: 8 });
    const after = justifyRows([...first, 1, 1.5, 0.75], { containerWidth: 900, targetHeight: 180, gap: 8 });
    expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
  });

  it('keeps panoramas and needles within the tile ratio range', () => {
    expect(tileRatio(12)).toBe(MAX_TILE_RATIO);
    expect(tileRatio(0.05)).toBe(0.5);
    expect(tileRatio(Number.NaN)).toBe(1);
    const [row] = justifyRows([12], { containerWidth: 300, targetHeight: 200, gap: 4 });
    expect(row).toEqual({ start: 0, end: 1, height: 100, widths: [300] });
  });

  it('has no rows for no pictures', () => {
    expect(justifyRows([], { containerWidth: 1000, targetHeight: 200, gap: 8 })).toEqual([]);
  });
});
