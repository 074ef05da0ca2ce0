import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
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
  if (handed) {
    const position = handed.indexOf(id);
    if (position < 0 || handed.length < 2) return { previousId: undefined, nextId: undefined };
    const at = (delta: number) => handed[(position + delta + handed.length) % handed.length];
    return { previousId: at(-1), nextId: at(1) };
  }
  return { previousId: gallery.data?.previous ?? undefined, nextId: gallery.data?.next ?? undefined };
}
