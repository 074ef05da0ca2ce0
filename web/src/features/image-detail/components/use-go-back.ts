import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Back to the previous screen, or to the gallery when the detail was opened directly. */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    // The router gives the first entry of a visit the key "default": there is nothing to go back to.
    if (location.key === 'default') void navigate('/', { replace: true });
    else void navigate(-1);
  }, [location.key, navigate]);
}
