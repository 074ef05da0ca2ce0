import { calls } from '@photo/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';

export interface Neighbours {
  previousId: string | undefined;
  nextId: string | undefined;
}

/**
 * The images around one in gallery order, asked of the server (GET /api/images/{id}/neighbours):
 * previous/next over the full gallery without downloading it — the gallery can hold 100,000 images.
 */
export const neighboursQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['image-detail', 'neighbours', id],
    queryFn: async ({ signal }) => {
      try {
        return await callApi(calls.getImageNeighbours, { params: { id }, signal });
      } catch (error) {
        if (isNotFound(error)) return { previous: null, next: null };
        // Spec §8: logged only; the detail then simply offers no previous/next.
        if (!isAbortError(error)) console.error('Error fetching the neighbouring images:', error);
        throw error;
      }
    },
    staleTime: 60_000,
  });

/**
 * What ← and → step to (spec §4: wrapping around the full list): within the list the opening
 * screen handed over (a search, a profile tab, a shuffled gallery), else the whole gallery.
 */
export function useNeighbours(id: string, handed: string[] | undefined): Neighbours {
  const gallery = useQuery({ ...neighboursQueryOptions(id), enabled: handed === undefined });
  if (handed) return fromList(id, handed);
  return { previousId: gallery.data?.previous ?? undefined, nextId: gallery.data?.next ?? undefined };
}

/**
 * Steps ← / → one at a time, in order, from the image the previous step landed on — even when keys
 * come faster than the screen re-renders or than the server answers. Neighbours of the neighbours
 * are fetched ahead, so ordinary stepping never waits.
 */
export function useStepper(id: string, handed: string[] | undefined, show: (target: string) => void) {
  const queryClient = useQueryClient();
  const current = useRef(id);
  const queue = useRef<Promise<void>>(Promise.resolve());
  current.current = id;

  const neighboursOf = useCallback(
    async (of: string): Promise<Neighbours> => {
      if (handed) return fromList(of, handed);
      const found = await queryClient.fetchQuery(neighboursQueryOptions(of));
      return { previousId: found.previous ?? undefined, nextId: found.next ?? undefined };
    },
    [handed, queryClient],
  );

  const step = useCallback(
    (direction: 'previous' | 'next') => {
      queue.current = queue.current
        .then(async () => {
          const around = await neighboursOf(current.current);
          const target = direction === 'next' ? around.nextId : around.previousId;
          if (!target) return;
          current.current = target;
          show(target);
        })
        .catch(() => undefined);
    },
    [neighboursOf, show],
  );

  const { previousId, nextId } = useNeighbours(id, handed);
  useEffect(() => {
    if (handed) return;
    for (const next of [previousId, nextId]) if (next) void queryClient.prefetchQuery(neighboursQueryOptions(next));
  }, [handed, previousId, nextId, queryClient]);

  return { previousId, nextId, step };
}

function fromList(id: string, list: string[]): Neighbours {
  const position = list.indexOf(id);
  if (position < 0 || list.length < 2) return { previousId: undefined, nextId: undefined };
  const at = (delta: number) => list[(position + delta + list.length) % list.length];
  return { previousId: at(-1), nextId: at(1) };
}
