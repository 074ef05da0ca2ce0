import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ToastContainer } from 'react-toastify';

/** App-wide services: server state and the toast notices (spec §2/§9: top centre, 2 s, no bar). */
export function AppProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      {children}
      <ToastContainer position="top-center" autoClose={2000} hideProgressBar />
    </QueryClientProvider>
  );
}
