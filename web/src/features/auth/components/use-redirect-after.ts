import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/** Goes to `to` `delayMs` after `active` becomes true (spec §4: 5 s after forgot, 3 s after reset). */
export function useRedirectAfter(active: boolean, to: string, delayMs: number): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => void navigate(to, { replace: true }), delayMs);
    return () => clearTimeout(timer);
  }, [active, to, delayMs, navigate]);
}
