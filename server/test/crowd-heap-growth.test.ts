import { describe, expect, it } from 'vitest';
import { CALM_TURN_MS, CROWD_HEAP_GROWING_PERCENT, CROWD_TURN_MS, CrowdHeapGrowth } from '../src/shared/crowd-heap-growth.js';

describe('the old generation grows further between full collections while a crowd is served', () => {
  it('sets V8’s growing factor when turns are long, and gives the choice back to V8 once they are short, without flapping between', () => {
    let turn = 0;
    const flags: string[] = [];
    const growth = new CrowdHeapGrowth(() => turn, (f) => flags.push(f));
    growth.check();
    expect(flags).toEqual([]);
    turn = CROWD_TURN_MS;
    growth.check();
    growth.check();
    expect(flags).toEqual([`--heap-growing-percent=${CROWD_HEAP_GROWING_PERCENT}`]);
    expect(growth.underCrowd).toBe(true);
    // Between the two thresholds: as it was.
    turn = CALM_TURN_MS;
    growth.check();
    expect(flags).toHaveLength(1);
    turn = CALM_TURN_MS - 1;
    growth.check();
    expect(flags).toEqual([`--heap-growing-percent=${CROWD_HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0']);
    // Stopped under a crowd: V8's own choice again.
    turn = 100;
    growth.check();
    growth.stop();
    expect(flags.at(-1)).toBe('--heap-growing-percent=0');
    expect(growth.underCrowd).toBe(false);
  });
});
