import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * Loads a package the first time it is needed, synchronously. Large packages (sharp, exifr,
 * file-type, nodemailer, @tus/server) are not loaded at start, so an idle server does not hold them
 * (issue 14: idle memory). They are loaded with `require` (Node ≥ 20.19 loads ES modules this way
 * too) rather than `import()`: an `import()` walks the package's module graph one file read and one
 * event-loop turn at a time, and on a server answering hundreds of requests a second each turn
 * waits behind them — the first upload under load waited ~8 s for file-type alone (issue 13's
 * soak). Synchronously it is one pause of a few tens of milliseconds, once per process.
 */
export function loadOnFirstUse<T>(specifier: string): T {
  return requireHere(specifier) as T;
}
