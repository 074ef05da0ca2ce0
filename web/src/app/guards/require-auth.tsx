import { Navigate, Outlet } from 'react-router';
import { clearToken, getToken, isTokenExpired } from '@/lib/auth-token';

/**
 * Spec §2: without a stored token, guarded pages go to /signin, replacing history.
 * A token whose own expiry time has passed is as good as none, so it is dropped here
 * instead of failing every call on the page.
 */
export function RequireAuth() {
  const token = getToken();
  if (token && isTokenExpired(token)) clearToken();
  if (!token || isTokenExpired(token)) return <Navigate to="/signin" replace />;
  return <Outlet />;
}
