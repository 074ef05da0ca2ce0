import { createBrowserRouter } from 'react-router';
import { setSessionExpiredHandler } from '@/lib/api-client';
import { routes } from './routes';

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  // Spec §4: an expired session goes to /signin inside the app, without a reload.
  setSessionExpiredHandler(() => void router.navigate('/signin', { replace: true }));
  return router;
}
