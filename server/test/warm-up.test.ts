import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, Socket } from 'node:net';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sendToSelf } from '../src/warm-up/self-requests.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { apiClient, newPerson } from './support/http.js';
import { tinyPng, upload } from './support/images.js';

/**
 * Before it listens, the server browses its own library for a moment over real loopback sockets,
 * so the first people find its code optimized and its shared caches warm (decision 0037).
 */
describe('sending requests through the server’s own handler (sendToSelf)', () => {
  const answering = (seen: { url: string; realSocket: boolean; remote: string | undefined; header: string | undefined }[]) =>
    (req: IncomingMessage, res: ServerResponse) => {
      seen.push({ url: req.url ?? '', realSocket: req.socket instanceof Socket, remote: req.socket.remoteAddress, header: req.headers['x-warm'] as string | undefined });
      const body = Buffer.from(JSON.stringify({ answer: seen.length }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    };

  it('sends the requests asked for over real sockets from 127.0.0.1, each told the last answer on its connection, then closes its listener', async () => {
    const seen: Parameters<typeof answering>[0] = [];
    let port = 0;
    const handler = answering(seen);
    const answered = await sendToSelf({
      handler: (req, res) => {
        port = req.socket.localPort ?? 0;
        handler(req, res);
      },
      headers: 'X-Warm: yes\r\n',
      count: 25,
      until: performance.now() + 10_000,
      connections: 3,
      nextPath: (index, last) => `/step/${index}?last=${last.length > 0 ? (JSON.parse(last.toString()) as { answer: number }).answer : 0}`,
    });
    expect(answered).toBe(25);
    expect(seen.map((s) => Number(s.url.split('?')[0]?.slice('/step/'.length))).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(seen.every((s) => s.realSocket && s.remote === '127.0.0.1' && s.header === 'yes')).toBe(true);
    // The first request on each of the 3 connections had no answer before it; every later one had.
    expect(seen.filter((s) => s.url.endsWith('?last=0'))).toHaveLength(3);
    // Its listener is gone.
    const refused = await new Promise<boolean>((resolve) => connect(port, '127.0.0.1').once('connect', () => resolve(false)).once('error', () => resolve(true)));
    expect(refused).toBe(true);
  });

  it('stops at its deadline, gives up on an answer missing at it, and fails on an answer it cannot delimit', async () => {
    const seen: Parameters<typeof answering>[0] = [];
    expect(await sendToSelf({ handler: answering(seen), headers: '', count: 10, until: performance.now() - 1, connections: 2, nextPath: () => '/' })).toBe(0);
    expect(seen).toHaveLength(0);
    // An answer that never comes fails at the deadline instead of holding up the start.
    const silent = () => undefined;
    const started = performance.now();
    await expect(sendToSelf({ handler: silent, headers: '', count: 3, until: performance.now() + 300, connections: 2, nextPath: () => '/' })).rejects.toThrow(/deadline/);
    expect(performance.now() - started).toBeLessThan(2_000);
    const chunked = (_req: IncomingMessage, res: ServerResponse) => {
      res.write('sent in chunks, ');
      res.end('no length given');
    };
    await expect(sendToSelf({ handler: chunked, headers: '', count: 3, until: performance.now() + 10_000, connections: 1, nextPath: () => '/' })).rejects.toThrow(/Content-Length/);
  });
});

describe('the warm-up at start (a real server process)', () => {
  let server: ChildServer | undefined;
  let dataDir = '';
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** What the warm-up must leave as it was: every row that a read could have touched. */
  const stateOf = (file: string) => {
    const db = new SQLite(file, { readonly: true });
    try {
      const count = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      return {
        version: db.prepare('select * from library_state').all(),
        touches: count('library_touches'),
        removals: count('library_removals'),
        limits: count('rate_limits'),
        images: count('images'),
        likes: count('likes'),
        imageTags: count('image_tags'),
        tags: db.prepare('select name, usage_count from tags order by name').all(),
        users: db.prepare('select id, token_version, updated_at from users order by id').all(),
      };
    } finally {
      db.close();
    }
  };

  it('browses the library as its first admin before it listens, and writes nothing', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photo-warm-up-'));
    // Nobody has signed up: nothing to send as, so nothing is sent.
    server = await startChildServer({ LOG_LEVEL: 'info' }, { dataDir });
    expect(server.output()).not.toMatch(/request paths warmed/);
    const api = apiClient(server.url);
    const admin = (await api.post<{ token: string }>('/signup', newPerson('warm'))).body.token;
    const files = await Promise.all([1, 2, 3].map(async (seed) => ({ name: `warm-${seed}.png`, source: await tinyPng(seed) })));
    expect((await upload(server.url, admin, files)).status).toBe(200);
    await api.post('/images/1/addTag', { tag: 'harbour' }, admin);
    await server.stop();

    const before = stateOf(path.join(dataDir, 'photos.sqlite'));
    server = await startChildServer({ LOG_LEVEL: 'info', WARM_UP_REQUESTS: '120' }, { dataDir });
    const warmed = /"requests":(\d+),"ms":\d+,"msg":"request paths warmed"/.exec(server.output());
    expect(warmed?.[1], server.output()).toBe('120');
    // Warmed before it answered anyone: the line precedes the one saying it runs.
    expect(server.output().indexOf('request paths warmed')).toBeLessThan(server.output().indexOf('Photo Library is running'));
    await server.stop();
    expect(stateOf(path.join(dataDir, 'photos.sqlite'))).toEqual(before);

    // WARM_UP_REQUESTS=0: none.
    server = await startChildServer({ LOG_LEVEL: 'info', WARM_UP_REQUESTS: '0' }, { dataDir });
    expect(server.output()).not.toMatch(/request paths warmed/);
  }, 120_000);
});
