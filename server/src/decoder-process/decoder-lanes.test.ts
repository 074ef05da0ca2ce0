import { describe, expect, it } from 'vitest';
import { allowedCpus, decoderLanes, isHeavy, ONE_LANE, pickLane } from './decoder-lanes.js';

const lane = (heavy: number, pending: number) => ({ heavy, pending: { size: pending } });

describe('decoder lanes', () => {
  it('reads the CPUs a process may run on', () => {
    expect(allowedCpus('Name:\tnode\nCpus_allowed_list:\t0-3,6\n')).toEqual([0, 1, 2, 3, 6]);
    expect(allowedCpus('Cpus_allowed_list:\t1\n')).toEqual([1]);
    expect(allowedCpus('Cpus_allowed_list:\t3-1\n')).toBeUndefined();
    expect(allowedCpus('Cpus_allowed_list:\tx\n')).toBeUndefined();
    expect(allowedCpus('Name:\tnode\n')).toBeUndefined();
  });

  it('sends pixel work to the lane with the least of it, starting a lane only when the running ones each have some', () => {
    expect(pickLane([undefined, undefined], true)).toBe(0);
    expect(pickLane([lane(0, 0), undefined], true)).toBe(0);
    expect(pickLane([lane(0, 2), undefined], true)).toBe(0);
    expect(pickLane([lane(1, 1), undefined], true)).toBe(1);
    expect(pickLane([lane(1, 3), lane(1, 1)], true)).toBe(1);
    expect(pickLane([lane(2, 2), lane(1, 1), undefined], true)).toBe(2);
  });

  it('sends light requests to the first lane running, never to one not started', () => {
    expect(pickLane([undefined, undefined], false)).toBe(0);
    expect(pickLane([lane(1, 1), undefined], false)).toBe(0);
    expect(pickLane([undefined, lane(1, 1)], false)).toBe(1);
    expect(pickLane([lane(1, 5), lane(0, 0)], false)).toBe(0);
  });

  it('tells pixel work from light requests', () => {
    expect(isHeavy({ kind: 'derive' })).toBe(true);
    expect(isHeavy({ kind: 'avatar' })).toBe(true);
    expect(isHeavy({ kind: 'probe' })).toBe(false);
    expect(isHeavy({ kind: 'exif' })).toBe(false);
  });

  it('holds one process to each core of a small box when every core has a picture to decode, else keeps one unpinned', () => {
    expect(decoderLanes(1, [0, 1])).toBe(ONE_LANE);
    expect(decoderLanes(2, [0])).toBe(ONE_LANE);
    expect(decoderLanes(8, [0, 1, 2, 3, 4, 5, 6, 7])).toBe(ONE_LANE);
    // Where taskset is found (the test machines: Debian's util-linux), the lanes follow the CPUs allowed.
    const lanes = decoderLanes(4, [2, 3, 5]);
    if (lanes !== ONE_LANE) expect(lanes.cpus).toEqual([2, 3, 5]);
  });
});
