import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startChildServer, type ChildServer } from './child-server.js';
import { createPostgresDatabase } from './databases.js';
import { apiClient, newPerson, nextClientIp, type ApiClient } from './http.js';
import { countRoundTrips, type RoundTripCounter } from './pg-round-trips.js';
import { startS3Server } from './s3.js';

export interface SignedUp {
  token: string;
  email: string;
  password: string;
}

/**
 * README "Scaling out", as the tests run it: two real app processes, A and B, with the same
 * DATABASE_URL (one fresh PostgreSQL database), S3_* (one s3rver bucket), JWT_SECRET and PUBLIC_URL,
 * called on their own ports as a load balancer would send one person's calls to either. Started
 * together (both run the migrations at once, as a deploy of several processes does) before the
 * file's tests; stopped, and everything removed, after them. `countRoundTripsOnB`: B reaches the
 * database through a relay that counts round trips on the wire (`relay`).
 */
export function useTwoProcesses(options: { jwtSecret: string; countRoundTripsOnB?: boolean }) {
  const started: {
    a?: ChildServer;
    b?: ChildServer;
    s3?: Awaited<ReturnType<typeof startS3Server>>;
    database?: Awaited<ReturnType<typeof createPostgresDatabase>>;
    relay?: RoundTripCounter;
  } = {};
  const need = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not running`);
    return value;
  };

  beforeAll(async () => {
    // Each kept as soon as it exists, so afterAll removes it even if the other fails.
    const [bucket, db] = await Promise.allSettled([
      startS3Server().then((x) => (started.s3 = x)),
      createPostgresDatabase().then((x) => (started.database = x)),
    ]);
    if (bucket.status === 'rejected') throw bucket.reason;
    if (db.status === 'rejected') throw db.reason;
    if (options.countRoundTripsOnB) started.relay = await countRoundTrips(db.value.url);
    const shared = {
      ...bucket.value.env,
      JWT_SECRET: options.jwtSecret,
      PUBLIC_URL: 'http://photos.test',
      // Client addresses come from X-Forwarded-For written by "the proxy" on loopback: the test.
      TRUST_PROXY: 'true',
    };
    const both = await Promise.allSettled([
      startChildServer({ ...shared, DATABASE_URL: db.value.url }).then((x) => (started.a = x)),
      startChildServer({ ...shared, DATABASE_URL: started.relay?.url ?? db.value.url }).then((x) => (started.b = x)),
    ]);
    const failed = both.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }, 90_000);

  afterAll(async () => {
    // Each step runs even when an earlier one fails, so nothing is left behind; the relay goes after B.
    let failure: unknown;
    const steps = [() => started.a?.stop(), () => started.b?.stop(), () => started.relay?.close(), () => started.database?.drop(), () => started.s3?.stop()];
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure) throw failure;
  }, 60_000);

  // What the processes logged, when a test fails (warnings and errors only: LOG_LEVEL=warn).
  afterEach((context) => {
    if (context.task.result?.state !== 'fail') return;
    for (const [name, server] of [['A', started.a], ['B', started.b]] as const) {
      const lines = (server?.output() ?? '').split('\n').filter((line) => line.startsWith('{'));
      if (lines.length) console.error(`process ${name} logged:\n${lines.slice(-20).join('\n')}`);
    }
  });

  return {
    a: () => need(started.a, 'A'),
    b: () => need(started.b, 'B'),
    s3: () => need(started.s3, 'the S3 server'),
    database: () => need(started.database, 'the database'),
    relay: () => need(started.relay, 'the round-trip relay'),
    /** A client of A (or B), each call from a new client address. */
    A: (): ApiClient => apiClient(started.a?.url ?? '', { 'x-forwarded-for': nextClientIp() }),
    B: (): ApiClient => apiClient(started.b?.url ?? '', { 'x-forwarded-for': nextClientIp() }),
    /** Signs a new person up through `api`. */
    async signUp(api: ApiClient, prefix: string): Promise<SignedUp> {
      const person = newPerson(prefix);
      const res = await api.post<{ token: string }>('/signup', person);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { token: res.body.token, email: person.email, password: person.password };
    },
  };
}
