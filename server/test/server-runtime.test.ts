import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the repository's scripts (no types).
import { SERVER_NODE_ARGS, SERVER_RUNTIME_ENV } from '../../scripts/server-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const startCommand = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';

// The benchmark runs the server with scripts/server-runtime.mjs's settings; `npm start` must run it the same way.
describe('npm start runs the server as the benchmark measures it', () => {
  it.each(Object.entries(SERVER_RUNTIME_ENV as Record<string, string>))('sets %s to %s unless the environment does', (key, value) => {
    expect(startCommand).toContain(`${key}=\${${key}:-${value}}`);
  });

  it.each(SERVER_NODE_ARGS as string[])('passes %s to node', (arg) => {
    expect(startCommand).toMatch(new RegExp(`\\bnode\\b[^&|;]*${arg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^&|;]*scripts/start\\.mjs`));
  });
});
