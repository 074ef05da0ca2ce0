import type { TimelineMonth } from '@photo/contract';

/**
 * The timeline's months, read off a visible-id list's keys (descending ms since 1970, UTC). Months
 * and days are calendar months and days of the instant a photo sorts by, in UTC (decision 0009), so
 * every month is one contiguous run of the list: each boundary is one binary search, and the whole
 * timeline of a million photos over 20 years costs ~7,000 searches, not a pass over the rows.
 */
export function monthsOf(keys: Float64Array): TimelineMonth[] {
  const months: TimelineMonth[] = [];
  let index = 0;
  while (index < keys.length) {
    const first = new Date(keys[index] as number);
    const year = first.getUTCFullYear();
    const month = first.getUTCMonth();
    const start = index;
    const days: [number, number][] = [];
    const monthStart = Date.UTC(year, month, 1);
    while (index < keys.length && (keys[index] as number) >= monthStart) {
      const day = new Date(keys[index] as number).getUTCDate();
      const end = firstBelow(keys, Date.UTC(year, month, day), index);
      days.push([day, end - index]);
      index = end;
    }
    months.push({ month: monthName(year, month), count: index - start, offset: start, days });
  }
  return months;
}

/** Where a month ('YYYY-MM') runs in a list: `[start, end)`, empty (start = end) at its place when it has no photos. */
export function monthRange(keys: Float64Array, month: string): { start: number; end: number } {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const start = firstBelow(keys, Date.UTC(year, number, 1), 0);
  const end = firstBelow(keys, Date.UTC(year, number - 1, 1), start);
  return { start, end };
}

/** The first index at or after `from` whose key is below `limit` (keys descending). */
export function firstBelow(keys: Float64Array, limit: number, from: number): number {
  let low = from;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((keys[middle] as number) < limit) high = middle;
    else low = middle + 1;
  }
  return low;
}

function monthName(year: number, month: number): string {
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}`;
}
