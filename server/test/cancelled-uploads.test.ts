import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { eventually } from './support/eventually.js';
import { apiClient, newPerson } from './support/http.js';
import { listFiles, TESTDATA, tinyPng } from './support/images.js';

/** One line of the server's log (pino's JSON). */
interface LogLine {
  level: number;
  msg?: string;
  err?: { stack?: string; message?: string };
  [key: string]: unknown;
}

const INFO = 30;

/**
 * A person who cancels an upload, or loses the network, closes the connection in the middle of its
 * body. That is not the server's trouble: at most an info line without a stack trace, no error
 * answer counted against the server, and nothing half-written. Over real sockets cut mid-body, on a
 * real server process whose log (LOG_LEVEL=info, JSON lines) is read.
 */
describe('a client that goes away in the middle of an upload (sqlite, a real process and its log)', () => {
  let server: ChildServer;
  let token: string;
  let big: Buffer;

  beforeAll(async () => {
    server = await startChildServer({ LOG_LEVEL: 'info' });
    const signedUp = await apiClient(server.url).post<{ token: string }>('/signup', newPerson('cancel'));
    expect(signedUp.status).toBe(201);
    token = signedUp.body.token;
    big = await readFile(path.join(TESTDATA, 'large/canon-eos-5d-mark-iii-22mp.jpg'));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** The log lines written since `mark` (an offset into the output). */
  const logSince = (mark: number): LogLine[] =>
    server
      .output()
      .slice(mark)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  /** Sends the request's head and the first `sendBytes` of its body on a raw socket, lets the server read them, then cuts the connection. */
  function sendThenCut(head: string, body: Buffer, sendBytes: number): Promise<void> {
    const url = new URL(server.url);
    return new Promise((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(`${head}Host: ${url.host}\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\n\r\n`);
        socket.write(body.subarray(0, sendBytes), () =>
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 300),
        );
      });
      socket.on('error', () => resolve());
    });
  }

  function multipart(boundary: string, parts: { field: string; name: string; data: Buffer }[]): Buffer {
    return Buffer.concat([
      ...parts.map(({ field, name, data }) =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
          data,
          Buffer.from('\r\n'),
        ]),
      ),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
  }

  /** Waits until the server has written a line about the cut request (ours at info, or an error before the fix). */
  async function untilLogged(mark: number, about: RegExp): Promise<void> {
    await eventually(async () => expect(logSince(mark).some((line) => about.test(line.msg ?? '') && line.level >= INFO)).toBe(true), 10_000, 50);
    // Anything else the request writes comes with it.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  /** No warning or error, no stack trace, and no request counted as the server's failure (a 5xx). */
  function expectOnlyInfo(lines: LogLine[]): void {
    const serious = lines.filter((line) => line.level > INFO || line.err?.stack || Number(line['statusCode']) >= 500);
    expect(serious, JSON.stringify(serious, null, 1).slice(0, 2000)).toEqual([]);
  }

  const tempFiles = () => readdir(path.join(server.dataDir, 'tmp')).catch(() => [] as string[]);
  const imageNames = () => {
    const db = new SQLite(path.join(server.dataDir, 'photos.sqlite'), { readonly: true });
    try {
      // By name: the two whole files are processed side by side, so either may be stored first.
      return (db.prepare('select file_name from images order by file_name').all() as { file_name: string }[]).map((row) => row.file_name);
    } finally {
      db.close();
    }
  };

  it('a bulk upload cut in its third file: the two whole files are kept, the third is not, and an info line says the client left', async () => {
    const boundary = 'cancelBoundary7';
    const files = [
      { field: 'images', name: 'whole-1.png', data: await tinyPng(95_001) },
      { field: 'images', name: 'whole-2.png', data: await tinyPng(95_002) },
      { field: 'images', name: 'cut-off.jpg', data: big },
      { field: 'images', name: 'never-sent.png', data: await tinyPng(95_003) },
    ];
    const body = multipart(boundary, files);
    const mark = server.output().length;
    // Half of the big third file.
    await sendThenCut(`POST /bulk-upload HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n`, body, body.indexOf('cut-off.jpg') + big.length / 2);

    await untilLogged(mark, /upload/);
    const lines = logSince(mark);
    expectOnlyInfo(lines);
    expect(lines.filter((line) => line.level === INFO).map((line) => line.msg)).toContain('the client closed the connection before its upload was complete');
    // Nothing half-written: the whole files are kept, the cut one is nowhere, the temporary files are gone.
    await eventually(async () => {
      expect(imageNames()).toEqual(['whole-1.png', 'whole-2.png']);
      expect(await tempFiles()).toEqual([]);
    });
  });

  it('a profile picture cut off: the profile keeps none, nothing is stored, and an info line says the client left', async () => {
    const boundary = 'profileBoundary9';
    const body = multipart(boundary, [{ field: 'profileImage', name: 'me.jpg', data: big }]);
    const mark = server.output().length;
    await sendThenCut(`POST /upload-profile-image HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n`, body, 500_000);

    await untilLogged(mark, /connection|error/);
    const lines = logSince(mark);
    expectOnlyInfo(lines);
    expect(lines.filter((line) => line.level === INFO).map((line) => line.msg)).toContain('the client closed the connection before its request was complete');
    const profile = await apiClient(server.url).get<{ profileImage: string | null }>('/api/profile', token);
    expect(profile.body.profileImage).toBeNull();
    expect((await listFiles(server.dataDir)).filter((file) => file.includes('profiles'))).toEqual([]);
    expect(await tempFiles()).toEqual([]);
  });

  it('a tus PATCH cut mid-body: no error is logged, and the upload resumes from the bytes that arrived', async () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const created = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, 'upload-length': String(big.length), 'upload-metadata': `filename ${b64('tus-cut.jpg')}` },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    const mark = server.output().length;
    await sendThenCut(`PATCH ${location} HTTP/1.1\r\nTus-Resumable: 1.0.0\r\nContent-Type: application/offset+octet-stream\r\nUpload-Offset: 0\r\n`, big, 1_000_000);

    const head = () => fetch(`${server.url}${location}`, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` } });
    let offset = 0;
    await eventually(async () => {
      const answer = await head();
      expect(answer.status).toBe(200);
      offset = Number(answer.headers.get('upload-offset'));
      expect(offset).toBeGreaterThan(0);
    });
    const rest = await fetch(`${server.url}${location}`, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
      body: big.subarray(offset),
    });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ fileName: 'tus-cut.jpg', status: 'kept' });
    expectOnlyInfo(logSince(mark));
  });
});
