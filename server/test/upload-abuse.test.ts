import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson } from './support/http.js';
import { listFiles, tinyPng, upload, type UploadResult } from './support/images.js';
import { longTurns } from './support/long-turns.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/** A raw HTTP answer: status, headers and the body parsed as JSON when it is JSON. */
interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { message?: string; results?: UploadResult[] } & Record<string, unknown>;
}

function multipartPart(boundary: string, name: string, data: Buffer | string): Buffer {
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.from(data), Buffer.from('\r\n')]);
}

/** One request over node:http: exactly these headers and body bytes (or these chunks, paced), nothing added. */
function rawRequest(
  baseUrl: string,
  options: { method?: string; path: string; headers: Record<string, string>; body?: Buffer; chunks?: Buffer[]; paceMs?: number; agent?: false },
): Promise<RawAnswer> {
  const url = new URL(options.path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: options.method ?? 'POST', headers: options.headers, ...(options.agent === false ? { agent: false } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const json = (res.headers['content-type'] ?? '').includes('json');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json ? JSON.parse(text) : { text } });
        });
      },
    );
    req.on('error', reject);
    if (options.chunks) {
      const chunks = [...options.chunks];
      const next = () => {
        if (req.destroyed) return;
        const chunk = chunks.shift();
        if (!chunk) return void req.end();
        req.write(chunk);
        setTimeout(next, options.paceMs ?? 0);
      };
      next();
    } else {
      req.end(options.body);
    }
  });
}

/**
 * An upload that starts a file and then stalls, as a slow or hostile client would: it holds its
 * place until `socket.destroy()`.
 */
function stalledUpload(baseUrl: string, token: string): net.Socket {
  const url = new URL(baseUrl);
  const boundary = `stall${randomBytes(6).toString('hex')}`;
  const socket = net.connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined);
  socket.write(
    `POST /bulk-upload HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 500000\r\n\r\n`,
  );
  socket.write(multipartPart(boundary, 'slow.png', 'x'.repeat(2000)).subarray(0, -2));
  return socket;
}

/** The first whole HTTP answer arriving on a raw socket, as text. */
function readAnswer(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no whole answer within 5 s: ${text}`)), 5_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, end));
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('uploads and bodies under abuse (sqlite)', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  const tmpFiles = () => listFiles(path.join(server.dataDir, 'tmp'));

  async function signUp(): Promise<string> {
    const res = await api.post<{ token: string }>('/signup', newPerson());
    expect(res.status).toBe(201);
    return res.body.token;
  }

  beforeAll(async () => {
    // One image worker: at most 2 files of one request and 8 of all requests in DATA_DIR/tmp.
    server = await startTestServer('sqlite', { env: { IMAGE_WORKERS: '1', MAX_UPLOAD_REQUEST_MB: '1' } });
    api = apiClient(server.url);
    await signUp(); // the admin
  });

  afterAll(async () => server?.close());

  afterEach(async () => {
    // Whatever happened, no upload leaves a temporary file behind.
    await waitFor(async () => (await tmpFiles()).length === 0, 'DATA_DIR/tmp to be empty', 5_000);
  });

  it('keeps the first 1,000 files of one request and refuses each later one by name, with a 200', async () => {
    const token = await signUp();
    const png = await tinyPng(1001);
    const files = Array.from({ length: 1001 }, (_, i) => ({ source: png, name: `p${i + 1}.png` }));
    const res = await upload(server.url, token, files);
    expect(res.status).toBe(200);
    const results = res.body.results ?? [];
    expect(results).toHaveLength(1001);
    // The same picture 1,000 times: one is kept and the rest are its duplicates (files of one upload
    // are taken in in parallel, so which one is kept is not fixed), each answered under its own name.
    expect(results.slice(0, 1000).map((r) => r.fileName)).toEqual(files.slice(0, 1000).map((f) => f.name));
    expect(results.slice(0, 1000).filter((r) => r.status === 'kept')).toHaveLength(1);
    expect(results.slice(0, 1000).filter((r) => r.status === 'duplicate')).toHaveLength(999);
    expect(results[1000]).toEqual({
      fileName: 'p1001.png',
      status: 'refused',
      reason: 'Over the limit of 1,000 files in one upload; send this file again in another batch.',
    });
    expect(res.body.message).toBe('1000 images uploaded; 1 refused.');
  }, 60_000);

  describe('malformed multipart is a 400 naming the problem', () => {
    let token: string;
    beforeAll(async () => {
      token = await signUp();
    });
    const send = (contentType: string, body: Buffer) =>
      rawRequest(server.url, { path: '/bulk-upload', headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': String(body.length) }, body });

    it('no boundary in the Content-Type', async () => {
      const png = await tinyPng(1);
      const res = await send('multipart/form-data', Buffer.concat([multipartPart('xyz', 'a.png', png), Buffer.from('--xyz--\r\n')]));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: expect.stringMatching(/Content-Type names no boundary/), results: [] });
    });

    it('a boundary that never appears in the body', async () => {
      const png = await tinyPng(2);
      const res = await send('multipart/form-data; boundary=abc', Buffer.concat([multipartPart('xyz', 'a.png', png), Buffer.from('--xyz--\r\n')]));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: expect.stringMatching(/boundary its Content-Type names never appears/), results: [] });
    });

    it('a body without its closing boundary', async () => {
      const png = await tinyPng(3);
      const res = await send('multipart/form-data; boundary=xyz', multipartPart('xyz', 'a.png', png));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        message: expect.stringMatching(/ended early.*closing boundary/),
        results: [{ fileName: 'a.png', status: 'refused', reason: 'The upload ended before this file was complete.' }],
      });
    });

    it('a body cut off in its second file: the first is kept (200), the second refused', async () => {
      const [first, second] = await Promise.all([tinyPng(4), tinyPng(5)]);
      const body = Buffer.concat([multipartPart('xyz', 'whole.png', first), multipartPart('xyz', 'cut.png', second).subarray(0, -20)]);
      const res = await send('multipart/form-data; boundary=xyz', body);
      expect(res.status).toBe(200);
      expect(res.body.message).toMatch(/^1 image uploaded; 1 refused\. The upload ended early/);
      expect(res.body.results).toEqual([
        { fileName: 'whole.png', status: 'kept', imageId: expect.any(String) },
        { fileName: 'cut.png', status: 'refused', reason: 'The upload ended before this file was complete.' },
      ]);
    });
  });

  describe('a body over the limit always gets its 413 answer', () => {
    const big = Buffer.alloc(20 * 1024 * 1024, 'a');
    big.write('{"email":"', 0);
    const json = { 'content-type': 'application/json' };

    it('20 MB of JSON through fetch, 20 times', async () => {
      for (let i = 0; i < 20; i += 1) {
        const res = await fetch(new URL('/signin', server.url), { method: 'POST', headers: json, body: big });
        expect(res.status).toBe(413);
        expect(await res.json()).toMatchObject({ message: 'The request body is too large.' });
      }
    }, 60_000);

    it('20 MB of JSON sent chunked by node:http while the server answers, 20 times', async () => {
      const chunks = Array.from({ length: 20 }, (_, i) => big.subarray(i * 1048576, (i + 1) * 1048576));
      for (let i = 0; i < 20; i += 1) {
        const res = await rawRequest(server.url, { path: '/signin', headers: json, chunks, paceMs: 2 });
        expect(res.status).toBe(413);
        expect(res.body).toMatchObject({ message: 'The request body is too large.' });
      }
    }, 60_000);

    it('20 MB of JSON from a client that asks to close the connection, 20 times', async () => {
      const chunks = Array.from({ length: 80 }, (_, i) => big.subarray(i * 262144, (i + 1) * 262144));
      for (let i = 0; i < 20; i += 1) {
        const res = await rawRequest(server.url, { path: '/signin', headers: { ...json, 'content-length': String(big.length) }, chunks, agent: false });
        expect(res.status).toBe(413);
        expect(res.body).toMatchObject({ message: 'The request body is too large.' });
      }
    }, 60_000);
  });

  describe('the per-request byte limit (MAX_UPLOAD_REQUEST_MB=1 here)', () => {
    let token: string;
    let noise: Buffer[];
    beforeAll(async () => {
      token = await signUp();
      // Random pixels do not compress: ~400 KB each, so the third file crosses 1 MB.
      noise = await Promise.all(
        [1, 2, 3].map(() =>
          sharp(randomBytes(370 * 370 * 3), { raw: { width: 370, height: 370, channels: 3 } })
            .png({ compressionLevel: 0 })
            .toBuffer(),
        ),
      );
    });

    it('refuses a request that declares more at once, with a 413', async () => {
      const res = await upload(server.url, token, noise.map((source, i) => ({ source, name: `n${i}.png` })));
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ message: expect.stringMatching(/larger than the 1 MB limit for one request/), results: [] });
    });

    it('stops a chunked request at the limit: the files before are kept and listed, the one crossing it refused', async () => {
      const boundary = 'chunked-limit';
      const body = Buffer.concat([...noise.map((png, i) => multipartPart(boundary, `n${i}.png`, png)), Buffer.from(`--${boundary}--\r\n`)]);
      const chunks = Array.from({ length: Math.ceil(body.length / 65536) }, (_, i) => body.subarray(i * 65536, (i + 1) * 65536));
      const res = await rawRequest(server.url, {
        path: '/bulk-upload',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        chunks,
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toMatch(/^2 images uploaded; 1 refused\. The upload is larger than the 1 MB limit for one request/);
      expect(res.body.results).toEqual([
        { fileName: 'n0.png', status: 'kept', imageId: expect.any(String) },
        { fileName: 'n1.png', status: 'kept', imageId: expect.any(String) },
        { fileName: 'n2.png', status: 'refused', reason: expect.stringMatching(/went over its 1 MB limit during this file/) },
      ]);
    });
  });

  it('reads the next file only when processing has room: at most 2 files of a request wait in DATA_DIR/tmp', async () => {
    const token = await signUp();
    // Tiny on the wire, slow to decode (12 megapixels each): without back-pressure all would be on disk at once.
    const files = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => ({
        source: await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: i * 20, g: 90, b: 200 } } })
          .png({ compressionLevel: 9 })
          .toBuffer(),
        name: `wide${i}.png`,
      })),
    );
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, (await tmpFiles()).length);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const res = await upload(server.url, token, files);
    sampling = false;
    await sampler;
    expect(res.status).toBe(200);
    expect(res.body.results?.map((r) => r.status)).toEqual(Array(10).fill('kept'));
    expect(most).toBeGreaterThanOrEqual(1);
    expect(most).toBeLessThanOrEqual(2);
  }, 60_000);

  it('lets one person run 2 uploads at once; the next gets 429 with Retry-After, and a place frees when one ends', async () => {
    const token = await signUp();
    const stalled = [stalledUpload(server.url, token), stalledUpload(server.url, token)];
    await waitFor(async () => (await tmpFiles()).length === 2, 'both uploads to have started');
    const third = await upload(server.url, token, [{ source: await tinyPng(7001), name: 'third.png' }]);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.body.message).toMatch(/You already have 2 uploads in progress/);

    // Someone else is not held up by this person's uploads.
    const other = await upload(server.url, await signUp(), [{ source: await tinyPng(7002), name: 'other.png' }]);
    expect(other.status).toBe(200);

    for (const socket of stalled) socket.destroy();
    await waitFor(async () => (await tmpFiles()).length === 0, 'the abandoned uploads to be cleaned up');
    const again = await upload(server.url, token, [{ source: await tinyPng(7003), name: 'again.png' }]);
    expect(again.status).toBe(200);
  });

  it('answers new uploads with 503 and Retry-After while every upload place of the server is taken', async () => {
    const people = await Promise.all([signUp(), signUp(), signUp(), signUp()]);
    const stalled = people.flatMap((token) => [stalledUpload(server.url, token), stalledUpload(server.url, token)]);
    await waitFor(async () => (await tmpFiles()).length === 8, 'eight uploads to have started');
    const late = await upload(server.url, await signUp(), [{ source: await tinyPng(8001), name: 'late.png' }]);
    expect(late.status).toBe(503);
    expect(Number(late.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(late.body.message).toMatch(/busy with other uploads/);

    for (const socket of stalled) socket.destroy();
    await waitFor(async () => (await tmpFiles()).length === 0, 'the abandoned uploads to be cleaned up');
    const later = await upload(server.url, people[0] as string, [{ source: await tinyPng(8002), name: 'later.png' }]);
    expect(later.status).toBe(200);
  });

  it('answers new uploads with 503 and Retry-After while the event loop lags under a crowd, and takes them again after', async () => {
    const token = await signUp();
    // The server runs in this process: turns of 100–200 ms back to back, as 200 people browsing make them.
    const stopLongTurns = longTurns(40);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const busy = await upload(server.url, token, [{ source: await tinyPng(9001), name: 'busy.png' }]);
      expect(busy.status).toBe(503);
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(busy.body.message).toMatch(/busy serving other people/);
    } finally {
      stopLongTurns();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = await upload(server.url, token, [{ source: await tinyPng(9002), name: 'after.png' }]);
    expect(after.status).toBe(200);
  }, 20_000);
});

describe('an upload that stalls (UPLOAD_IDLE_TIMEOUT_S=1 here)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { UPLOAD_IDLE_TIMEOUT_S: '1' } });
    await apiClient(server.url).post('/signup', newPerson()); // the admin
  });

  afterAll(async () => server?.close());

  it('is stopped with a 408 listing its files, and gives its place back', async () => {
    const api = apiClient(server.url);
    const token = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
    const stalled = [stalledUpload(server.url, token), stalledUpload(server.url, token)];
    const texts = await Promise.all(stalled.map(readAnswer));
    for (const socket of stalled) socket.destroy();
    for (const text of texts) {
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as RawAnswer['body'];
      expect(body).toMatchObject({
        message: 'The upload sent nothing for 1 s and was stopped; send the files not listed as kept again.',
        results: [{ fileName: 'slow.png', status: 'refused', reason: 'The upload stalled during this file; send it again.' }],
      });
    }
    expect(await listFiles(path.join(server.dataDir, 'tmp'))).toEqual([]);
    const next = await upload(server.url, token, [{ source: await tinyPng(9001), name: 'next.png' }]);
    expect(next.status).toBe(200);
  });
});

/**
 * A real S3 server (s3rver) behind a forwarding proxy that refuses, as a bucket policy would (403
 * AccessDenied), every write of an object whose key contains one of `refused`.
 */
async function startRefusingBucket() {
  const s3 = await startS3Server();
  const target = new URL(s3.endpoint);
  const refused = new Set<string>();
  const proxy = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (req.method === 'PUT' && [...refused].some((hash) => url.includes(hash))) {
      req.resume();
      req.on('end', () => {
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      });
      return;
    }
    const forward = http.request({ host: target.hostname, port: target.port, method: req.method, path: url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.config.region,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    env: { ...s3.env, S3_ENDPOINT: endpoint },
    refused,
    async keys(): Promise<string[]> {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      return (listed.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    async stop() {
      client.destroy();
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await s3.stop();
    },
  };
}

describe.each(testDatabases)('a storage failure on one file (%s, a bucket that refuses one picture)', (database) => {
  let server: TestServer;
  let bucket: Awaited<ReturnType<typeof startRefusingBucket>>;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    bucket = await startRefusingBucket();
    server = await startTestServer(database, { env: bucket.env });
    api = apiClient(server.url);
    await api.post('/signup', newPerson()); // the admin
  });

  afterAll(async () => {
    await server?.close();
    await bucket?.stop();
  });

  it('refuses that file (could not be stored, try again) and keeps the others; nothing of it is left behind', async () => {
    const token = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
    const pngs = await Promise.all([tinyPng(501), tinyPng(502), tinyPng(503)]);
    const failing = sha256(pngs[1] as Buffer);
    bucket.refused.add(failing);

    const res = await upload(server.url, token, pngs.map((source, i) => ({ source, name: `s${i}.png` })));
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { fileName: 's0.png', status: 'kept', imageId: expect.any(String) },
      { fileName: 's1.png', status: 'refused', reason: 'The file could not be stored; please try again.' },
      { fileName: 's2.png', status: 'kept', imageId: expect.any(String) },
    ]);
    expect(await server.rows('select id from media where content_hash = ?', [failing])).toEqual([]);
    expect(await server.rows("select id from images where file_name = 's1.png'")).toEqual([]);
    const kept = [pngs[0], pngs[2]].map((png) => sha256(png as Buffer));
    expect(await bucket.keys()).toEqual(
      kept.flatMap((hash) => [`derived/${hash}/display.webp`, `derived/${hash}/thumb.webp`, `originals/${hash}`]).sort(),
    );
    expect(await listFiles(path.join(server.dataDir, 'tmp'))).toEqual([]);

    // Once the bucket takes it, the same file goes in.
    bucket.refused.delete(failing);
    const again = await upload(server.url, token, [{ source: pngs[1] as Buffer, name: 's1.png' }]);
    expect(again.body.results).toEqual([{ fileName: 's1.png', status: 'kept', imageId: expect.any(String) }]);
  });

  it('answers 503 when no file of the request could be stored', async () => {
    const token = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
    const png = await tinyPng(601);
    bucket.refused.add(sha256(png));
    const res = await upload(server.url, token, [{ source: png, name: 'only.png' }]);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      message: 'The file could not be stored; please try again.',
      results: [{ fileName: 'only.png', status: 'refused', reason: 'The file could not be stored; please try again.' }],
    });
    expect(await listFiles(path.join(server.dataDir, 'tmp'))).toEqual([]);
  });

  it('refuses every file whose temporary copy cannot be written, and still reads the files after it', async () => {
    const token = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
    const tmp = path.join(server.dataDir, 'tmp');
    await rm(tmp, { recursive: true, force: true });
    await writeFile(tmp, 'not a folder');
    try {
      const res = await upload(server.url, token, [
        { source: await tinyPng(701), name: 't1.png' },
        { source: await tinyPng(702), name: 't2.png' },
      ]);
      expect(res.status).toBe(503);
      expect(res.body.results).toEqual([
        { fileName: 't1.png', status: 'refused', reason: 'The file could not be stored; please try again.' },
        { fileName: 't2.png', status: 'refused', reason: 'The file could not be stored; please try again.' },
      ]);
    } finally {
      await rm(tmp, { force: true });
      await mkdir(tmp);
    }
  });
});
