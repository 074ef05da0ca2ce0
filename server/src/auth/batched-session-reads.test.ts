import { describe, expect, it } from 'vitest';
import { BatchedSessionReads, MAX_BATCH } from './batched-session-reads.js';

interface Row {
  id: number;
  name: string;
}

function reads(known: readonly number[], fail = false) {
  const asked: number[][] = [];
  const batches = new BatchedSessionReads<Row>(
    async (ids) => {
      asked.push([...ids]);
      if (fail) throw new Error('database down');
      return ids.filter((id) => known.includes(id)).map((id) => ({ id, name: `account ${id}` }));
    },
    (row) => row.id,
  );
  return { batches, asked };
}

describe('BatchedSessionReads', () => {
  it('asks once for the checks of one turn, each account once, and answers each its own row', async () => {
    const { batches, asked } = reads([1, 2, 3]);
    const answers = await Promise.all([batches.read(2), batches.read(1), batches.read(2), batches.read(9)]);
    expect(asked).toEqual([[2, 1, 9]]);
    expect(answers).toEqual([{ id: 2, name: 'account 2' }, { id: 1, name: 'account 1' }, { id: 2, name: 'account 2' }, undefined]);
  });

  it('asks again in a later turn: nothing is kept between batches', async () => {
    const { batches, asked } = reads([1]);
    await batches.read(1);
    await batches.read(1);
    expect(asked).toEqual([[1], [1]]);
  });

  it('sends a full batch at once and starts another', async () => {
    const { batches, asked } = reads([]);
    await Promise.all(Array.from({ length: MAX_BATCH + 3 }, (_, i) => batches.read(i + 1)));
    expect(asked.map((ids) => ids.length)).toEqual([MAX_BATCH, 3]);
  });

  it('fails every check of a batch whose statement failed', async () => {
    const { batches } = reads([1], true);
    const results = await Promise.allSettled([batches.read(1), batches.read(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
