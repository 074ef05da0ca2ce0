import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import { UPLOAD_BUSY_TURN_MS, UPLOAD_ONE_AT_A_TIME_TURN_MS } from '../images/limits.js';
import { UploadCapacity } from './upload-capacity.js';

/** Capacity whose event loop's turns take `turnMs` (the median), with no streak. */
const withTurns = (turnMs: number) => new UploadCapacity(4, 16, { medianMs: () => turnMs, streakMs: () => 0 });

const refusal = (admit: () => unknown) => {
  try {
    admit();
  } catch (error) {
    return error instanceof AppError ? { status: error.statusCode, retryAfter: error.headers?.['retry-after'] } : error;
  }
  return undefined;
};

describe('UploadCapacity: who may start an upload, by the length of the event loop’s turns', () => {
  it('lets in as many uploads as its limits allow while turns are short', () => {
    const capacity = withTurns(UPLOAD_ONE_AT_A_TIME_TURN_MS - 1);
    const tickets = [1, 2, 3].map((person) => capacity.admit(person));
    expect(tickets).toHaveLength(3);
  });

  it('lets in one upload at a time while it serves a crowd, and the next once that one is done', () => {
    const capacity = withTurns(UPLOAD_ONE_AT_A_TIME_TURN_MS);
    const first = capacity.admit(1);
    expect(refusal(() => capacity.admit(2))).toEqual({ status: 503, retryAfter: expect.any(String) });
    expect(refusal(() => capacity.admit(1))).toEqual({ status: 503, retryAfter: expect.any(String) });
    first.finish();
    // Finishing twice counts once.
    first.finish();
    const second = capacity.admit(2);
    expect(refusal(() => capacity.admit(3))).toMatchObject({ status: 503 });
    second.finish();
  });

  it('lets in none while turns are very long, even with nothing running', () => {
    const capacity = withTurns(UPLOAD_BUSY_TURN_MS);
    expect(refusal(() => capacity.admit(1))).toEqual({ status: 503, retryAfter: expect.any(String) });
  });

  it('counts the uploads turned away as never started', () => {
    const capacity = withTurns(UPLOAD_ONE_AT_A_TIME_TURN_MS);
    const first = capacity.admit(1);
    for (let i = 0; i < 5; i += 1) expect(refusal(() => capacity.admit(2))).toMatchObject({ status: 503 });
    first.finish();
    expect(refusal(() => capacity.admit(2))).toBeUndefined();
  });
});
