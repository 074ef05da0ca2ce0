import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '../..');

/**
 * Settings the server reads: none may leak in from the test runner's environment (a DATABASE_URL
 * there would point the child at another database).
 */
const SERVER_SETTINGS = [
  'PORT', 'HOST', 'DATA_DIR', 'PUBLIC_URL', 'DATABASE_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY', 'SMTP_URL', 'MAIL_FROM', 'JWT_SECRET', 'JWT_TTL', 'HIDDEN_TAGS', 'TRUST_PROXY', 'LOG_LEVEL',
  'WEB_DIST', 'MAX_UPLOAD_MB', 'MAX_UPLOAD_REQUEST_MB', 'UPLOAD_IDLE_TIMEOUT_S', 'IMAGE_WORKERS', 'TRASH_DAYS',
  'TUS_EXPIRY_HOURS', 'TUS_MAX_UNFINISHED_MB', 'WARM_UP_REQUESTS',
];

/** One app process, started as `npm start` would run it, but from the TypeScript sources (no build needed). */
export interface ChildServer {
  url: string;
  pid: number;
  /** Its own DATA_DIR (outbox, tmp; the SQLite file when DATABASE_URL is unset). */
  dataDir: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** True once the process has exited (for any reason). */
  exited(): boolean;
  /** Ends it at once, as a crash or `kill -9` would; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful shutdown), SIGKILL after `graceMs`; then removes its DATA_DIR (unless the caller gave it). */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();
// A test runner that exits without its afterAll (a crash, Ctrl-C) must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node --import tsx src/main.ts` on a free port with a fresh DATA_DIR (or `options.dataDir`),
 * LOG_LEVEL=warn, HOST=127.0.0.1 and the test JWT secret unless `env` says otherwise, and resolves
 * once `/api/health` answers. Used by the crash and scale-out tests, which need real processes.
 */
export async function startChildServer(
  env: Record<string, string> = {},
  options: { startTimeoutMs?: number; dataDir?: string } = {},
): Promise<ChildServer> {
  // A DATA_DIR the caller gives is theirs (kept across kills and restarts); otherwise a fresh one, removed on stop.
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'photo-child-')));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SERVER_SETTINGS.includes(key)));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
      PUBLIC_URL: 'http://photos.test',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let hasExited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      hasExited = true;
      running.delete(child);
      resolve();
    }),
  );
  const removeDataDir = async () => {
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  const server: ChildServer = {
    url,
    pid: child.pid ?? -1,
    dataDir,
    output: () => output,
    exited: () => hasExited,
    async kill() {
      if (!hasExited) child.kill('SIGKILL');
      await exit;
    },
    async stop(graceMs = 15_000) {
      if (!hasExited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exit;
        clearTimeout(timer);
      }
      await removeDataDir();
    },
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (hasExited) {
      await removeDataDir();
      throw new Error(`the server exited while starting:\n${output}`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.kill();
      await removeDataDir();
      throw new Error(`the server did not answer /api/health in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
