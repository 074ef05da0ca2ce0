// Builds the server (tsc) and the web app (vite) when their sources are newer than their output.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) {
    if (child === 'node_modules' || child === 'dist' || child.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

const inputs = (...parts) => Math.max(...parts.map((p) => newestMtime(path.join(root, p))));
const output = (p) => (existsSync(path.join(root, p)) ? statSync(path.join(root, p)).mtimeMs : 0);

const targets = [
  {
    name: 'server',
    stale: () => output('server/dist/main.js') < inputs('contract/src', 'server/src', 'server/tsconfig.json', 'contract/tsconfig.json', 'tsconfig.base.json', 'package-lock.json'),
    command: [bin('tsc'), ['-b', 'server']],
  },
  {
    name: 'web app',
    stale: () => output('web/dist/index.html') < inputs('contract/src', 'web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'package-lock.json'),
    command: [bin('vite'), ['build', '--logLevel', 'warn'], { cwd: path.join(root, 'web') }],
  },
];

/** Builds what is missing or older than its sources; `force` builds everything. */
export function buildIfStale({ force = false } = {}) {
  for (const target of targets) {
    if (!force && !target.stale()) continue;
    console.log(`Building the ${target.name}...`);
    const [command, args, options = {}] = target.command;
    const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
    if (result.status !== 0) {
      console.error(`Building the ${target.name} failed.`);
      process.exit(result.status ?? 1);
    }
  }
}
