import { describe, expect, it } from 'vitest';
import { clampPan, clampZoom, panLimit } from './zoom';

describe('zoom and pan limits (spec §4)', () => {
  it('keeps zoom within 0.5 and 2 on tenths', () => {
    expect(clampZoom(0.1)).toBe(0.5);
    expect(clampZoom(5)).toBe(2);
    expect(clampZoom(1 + 0.1 + 0.1 + 0.1)).toBe(1.3);
  });

  it('pans only above 1× and by at most 200 × (zoom − 1) on each axis', () => {
    expect(panLimit(1)).toBe(0);
    expect(panLimit(0.5)).toBe(0);
    expect(panLimit(1.5)).toBe(100);
    expect(clampPan({ x: 500, y: -500 }, 2)).toEqual({ x: 200, y: -200 });
    expect(clampPan({ x: 50, y: -30 }, 1.5)).toEqual({ x: 50, y: -30 });
    expect(clampPan({ x: 50, y: -30 }, 1)).toEqual({ x: 0, y: 0 });
  });
});
