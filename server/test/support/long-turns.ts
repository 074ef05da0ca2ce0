import { stat } from 'node:fs';

/** Keeps this thread's event loop busy for `ms`. */
export function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/**
 * I/O callbacks that each keep this process's event loop busy for `ms`, `chains` of them going at
 * once, so that every turn of the loop runs a few of them — as a crowd's requests fill every turn
 * (they run in the poll phase, as a request's handler does). With one chain, a turn measured just
 * after a callback would often find its next file system answer not back yet. Returns the function
 * that stops them.
 */
export function longTurns(ms: number, chains = 4): () => void {
  let stopped = false;
  const next = () =>
    stat('.', () => {
      if (stopped) return;
      busyFor(ms);
      next();
    });
  for (let i = 0; i < chains; i += 1) next();
  return () => {
    stopped = true;
  };
}
