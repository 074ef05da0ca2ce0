import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Back to the screen the image was opened from. When there is no such entry in this visit's history
 * (the address was typed in, or the first entry was replaced while stepping), go to the origin, or
 * to the gallery, rather than out of the app.
 */
export function useGoBack(origin?: string, firstEntry = false): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    // The router gives the first entry of a visit the key "default".
    if (firstEntry || location.key === 'default') void navigate(origin ?? '/', { replace: true });
    else void navigate(-1);
  }, [firstEntry, location.key, navigate, origin]);
}
