import { describe, expect, it } from 'vitest';
import { ApiError, serverMessage } from '@/lib/api-client';
import { deleteInSlices } from './gallery-actions';

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

describe('deleting a large selection', () => {
  it('sends at most 1,000 ids per call and reports the whole selection', async () => {
    const sent: string[][] = [];
    const answer = await deleteInSlices(ids(2500), async (slice) => {
      sent.push(slice);
      return { message: `${slice.length} images deleted successfully.` };
    });
    expect(sent.map((slice) => slice.length)).toEqual([1000, 1000, 500]);
    expect(sent.flat()).toEqual(ids(2500));
    expect(answer.message).toBe('2500 images deleted successfully.');
  });

  it('keeps the server’s own words for one call', async () => {
    expect(await deleteInSlices(['7'], async () => ({ message: 'Image deleted successfully.' }))).toEqual({ message: 'Image deleted successfully.' });
  });

  it('says how many were deleted before a slice was refused', async () => {
    let calls = 0;
    const refused = deleteInSlices(ids(2500), async () => {
      calls += 1;
      if (calls === 2) throw new ApiError(404, { message: 'Image 1500 can only be deleted by the person who uploaded it, so nothing was deleted.' }, '/api/deleteImages');
      return { message: 'ok' };
    });
    const error = await refused.catch((e: unknown) => e);
    expect(serverMessage(error)).toBe('1000 of 2500 images were deleted; the rest were not. Image 1500 can only be deleted by the person who uploaded it, so nothing was deleted.');
    expect(error).toMatchObject({ deletedBefore: 1000, status: 404 });
    expect(calls).toBe(2);
  });

  it('passes the first slice’s refusal through unchanged', async () => {
    const first = new ApiError(404, { message: 'Image 1 was not found, so nothing was deleted.' }, '/api/deleteImages');
    await expect(deleteInSlices(ids(1500), async () => Promise.reject(first))).rejects.toBe(first);
  });
});
