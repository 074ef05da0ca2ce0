import { reloadPage } from '@/lib/browser';

/**
 * How browsers word a dynamic import that could not be fetched (Chromium, Firefox, Safari), and
 * Vite's own preload failure. It happens offline, and in a tab left open across an upgrade: the
 * new build's chunks have other names and the old ones are gone.
 */
const CHUNK_LOAD_MESSAGES = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
];

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_LOAD_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** When this tab last reloaded for a chunk (session storage: per tab, survives the reload). */
export const CHUNK_RELOAD_KEY = 'chunk-reload-at';
/** A chunk that fails again this soon after a reload is not cured by another: show the error instead. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;

/**
 * Reloads the page once for a chunk that failed to load, which fetches the current build. Answers
 * false, and leaves the page alone, when it already did within the guard time (no reload loop), when
 * it cannot remember having done so (no session storage), or when the browser is offline (a reload
 * would only show the browser's own error page).
 */
export function reloadOnceForChunk(now: number = Date.now()): boolean {
  if (navigator.onLine === false) return false;
  try {
    const last = Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY));
    if (last > 0 && now - last < CHUNK_RELOAD_GUARD_MS) return false;
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  reloadPage();
  return true;
}
