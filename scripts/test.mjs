// `npm test`: every test of the project — unit and integration (Vitest: contract, server on SQLite
// and PostgreSQL, web) then end to end (Playwright in Chromium against the built app) — and one
// closing line with the totals.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildIfStale, root } from './build-lib.mjs';

const results = path.join(root, '.test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const run = (command, args, options = {}) => spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options }).status ?? 1;

const vitestJson = path.join(results, 'vitest.json');
const vitestStatus = run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);

buildIfStale();
const playwrightJson = path.join(results, 'playwright.json');
const e2eStatus = run(bin('playwright'), ['test'], {
  cwd: path.join(root, 'e2e'),
  env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
});

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
}
if (existsSync(playwrightJson)) {
  const p = JSON.parse(readFileSync(playwrightJson, 'utf8')).stats;
  passed += p.expected + p.flaky;
  failed += p.unexpected;
  skipped += p.skipped;
}
// A runner that crashed before reporting still fails the run.
if (failed === 0 && (vitestStatus !== 0 || e2eStatus !== 0)) failed = 1;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
