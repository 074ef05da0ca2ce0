import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The server runs with V8's 16 MB young generation and gives it back at rest (decision 0038):
 * `shrinkYoungGeneration` must bring it down to its smallest size. Run in a process of its own,
 * started with the server's young-generation setting (this test runner's process has its own).
 */
const SCRIPT = `
import { getHeapSpaceStatistics } from 'node:v8';
import { shrinkYoungGeneration } from './src/shared/collect-garbage.ts';
const youngMB = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 1048576;
let kept = [];
for (let i = 0; i < 2_000_000; i += 1) {
  kept.push({ i, text: 'x' + i });
  if (kept.length > 50_000) kept = [];
}
const grown = youngMB();
const warnings = [];
process.on('warning', (warning) => warnings.push(warning.name));
await shrinkYoungGeneration();
await new Promise((resolve) => setTimeout(resolve, 50));
console.log(JSON.stringify({ grown, shrunk: youngMB(), warnings }));
`;

describe('shrinkYoungGeneration', () => {
  it('gives a grown young generation back down to its smallest size, without printing a warning', () => {
    const run = spawnSync(process.execPath, ['--max-semi-space-size=16', '--conditions=source', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: new URL('..', import.meta.url).pathname,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const { grown, shrunk, warnings } = JSON.parse(run.stdout.trim().split('\n').pop() as string) as { grown: number; shrunk: number; warnings: string[] };
    expect(grown).toBeGreaterThanOrEqual(16);
    expect(shrunk).toBeLessThanOrEqual(2);
    expect(warnings).toEqual([]);
    expect(run.stderr).not.toMatch(/ExperimentalWarning/);
  }, 30_000);
});
