import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../../server/test/support/child-server.js';
import { readManifest, TESTDATA } from '../../server/test/support/images.js';

const CLI = path.resolve(import.meta.dirname, '../bin/photo-library.mjs');

/** What `photo-library import --json` prints (cli/src/import.js). */
interface Summary {
  dryRun: boolean;
  interrupted: boolean;
  uploaded: { file: string; imageId: string }[];
  duplicates: { file: string; why: string }[];
  refused: { file: string; reason: string }[];
  skipped: { file: string; reason: string }[];
  failed: { file: string; error: string }[];
  unfinished: string[];
  bytes: { toUpload: number; sent: number; alreadyOnServer: number };
}

/**
 * The importer against a real server process: interrupted by the server dying (SIGKILL) half-way,
 * run again after a restart on the same DATA_DIR, it finishes with every photo present once and
 * sends only what the server did not have. A proxy in front counts the upload bytes the server gets
 * (and slows them, so the kill lands in the middle of files).
 */
describe('photo-library import', () => {
  let dataDir: string;
  let work: string;
  let server: ChildServer;
  let proxy: CountingProxy;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photo-cli-data-'));
    work = await mkdtemp(path.join(os.tmpdir(), 'photo-cli-work-'));
    server = await startChildServer({}, { dataDir });
    proxy = await startCountingProxy(() => server.url, 1.5 * 1024 * 1024);
    await signUp('admin'); // the first account is the admin; the imports below are plain accounts'
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  async function signUp(prefix: string): Promise<string> {
    const id = `${prefix}${Math.random().toString(36).slice(2, 8)}`;
    const res = await fetch(`${server.url}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: id, email: `${id}@example.com`, password: `pw-${id}` }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { token: string }).token;
  }

  function runCli(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; summary: Summary; stderr: string }> } {
    const child = spawn(process.execPath, [CLI, 'import', TESTDATA, '--server', proxy.url, '--json', ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: path.join(work, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const done = new Promise<{ code: number | null; summary: Summary; stderr: string }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => {
        try {
          resolve({ code, summary: JSON.parse(stdout) as Summary, stderr });
        } catch {
          reject(new Error(`no summary (exit ${code}):\n${stdout}\n${stderr}`));
        }
      });
    });
    return { child, done };
  }

  it('resumes after the server was killed half-way: every good photo once, only the missing bytes sent, broken files reported', async () => {
    const token = await signUp('importer');
    const manifest = await readManifest();
    const contents = await Promise.all(manifest.map(async (entry) => ({ entry, bytes: await readFile(path.join(TESTDATA, entry.file)) })));
    const good = new Set(contents.filter((c) => c.entry.expectDecodable).map((c) => sha256(c.bytes)));
    const imageBytes = contents.filter((c) => c.bytes.length > 0 && c.entry.file !== 'broken/not_an_image.jpg').reduce((sum, c) => sum + c.bytes.length, 0);
    const statePath = path.join(work, 'state.json');

    // First run: the server dies (SIGKILL) once about 40% of the bytes went through, then Ctrl-C.
    proxy.reset();
    const first = runCli(['--token', token, '--state', statePath, '--parallel', '3']);
    await proxy.waitForBytes(imageBytes * 0.4, 60_000);
    await server.kill();
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.child.kill('SIGINT');
    const run1 = await first.done;
    expect(run1.code).toBe(130);
    expect(run1.summary.interrupted).toBe(true);
    expect(run1.summary.unfinished.length).toBeGreaterThan(0);

    // The server comes back on the same DATA_DIR (finishing what it had all bytes of).
    server = await startChildServer({}, { dataDir });
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { uploads: Record<string, { url: string; size: number }> };
    const begun = Object.values(state.uploads);
    expect(begun.length).toBeGreaterThan(0);
    // What the server holds of each upload begun, once it has finished those it had every byte of.
    let heldOfUnfinished = 0;
    for (const { url } of begun) {
      const direct = new URL(new URL(url).pathname, server.url);
      const outcome = await eventuallySettled(`${server.url}/api/uploads/${direct.pathname.split('/').pop()}/outcome`, token);
      if (outcome.status === 'kept' || outcome.status === 'duplicate') continue; // in the library now: skipped by the check
      const head = await fetch(direct, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` } });
      expect(head.status).toBe(200);
      heldOfUnfinished += Number(head.headers.get('upload-offset'));
    }
    expect(heldOfUnfinished).toBeGreaterThan(0);

    // Second run: continues where it stopped.
    proxy.reset();
    const run2 = await runCli(['--token', token, '--state', statePath, '--parallel', '3']).done;
    expect(run2.code, run2.stderr).toBe(0);
    expect(run2.summary.failed).toEqual([]);
    expect(run2.summary.interrupted).toBe(false);
    // The server got exactly what the importer sent, and that was only what it lacked.
    expect(proxy.bytes()).toBe(run2.summary.bytes.sent);
    expect(run2.summary.bytes.alreadyOnServer).toBe(heldOfUnfinished);
    expect(run2.summary.bytes.sent + run2.summary.bytes.alreadyOnServer).toBe(run2.summary.bytes.toUpload);

    // Every good photo is in the library exactly once.
    const library = await fetch(`${server.url}/api/gridimages?page=1&limit=200`, { headers: { authorization: `Bearer ${token}` } });
    const page = (await library.json()) as { images: { FileName: string }[]; pagination: { totalImages: number } };
    expect(page.pagination.totalImages).toBe(good.size);
    const check = await fetch(`${server.url}/api/uploads/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ files: contents.filter((c) => c.entry.expectDecodable).map((c) => ({ sha256: sha256(c.bytes), size: c.bytes.length })) }),
    });
    expect(((await check.json()) as { known: unknown[] }).known).toHaveLength(good.size);

    // Broken files are reported: refused by the server with its reasons, or skipped as not images.
    const refused = new Map(run2.summary.refused.map((r) => [r.file, r.reason]));
    expect([...refused.keys()].sort()).toEqual(['broken/decompression_bomb.gif', 'broken/truncated-sony-xperia-z5c.jpg', 'broken/truncated_jpeg.jpg', 'broken/zero-height-sof.jpg']);
    expect(refused.get('broken/decompression_bomb.gif')).toMatch(/over the \d+ megapixel limit/);
    expect(refused.get('broken/truncated_jpeg.jpg')).toMatch(/could not be decoded/);
    expect(run2.summary.skipped).toEqual(
      expect.arrayContaining([
        { file: 'broken/empty.jpg', reason: 'empty file' },
        { file: 'broken/not_an_image.jpg', reason: 'not an image' },
        { file: 'manifest.json', reason: 'not an image' },
      ]),
    );

    // A third run has nothing left to send.
    proxy.reset();
    const run3 = await runCli(['--token', token, '--state', statePath]).done;
    expect(run3.code).toBe(0);
    expect(run3.summary.uploaded).toEqual([]);
    expect(proxy.bytes()).toBe(0);
    expect(proxy.tusRequests()).toBe(0);
  });

  it('sends nothing with --dry-run, and says what it would do', async () => {
    const token = await signUp('dry');
    proxy.reset();
    const { code, summary } = await runCli(['--token', token, '--state', path.join(work, 'dry.json'), '--dry-run']).done;
    expect(code).toBe(0);
    expect(summary.dryRun).toBe(true);
    expect(summary.unfinished.length).toBeGreaterThan(40);
    expect(summary.unfinished).toContain('large/canon-eos-5d-mark-iii-22mp.jpg');
    expect(summary.bytes.toUpload).toBeGreaterThan(10_000_000);
    expect(proxy.tusRequests()).toBe(0);
    expect(proxy.bytes()).toBe(0);
    const library = await fetch(`${server.url}/api/gridimages?page=1&limit=10`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await library.json()) as { pagination: { totalImages: number } }).pagination.totalImages).toBe(0);
  });
});

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The outcome of an upload once the server is no longer processing it (409 with Retry-After). */
async function eventuallySettled(url: string, token: string): Promise<{ status?: string }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 200) return (await res.json()) as { status: string };
    if (res.status !== 409 || !res.headers.get('retry-after')) return {};
    if (Date.now() > deadline) throw new Error(`${url} is still being processed`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface CountingProxy {
  url: string;
  /** Body bytes of tus requests forwarded to the server since the last reset. */
  bytes(): number;
  tusRequests(): number;
  waitForBytes(bytes: number, timeoutMs: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy to whatever server is current, that counts tus requests and their body bytes and
 * forwards those bodies at `bytesPerSecond` (so a run takes long enough to be cut in the middle).
 */
async function startCountingProxy(target: () => string, bytesPerSecond: number): Promise<CountingProxy> {
  let bytes = 0;
  let requests = 0;
  const proxy = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', target());
    const tus = /^\/api\/uploads(\/[0-9a-f]{32})?$/.test(url.pathname) && req.method !== 'OPTIONS';
    if (tus) requests += 1;
    const upstream = http.request(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.on('close', () => {
      if (!req.complete) upstream.destroy();
    });
    req.on('data', (chunk: Buffer) => {
      if (tus) bytes += chunk.length;
      upstream.write(chunk);
      if (tus) {
        req.pause();
        setTimeout(() => req.resume(), (chunk.length / bytesPerSecond) * 1000);
      }
    });
    req.on('end', () => upstream.end());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes: () => bytes,
    tusRequests: () => requests,
    async waitForBytes(wanted, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (bytes < wanted) {
        if (Date.now() > deadline) throw new Error(`only ${bytes} of ${wanted} bytes went through`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    reset() {
      bytes = 0;
      requests = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
