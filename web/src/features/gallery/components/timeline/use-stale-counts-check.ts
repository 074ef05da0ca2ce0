import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { timelineQueryKey, type Timeline } from '../../api/get-timeline';
import type { LoadedMonth } from './loaded-months';

/**
 * A month page that counts its month differently from the timeline means the library changed
 * (an upload, a deletion, a share switched off): the timeline is read again, once per difference,
 * rather than waiting for its next refresh.
 */
export function useStaleCountsCheck(timeline: Timeline, loadedMonths: ReadonlyMap<string, LoadedMonth>): void {
  const client = useQueryClient();
  const reported = useRef(new Set<string>());
  useEffect(() => {
    const counts = new Map(timeline.months.map((month) => [month.month, month.count]));
    for (const [month, loaded] of loadedMonths) {
      for (const page of loaded.pages.values()) {
        const expected = counts.get(month) ?? 0;
        const difference = `${month}:${page.count}:${expected}`;
        if (page.count === expected || reported.current.has(difference)) continue;
        reported.current.add(difference);
        void client.invalidateQueries({ queryKey: timelineQueryKey, exact: true });
        return;
      }
    }
  }, [client, timeline, loadedMonths]);
}
