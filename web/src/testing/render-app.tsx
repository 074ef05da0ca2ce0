import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type InitialEntry } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/routes';
import { setSessionExpiredHandler } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';

/**
 * The real route tree with a fresh cache and no retries (failures show at once). Pass one path, or
 * several history entries (the last is shown), each a path or `{ pathname, state }`.
 */
export function renderApp(path: InitialEntry | InitialEntry[]) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } });
  const initialEntries = Array.isArray(path) ? path : [path];
  const router = createMemoryRouter(routes, { initialEntries });
  setSessionExpiredHandler(() => void router.navigate('/signin', { replace: true }));
  const view = render(
    <AppProvider client={client}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, client };
}
