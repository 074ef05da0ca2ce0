import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export const breadcrumbsQueryOptions = () =>
  queryOptions({
    queryKey: ['breadcrumbs'],
    queryFn: ({ signal }) => callApi(calls.getBreadcrumbs, { signal }),
    // Spec §4: fetched once when the bar appears; the names do not change while the app runs.
    staleTime: Infinity,
    retry: false,
  });

export function useBreadcrumbNames() {
  return useQuery(breadcrumbsQueryOptions());
}
