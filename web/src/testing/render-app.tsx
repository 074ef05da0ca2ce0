import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/routes';
import { setSessionExpiredHandler } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';

/** The real route tree at `path`, with a fresh cache and no retries (failures show at once). */
export function renderApp(path: string) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  setSessionExpiredHandler(() => void router.navigate('/signin', { replace: true }));
  const view = render(
    <AppProvider client={client}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, client };
}
