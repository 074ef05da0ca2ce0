import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const loader = new URL('../src/image-processing/sharp-loader.ts', import.meta.url).href;

/** sharp's threads per pipeline and its cache, as a fresh process with `env` loads it through sharp-loader.ts. */
function loadedIn(env: Record<string, string>): { concurrency: number; cache: { items: { max: number } } } {
  const script = `const { loadSharp } = await import(${JSON.stringify(loader)}); const sharp = await loadSharp(); console.log(JSON.stringify({ concurrency: sharp.concurrency(), cache: sharp.cache() }));`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!('VIPS_CONCURRENCY' in env)) delete childEnv.VIPS_CONCURRENCY;
  const run = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { env: childEnv, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as ReturnType<typeof loadedIn>;
}

describe('sharp as the server and the decoder process load it', () => {
  // npm start sets MALLOC_ARENA_MAX, and sharp then keeps one libvips thread per core for each
  // pipeline; two photos decode at once, each mostly serial, so one each (decision 0021).
  it.skipIf(os.availableParallelism() < 2)('runs one libvips thread per pipeline under npm start’s malloc settings', () => {
    const sharp = loadedIn({ MALLOC_ARENA_MAX: '1' });
    expect(sharp.concurrency).toBe(1);
    expect(sharp.cache.items.max).toBe(0);
  }, 30_000);

  it('leaves VIPS_CONCURRENCY to whoever sets it', () => {
    expect(loadedIn({ MALLOC_ARENA_MAX: '1', VIPS_CONCURRENCY: '3' }).concurrency).toBe(3);
  }, 30_000);
});
