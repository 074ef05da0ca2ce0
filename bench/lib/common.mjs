// Shared pieces of the benchmarks: paths, starting/stopping the built server, HTTP helpers,
// and cleanup of child processes and temporary folders (also on Ctrl-C).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_ARGS, SERVER_RUNTIME_ENV } from '../../scripts/server-runtime.mjs';

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const root = path.resolve(benchDir, '..');
export const serverMain = path.join(root, 'server', 'dist', 'main.js');
export const cores = os.availableParallelism();

/** The library's admin, created by make-library.mjs (first account, so admin). */
export const LIBRARY_ADMIN = { username: 'benchadmin', email: 'admin@bench.example', password: 'bench-library-password' };
/**
 * Plain accounts of the library (all with proven addresses, so shares reach them), each a way of
 * seeing it: a restricted share of a few hundred of the admin's images; an all-access share (the
 * whole library); their own 30% of the library's uploads and no share.
 */
export const LIBRARY_RESTRICTED = { username: 'benchshared', email: 'shared@bench.example', password: 'bench-library-password' };
export const LIBRARY_ALL_ACCESS = { username: 'benchfamily', email: 'family@bench.example', password: 'bench-library-password' };
export const LIBRARY_UPLOADER = { username: 'benchuploader', email: 'uploader@bench.example', password: 'bench-library-password' };
export const DEFAULT_LIBRARY_DIR = path.join(benchDir, '.data', 'library');
export const DEFAULT_LIBRARY_PG_DIR = path.join(benchDir, '.data', 'library-pg');

// ---------------------------------------------------------------------------------------------
// Cleanup: every child and temporary folder is registered, and removed at exit or on Ctrl-C.

const children = new Set();
const tempDirs = new Set();
const cleanups = new Set();

export function trackChild(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function makeTempDir(name) {
  const dir = path.join(benchDir, '.tmp', `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

export function onCleanup(fn) {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

function cleanupNow() {
  for (const fn of cleanups) {
    try {
      fn();
    } catch {
      /* best effort */
    }
  }
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
  const tmpRoot = path.join(benchDir, '.tmp');
  try {
    rmdirSync(tmpRoot); // only when empty: another run may be using it
  } catch {
    /* not empty or missing */
  }
}

let handlersInstalled = false;
export function installCleanupHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', cleanupNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping child processes and removing temporary files...`);
      cleanupNow();
      process.exit(130);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Building and running the server.

/** `tsc -b server` (incremental: quick when nothing changed). Falls back to an existing build. */
export function ensureServerBuilt() {
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  const started = Date.now();
  const result = spawnSync(tsc, ['-b', 'server'], { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return { ok: true, seconds: (Date.now() - started) / 1000 };
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (!existsSync(serverMain)) {
    console.error(output);
    throw new Error('`npx tsc -b server` failed and there is no server/dist to fall back on.');
  }
  console.warn(`WARNING: \`npx tsc -b server\` failed; benchmarking the existing server/dist, which may be stale:\n${output.split('\n').slice(0, 8).join('\n')}`);
  return { ok: false, seconds: (Date.now() - started) / 1000, error: output.split('\n')[0] };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Settings the server reads; none leaks in from the caller's shell (a DATABASE_URL there would
// silently point the benchmark at another database).
const SERVER_ENV_KEYS = [
  'PORT', 'HOST', 'DATA_DIR', 'PUBLIC_URL', 'DATABASE_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY', 'SMTP_URL', 'MAIL_FROM', 'JWT_SECRET', 'JWT_TTL', 'HIDDEN_TAGS', 'TRUST_PROXY', 'LOG_LEVEL',
  'WEB_DIST', 'MAX_UPLOAD_MB', 'IMAGE_WORKERS', 'IMAGE_MEMORY_MB', 'NODE_ENV',
];

/**
 * Starts `node server/dist/main.js` itself (no npm wrapper: `pid` is the server's own process).
 * Output goes to `<dataDir>/../<name>.log` or `logFile`.
 */
export async function startServer({ dataDir, databaseUrl, logLevel = 'warn', env = {}, nodeArgs = [], logFile, cwd = root }) {
  const port = await freePort();
  const childEnv = { ...process.env };
  for (const key of SERVER_ENV_KEYS) delete childEnv[key];
  Object.assign(childEnv, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    NODE_ENV: 'production',
    // As `npm start` runs the server (scripts/server-runtime.mjs says why each).
    ...SERVER_RUNTIME_ENV,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  mkdirSync(dataDir, { recursive: true });
  const log = logFile ?? path.join(path.dirname(dataDir), `${path.basename(dataDir)}-server.log`);
  const fd = openSync(log, 'w');
  const child = trackChild(spawn(process.execPath, [...SERVER_NODE_ARGS, ...nodeArgs, serverMain], { cwd, env: childEnv, stdio: ['ignore', fd, fd] }));
  closeSync(fd);
  const url = `http://127.0.0.1:${port}`;
  let exited = null;
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`The server exited while starting (${JSON.stringify(exited)}); see ${log}:\n${tail(log)}`);
    try {
      const res = await request(`${url}/api/health`);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not answer /api/health within 60 s; see ${log}`);
    }
    await sleep(50);
  }
  return {
    url,
    pid: child.pid,
    child,
    log,
    /** SIGTERM (graceful), then SIGKILL after `graceMs`. */
    async stop(graceMs = 15_000) {
      if (exited) return exited;
      const done = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await done;
      clearTimeout(timer);
      return result;
    },
  };
}

function tail(file, lines = 15) {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * User + system CPU seconds a process has used so far (Linux /proc), with its children's: those that
 * ended (reaped: the kernel adds them to the parent's cutime/cstime) and those still running (the
 * server's decoder process, decision 0018), so a server that decodes elsewhere is not counted as cheaper.
 */
export function cpuSeconds(pid) {
  const stat = statFields(pid);
  if (!stat) return Number.NaN;
  const own = Number(stat[11]) + Number(stat[12]) + Number(stat[13]) + Number(stat[14]);
  let children = 0;
  for (const child of childrenOf(pid)) {
    const fields = statFields(child);
    if (fields) children += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (own + children) / CLOCK_TICKS;
}

function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The pids of a process's running children (the server's decoder process). */
export function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const CLOCK_TICKS = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(r.stdout?.trim()) || 100;
})();

/** Resident memory of a process from /proc/<pid>/status: { rss, hwm } in bytes. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

function cpuTimes() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = n[3] + (n[4] ?? 0);
  return { idle, total: n.reduce((a, b) => a + b, 0) };
}

/** Fraction of the machine's CPU busy over the next `ms` (all processes; Linux /proc/stat). */
export async function machineBusy(ms = 1000) {
  try {
    const a = cpuTimes();
    await sleep(ms);
    const b = cpuTimes();
    return 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
  } catch {
    return 0;
  }
}

/**
 * Watches how busy the machine is during one measurement. `stop(subjectCpuSeconds)` returns the
 * cores used on average by everything else: the machine's busy time minus this process and the
 * measured subject (server, reference script…). Near 0 means the numbers are clean.
 */
export function watchOtherLoad() {
  let a;
  try {
    a = cpuTimes();
  } catch {
    return { stop: () => null };
  }
  const self = process.cpuUsage();
  const started = performance.now();
  return {
    stop(subjectCpuSeconds) {
      const b = cpuTimes();
      const wall = (performance.now() - started) / 1000;
      const busy = (b.total - b.idle - (a.total - a.idle)) / CLOCK_TICKS;
      const mine = process.cpuUsage(self);
      const other = busy - (mine.user + mine.system) / 1e6 - subjectCpuSeconds;
      return Number(Math.max(0, other / wall).toFixed(2));
    },
  };
}

/**
 * Runs `work` while watching the server: its peak RSS (polled every `everyMs`, each poll also given
 * to `onSample`), the CPU it used and the cores other processes took meanwhile. Resolves to
 * { value, seconds, cpuSeconds, otherLoadCores, peakRss }.
 */
export async function underWatch(pid, work, { everyMs = 50, onSample } = {}) {
  let peakRss = 0;
  const children = watchChildren(pid);
  const poll = setInterval(() => {
    const m = memoryOf(pid);
    if (!m) return;
    peakRss = Math.max(peakRss, m.rss);
    children.sample(m.rss);
    onSample?.(m);
  }, everyMs);
  const cpuBefore = cpuSeconds(pid);
  const load = watchOtherLoad();
  const started = performance.now();
  let value;
  try {
    value = await work();
  } finally {
    clearInterval(poll);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  children.sample(memoryOf(pid)?.rss ?? 0);
  return { value, seconds, cpuSeconds: cpu, otherLoadCores: load.stop(cpu), peakRss, ...children.peaks() };
}

/**
 * The server's children (its decoder process, which starts and ends with the work) watched beside
 * it: their own peak (each one's VmHWM, read while it runs) and the peak of server + children
 * together as polled — what the machine needed at once.
 */
export function watchChildren(pid) {
  let childPeakRss = 0;
  let togetherPeakRss = 0;
  return {
    sample(serverRss) {
      let rss = 0;
      for (const child of childrenOf(pid)) {
        const m = memoryOf(child);
        // An ended child not reaped yet (a zombie) has no memory lines.
        if (!m || !Number.isFinite(m.rss) || !Number.isFinite(m.hwm)) continue;
        rss += m.rss;
        childPeakRss = Math.max(childPeakRss, m.hwm);
      }
      togetherPeakRss = Math.max(togetherPeakRss, serverRss + rss);
    },
    peaks: () => ({ childPeakRss, togetherPeakRss }),
  };
}

/** Resident memory of a process and its running children together (bytes), or undefined. */
export function treeRss(pid) {
  const m = memoryOf(pid);
  if (!m) return undefined;
  return childrenOf(pid).reduce((sum, child) => sum + (Number.isFinite(memoryOf(child)?.rss) ? memoryOf(child).rss : 0), m.rss);
}

/** Waits (up to `maxSeconds`) until the machine is nearly idle; resolves to the last busy fraction. */
export async function waitQuiet(maxSeconds, log = console.log, threshold = 0.2) {
  const deadline = Date.now() + maxSeconds * 1000;
  let busy = await machineBusy(2000);
  let said = false;
  while (busy > threshold && Date.now() < deadline) {
    if (!said) log(`  waiting for the machine to quieten (CPU ${(busy * 100).toFixed(0)}% busy with other work)...`);
    said = true;
    busy = await machineBusy(2000);
  }
  return busy;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// HTTP. node:http rather than fetch: fetch's 300 s header timeout would cut off a long bulk upload.

const agent = new http.Agent({ keepAlive: false });

/** A small request; `body` is JSON. Resolves to { status, json, text, ms }. */
export function request(url, { method = 'GET', body, token, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
      },
      (res) => collect(res, started, resolve, reject),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function collect(res, started, resolve, reject) {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('error', reject);
  res.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    resolve({ status: res.statusCode, json, text, ms: performance.now() - started });
  });
}

/**
 * `POST /bulk-upload` of `files` in one multipart request (field `images`, one part per file), the
 * files streamed from disk as the server reads them, with a Content-Length, as a browser sends a
 * form. Written by hand rather than through FormData and web streams: this client stands in for a
 * browser on another machine, yet here it shares the server's cores, and the web-stream path cost
 * 3–6 ms of CPU per 1.5 MB photo in the ingest run (~2% of the two cores) against ~1.7 ms for this
 * one (the ingest ratio did not move measurably: 0.95×, issue 14).
 * `ms` runs from the request's start to the end of the response.
 */
export async function bulkUpload(url, token, files) {
  const boundary = `----photo-bench-${randomBytes(12).toString('hex')}`;
  const heads = files.map((file) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${path.basename(file).replace(/["\r\n]/g, '_')}"\r\nContent-Type: image/jpeg\r\n\r\n`),
  );
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = files.reduce((sum, file, i) => sum + heads[i].length + statSync(file).size + 2, tail.length);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      `${url}/bulk-upload`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length), authorization: `Bearer ${token}`, accept: 'application/json' },
      },
      (res) => collect(res, started, resolve, reject),
    );
    req.on('error', reject);
    (async () => {
      for (const [i, file] of files.entries()) {
        req.write(heads[i]);
        for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
          if (!req.write(chunk)) await once(req, 'drain');
        }
        req.write('\r\n');
      }
      req.end(tail);
    })().catch((error) => req.destroy(error));
  });
}

export async function signUp(url, account) {
  const res = await request(`${url}/signup`, { method: 'POST', body: account });
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST /signup answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res.json.token;
}

export async function signIn(url, { email, password }) {
  const res = await request(`${url}/signin`, { method: 'POST', body: { email, password } });
  if (res.status !== 200) throw new Error(`POST /signin answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res.json.token;
}

// ---------------------------------------------------------------------------------------------
// Small utilities.

export function parseArgs(argv, spec) {
  const out = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [name, inline] = arg.startsWith('--') ? arg.slice(2).split(/=(.*)/s, 2) : [undefined];
    if (!name || !(name in spec)) throw new Error(`Unknown argument: ${arg}`);
    if (spec[name] === 'boolean') out[name] = true;
    else {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      out[name] = spec[name] === 'number' ? Number(value) : value;
    }
  }
  return out;
}

export const fmt = {
  n: (value, digits = 1) => (value === null || value === undefined || Number.isNaN(value) ? '—' : Number(value).toFixed(digits)),
  mb: (bytes) => `${(bytes / 1048576).toFixed(0)} MB`,
};

/** A plain text table: rows of cells, first row the header. */
export function table(rows) {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => String(row[col] ?? '').length)));
  const line = (row) => row.map((cell, col) => String(cell ?? '').padEnd(widths[col])).join('  ').trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function gitCommit() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'server', 'contract'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? `${r.stdout.trim()}${dirty.stdout.trim() ? ' (+ uncommitted server changes)' : ''}` : 'unknown';
}
