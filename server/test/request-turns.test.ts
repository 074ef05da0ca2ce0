import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestTurns } from '../src/http/request-turns.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { apiClient, newPerson } from './support/http.js';
import { tinyPng, upload } from './support/images.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('request turns', () => {
  it('starts every request at once while no connection is being taken', () => {
    const turns = new RequestTurns();
    const started: number[] = [];
    for (let i = 0; i < 1_000; i += 1) turns.enter(() => started.push(i));
    expect(started).toHaveLength(1_000);
    expect(turns.waitingCount).toBe(0);
  });

  it('while connections are taken, starts a share per turn in arrival order, then all once none came for a turn', async () => {
    const turns = new RequestTurns();
    const started: number[] = [];
    turns.connectionTaken();
    for (let i = 0; i < 1_000; i += 1) turns.enter(() => started.push(i));
    const firstTurn = started.length;
    expect(firstTurn).toBeGreaterThan(0);
    expect(firstTurn).toBeLessThan(1_000);
    turns.connectionTaken();
    await nextTurn();
    expect(started.length).toBeGreaterThan(firstTurn);
    expect(started.length).toBeLessThan(1_000);
    // No connection since: the turns after let everyone in.
    for (let i = 0; i < 3 && started.length < 1_000; i += 1) await nextTurn();
    expect(started).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
  });

  it('lets the first request of a new connection go before the waiting ones', async () => {
    const turns = new RequestTurns();
    const started: string[] = [];
    turns.connectionTaken();
    for (let i = 0; i < 1_000; i += 1) turns.enter(() => started.push(`crowd ${i}`));
    turns.enter(() => started.push('newcomer'), true);
    turns.connectionTaken();
    await nextTurn();
    expect(started).toContain('newcomer');
    expect(started.length).toBeLessThan(1_000);
  });

  it('does not let a stream of new connections hold up the requests already waiting', async () => {
    // A budget so small that each turn starts one request of each queue at most.
    const turns = new RequestTurns(0.000_001);
    const crowd: number[] = [];
    const newcomers: number[] = [];
    turns.connectionTaken();
    for (let i = 0; i < 100; i += 1) turns.enter(() => crowd.push(i));
    const before = crowd.length;
    for (let turn = 0; turn < 10; turn += 1) {
      turns.connectionTaken();
      turns.enter(() => newcomers.push(turn), true);
      await nextTurn();
    }
    expect(newcomers).toHaveLength(10);
    expect(crowd.length - before).toBeGreaterThanOrEqual(9);
    expect(crowd.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => i));
  });
});

/**
 * A crowd keeps one server busy on keep-alive connections; newcomers connect meanwhile. libuv takes
 * one connection per turn of the event loop, and a turn used to serve one request of everyone in
 * the crowd, so the last newcomers waited 40–97 rounds of the crowd. Counted in the crowd's rounds,
 * not in milliseconds, so a slower machine does not change the verdict.
 */
describe('newcomers while a crowd is served (real server process)', () => {
  const CROWD = 300;
  const NEWCOMERS = 40;
  let server: ChildServer;
  let token: string;

  beforeAll(async () => {
    server = await startChildServer();
    const api = apiClient(server.url);
    const signedUp = await api.post<{ token: string }>('/signup', newPerson('turns'));
    token = signedUp.body.token;
    const files = await Promise.all(Array.from({ length: 50 }, async (_, i) => ({ source: await tinyPng(9_000 + i), name: `crowd-${i}.png` })));
    const uploaded = await upload(server.url, token, files);
    expect(uploaded.status).toBe(200);
  }, 120_000);
  afterAll(async () => server?.stop());

  it('lets the newcomers in within a few rounds of the crowd, not one round each', async () => {
    const { port } = new URL(server.url);
    const request = `GET /api/gridimages?page=1&limit=50 HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n\r\n`;
    let answered = 0;
    let crowdRunning = true;
    // The crowd on raw keep-alive sockets: a request, then the next as soon as the answer is in.
    // Next to nothing on this side, so the server is the busy one, as with people on other machines.
    const crowd = await Promise.all(Array.from({ length: CROWD }, () => keepAlive(Number(port), request, () => crowdRunning, () => (answered += 1))));
    try {
      // Everyone in the crowd connected and answered a few times.
      while (answered < CROWD * 5) await new Promise((resolve) => setTimeout(resolve, 50));
      const url = new URL('/api/gridimages?page=1&limit=50', server.url);
      const newcomersWait = async () => {
        const waited = await Promise.all(
          Array.from({ length: NEWCOMERS }, async () => {
            const before = answered;
            const status = await new Promise<number>((resolve, reject) => {
              const req = http.get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
              });
              req.on('error', reject);
            });
            expect(status).toBe(200);
            return (answered - before) / CROWD;
          }),
        );
        return Math.max(...waited);
      };
      // Measured: 4–7 rounds with the turns, 40–97 without, in every wave. Under CI's load (other
      // test files on the same two cores) one wave once took 33 rounds, so up to three waves are
      // sent and the best must be under 20: the defect fails all three.
      const longest: number[] = [];
      for (let wave = 0; wave < 3 && !(Math.min(...longest) < 20); wave += 1) longest.push(await newcomersWait());
      expect(Math.min(...longest)).toBeLessThan(20);
    } finally {
      crowdRunning = false;
      await Promise.all(crowd.map((client) => client.done));
    }
  }, 120_000);
});

/**
 * One keep-alive connection sending `request` again each time an answer (status 200, with a
 * content-length) has fully arrived, while `running()`; resolves once connected.
 */
function keepAlive(port: number, request: string, running: () => boolean, onAnswer: () => void): Promise<{ done: Promise<void> }> {
  return new Promise((resolveConnected, rejectConnected) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffered: Buffer = Buffer.alloc(0);
    let done: (error?: Error) => void = () => undefined;
    const finished = new Promise<void>((resolve, reject) => {
      done = (error) => (error ? reject(error) : resolve());
    });
    socket.once('connect', () => {
      socket.write(request);
      resolveConnected({ done: finished });
    });
    socket.once('error', (error) => {
      rejectConnected(error);
      done(error);
    });
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      for (;;) {
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = buffered.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
        if (!head.startsWith('HTTP/1.1 200') || !Number.isFinite(length)) {
          socket.destroy();
          done(new Error(`unexpected answer: ${head.split('\r\n')[0]}`));
          return;
        }
        if (buffered.length < headEnd + 4 + length) return;
        buffered = buffered.subarray(headEnd + 4 + length);
        onAnswer();
        if (!running()) {
          socket.end();
          done();
          return;
        }
        socket.write(request);
      }
    });
  });
}
