import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newPerson } from './support/http.js';

const serverDir = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy');
}

describe('the server process', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  function startProcess(env: Record<string, string>) {
    return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, LOG_LEVEL: 'debug', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  it('finishes in-flight requests on SIGTERM, closes the database and exits 0', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photo-proc-'));
    dirs.push(dataDir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = startProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForHealth(url);

    // Sign-up hashes a password (tens of milliseconds): the signal arrives while it is in flight.
    const inFlight = fetch(`${url}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(newPerson()),
    });
    // Signal only once the server has the request: one that arrives after shutdown began is
    // rightly refused with 503, which is not what this test is about.
    const deadline = Date.now() + 5_000;
    while (!/"url":"\/signup"/.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(output).toMatch(/"url":"\/signup"/);
    child.kill('SIGTERM');

    const response = await inFlight;
    expect(response.status).toBe(201);
    expect(await exited).toBe(0);
    expect(output).toContain('shutting down');
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    // A cleanly closed SQLite database leaves no write-ahead log behind.
    expect(await readdir(dataDir)).not.toContain('photos.sqlite-wal');
  });

  it('refuses to start on a bad setting, naming it', async () => {
    const child = startProcess({ PORT: 'not-a-port' });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(errors).toMatch(/PORT/);
  });
});
