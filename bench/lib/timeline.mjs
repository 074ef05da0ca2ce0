// Timeline (issue 11): the server on the benchmark library, asked for the month buckets
// (GET /api/timeline) and for a jump to a month (GET /api/timeline/:month?limit=100, random months
// of the caller's own timeline), by an account that sees the whole library (the all-access share)
// and one with a restricted share of 300 photos.
//
// Requests go one at a time on a kept-alive connection, so each latency is the server's time to
// answer plus a loopback round trip (~0.1 ms; the health row shows the floor). Per account:
//   - first: the first timeline call after the server started (it reads the visible-id list);
//   - warm: N calls in a row (buckets: the same answer; jumps: N random months, most answered
//     for the first time, the rest from the page cache);
//   - after a change: each call right after the admin liked or unliked a photo, which bumps the
//     library version (as other people's likes, tags and uploads do): every cache is checked
//     again, the id list catches up, the month's page is made afresh;
//   - after a reset (no target; a few calls): each right after the admin switched the restricted
//     share off and on again, which (like any share change or delete) makes every reader read its
//     whole id list from the database again — the cold case.
// With `repeat` > 1 the warm and after-a-change series run that many times and the best (lowest
// p99) is kept, as for the gallery rows. The answers are checked: months newest first and adding up to the total; a month's count and
// offset as in the buckets; the gallery page it names holding the month's first photo there.
import http from 'node:http';
import path from 'node:path';
import { LIBRARY_ADMIN, LIBRARY_ALL_ACCESS, LIBRARY_RESTRICTED, benchDir, cpuSeconds, makeTempDir, memoryOf, removeTempDir, signIn, startServer, watchOtherLoad } from './common.mjs';
import { ensureLibrary, postgresBackends, sumCpu } from './gallery.mjs';

export const TIMELINE_TARGETS = { bucketsP99Ms: 50, jumpP99Ms: 150 };
export const MILLION = 1_000_000;
const JUMP_LIMIT = 100;

/** The 1,000,000-image library's folder, and its PostgreSQL database: the 100,000 one's name + '_1m'. */
export function millionLibrary(postgres) {
  if (!postgres) return { dataDir: path.join(benchDir, '.data', 'library-1m') };
  const url = new URL(postgres);
  url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_1m`;
  return { dataDir: path.join(benchDir, '.data', 'library-pg-1m'), postgres: url.toString() };
}

export async function benchTimeline({ backend, postgres, count, dataDir, requests = 200, afterChange = 100, afterReset = 10, repeat = 1, logLevel, env = {}, log = console.log }) {
  const library = await ensureLibrary({ backend, postgres, count, dataDir, log });
  const logDir = makeTempDir(`timeline-${backend}`);
  const server = await startServer({
    dataDir: library.dataDir,
    databaseUrl: backend === 'postgres' ? postgres : undefined,
    logLevel,
    env,
    logFile: path.join(logDir, 'server.log'),
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let peakRss = 0;
  const poll = setInterval(() => {
    const m = memoryOf(server.pid);
    if (m) peakRss = Math.max(peakRss, m.rss);
  }, 50);
  const rows = [];
  const checks = [];
  // PostgreSQL's backends work for the server: their CPU is not "other load".
  const backends = backend === 'postgres' ? await postgresBackends(postgres) : undefined;
  let peakBeforeResets;
  try {
    const idleRss = memoryOf(server.pid)?.rss;
    const admin = await signIn(server.url, LIBRARY_ADMIN);
    const get = (pathname, token) => call(agent, `${server.url}${pathname}`, { token });
    // The floor: what a trivial call costs the same way.
    await get('/api/health');
    const health = await series(() => get('/api/health'), 100);
    rows.push({ name: 'health (floor)', account: '—', ...health });

    let liked = false;
    const change = async () => {
      liked = !liked;
      const res = await call(agent, `${server.url}/images/1/like`, { method: 'POST', token: admin, body: { liked } });
      if (res.status !== 200) throw new Error(`POST /images/1/like answered ${res.status}: ${res.text.slice(0, 200)}`);
    };

    // A reset: the restricted share switched off and on again (the same view after, a new version).
    const records = await call(agent, `${server.url}/getUserAccessData`, { token: admin });
    const share = records.json?.restrictedAccessUserData?.find((r) => r.accessTo === LIBRARY_RESTRICTED.email);
    if (!share) throw new Error(`no restricted share to ${LIBRARY_RESTRICTED.email} in GET /getUserAccessData: ${records.text.slice(0, 200)}`);
    const reset = async () => {
      peakBeforeResets ??= Math.max(peakRss, memoryOf(server.pid)?.rss ?? 0);
      for (const status of [false, true]) {
        const res = await call(agent, `${server.url}/updateUserStatus/${share._id}`, { method: 'PUT', token: admin, body: { status, type: 'restrictedAccess' } });
        if (res.status !== 200) throw new Error(`PUT /updateUserStatus answered ${res.status}: ${res.text.slice(0, 200)}`);
      }
    };

    for (const [who, account] of [['all-access', LIBRARY_ALL_ACCESS], ['restricted-share', LIBRARY_RESTRICTED]]) {
      const token = await signIn(server.url, account);
      const cpuBefore = cpuSeconds(server.pid);
      const dbPids = backends ? await backends.pids() : [];
      const dbBefore = sumCpu(dbPids);
      const load = watchOtherLoad();
      // First: the id list is read from the database.
      const first = await get('/api/timeline', token);
      if (first.status !== 200) throw new Error(`GET /api/timeline answered ${first.status}: ${first.text.slice(0, 300)}`);
      const timeline = first.json;
      checks.push(...checkBuckets(timeline, who));
      const months = timeline.months.filter((m) => m.count > 0);
      if (months.length === 0) throw new Error(`the ${who} account's timeline has no months`);
      const pick = seeded(months.length);
      const jumpPath = () => `/api/timeline/${months[pick()].month}?limit=${JUMP_LIMIT}`;
      const firstJump = await get(jumpPath(), token);
      checks.push(...(await checkJumps(get, token, months, who, 5)));

      // With --repeat, each series N times in turn and the best (lowest p99) kept, as for the gallery.
      const runs = { buckets: [], jumps: [], bucketsAfter: [], jumpsAfter: [] };
      for (let round = 0; round < repeat; round += 1) {
        runs.buckets.push(await series(() => expectOk(get('/api/timeline', token)), requests));
        runs.jumps.push(await series(() => expectOk(get(jumpPath(), token)), requests));
        runs.bucketsAfter.push(await series(async () => {
          await change();
          return expectOk(get('/api/timeline', token));
        }, afterChange));
        runs.jumpsAfter.push(await series(async () => {
          await change();
          return expectOk(get(jumpPath(), token));
        }, afterChange));
      }
      const [buckets, jumps, bucketsAfter, jumpsAfter] = [runs.buckets, runs.jumps, runs.bucketsAfter, runs.jumpsAfter].map(best);
      const bucketsReset = await series(async () => {
        await reset();
        return expectOk(get('/api/timeline', token));
      }, afterReset);
      const jumpsReset = await series(async () => {
        await reset();
        return expectOk(get(jumpPath(), token));
      }, afterReset);
      const cpu = cpuSeconds(server.pid) - cpuBefore;
      const dbCpu = backends ? sumCpu(dbPids) - dbBefore : 0;
      const otherLoadCores = load.stop(cpu + dbCpu);
      const common = { account: account.username, view: who, months: months.length, images: timeline.totalImages, otherLoadCores };
      rows.push(
        { name: `buckets, ${who}`, kind: 'buckets', path: 'GET /api/timeline', ...common, firstRequestMs: round(first.ms), responseBytes: first.text.length, ...buckets, p99TargetMs: TIMELINE_TARGETS.bucketsP99Ms },
        { name: `buckets after a change, ${who}`, kind: 'buckets', path: 'GET /api/timeline', ...common, ...bucketsAfter, p99TargetMs: TIMELINE_TARGETS.bucketsP99Ms },
        { name: `month jump, ${who}`, kind: 'jump', path: `GET /api/timeline/:month?limit=${JUMP_LIMIT}`, ...common, firstRequestMs: round(firstJump.ms), responseBytes: firstJump.text.length, ...jumps, p99TargetMs: TIMELINE_TARGETS.jumpP99Ms },
        { name: `month jump after a change, ${who}`, kind: 'jump', path: `GET /api/timeline/:month?limit=${JUMP_LIMIT}`, ...common, ...jumpsAfter, p99TargetMs: TIMELINE_TARGETS.jumpP99Ms },
        { name: `buckets after a reset, ${who}`, kind: 'buckets', path: 'GET /api/timeline', ...common, ...bucketsReset },
        { name: `month jump after a reset, ${who}`, kind: 'jump', path: `GET /api/timeline/:month?limit=${JUMP_LIMIT}`, ...common, ...jumpsReset },
      );
      for (const r of rows.slice(-6)) {
        log(`  ${backend.padEnd(8)} ${String(count).padStart(7)} ${r.name.padEnd(44)} ${r.firstRequestMs !== undefined ? `first ${r.firstRequestMs} ms  ` : ''}p50 ${r.p50} ms  p99 ${r.p99} ms  max ${r.max} ms  (${r.requests} requests)`);
      }
    }
    const after = memoryOf(server.pid);
    const failed = checks.filter((c) => !c.ok);
    for (const c of failed) log(`  CHECK FAILED: ${c.what}`);
    return {
      backend,
      images: count,
      library: path.relative(process.cwd(), library.dataDir),
      libraryBuilt: library.built,
      ...(library.built ? { libraryBuildSeconds: Number(library.seconds.toFixed(1)) } : {}),
      libraryBuildSecondsWhenMade: library.info?.seconds,
      requestsPerRow: { warm: requests, afterChange },
      idleRssMB: idleRss ? Math.round(idleRss / 1048576) : null,
      peakRssMB: Math.round(Math.max(peakRss, after?.hwm ?? 0) / 1048576),
      // Before the reset rows, which read whole id lists again and again.
      peakRssBeforeResetsMB: peakBeforeResets ? Math.round(peakBeforeResets / 1048576) : null,
      rssAfterMB: after ? Math.round(after.rss / 1048576) : null,
      checks: { passed: checks.length - failed.length, failed: failed.map((c) => c.what) },
      endpoints: rows,
    };
  } finally {
    clearInterval(poll);
    agent.destroy();
    await backends?.close();
    await server.stop();
    removeTempDir(logDir);
  }
}

/** Months newest first, each once, adding up to the total; offsets running totals; days adding up. */
function checkBuckets(timeline, who) {
  const out = [];
  const ok = (cond, what) => out.push({ ok: Boolean(cond), what: `${who}: ${what}` });
  let offset = 0;
  let sorted = true;
  let offsets = true;
  let days = true;
  for (let k = 0; k < timeline.months.length; k += 1) {
    const m = timeline.months[k];
    if (k > 0 && !(timeline.months[k - 1].month > m.month)) sorted = false;
    if (m.offset !== offset) offsets = false;
    if (m.days.reduce((sum, [, n]) => sum + n, 0) !== m.count) days = false;
    offset += m.count;
  }
  ok(sorted, 'months newest first, each once');
  ok(offsets, "each month's offset is the photos before it");
  ok(days, "each month's days add up to its count");
  ok(offset === timeline.totalImages, `months add up to totalImages (${offset} vs ${timeline.totalImages})`);
  return out;
}

/** A few months (first, last, random): count and offset as in the buckets, and the gallery page it names. */
async function checkJumps(get, token, months, who, howMany) {
  const out = [];
  const pick = seeded(months.length, 7);
  const chosen = [0, months.length - 1, ...Array.from({ length: howMany - 2 }, pick)];
  for (const k of chosen) {
    const m = months[k];
    const res = await get(`/api/timeline/${m.month}?limit=${JUMP_LIMIT}`, token);
    const what = (text) => `${who} ${m.month}: ${text}`;
    if (res.status !== 200) {
      out.push({ ok: false, what: what(`answered ${res.status}: ${res.text.slice(0, 200)}`) });
      continue;
    }
    const j = res.json;
    out.push({ ok: j.count === m.count && j.offset === m.offset, what: what(`count/offset ${j.count}/${j.offset} as in the buckets (${m.count}/${m.offset})`) });
    out.push({ ok: j.images.length === Math.min(JUMP_LIMIT, m.count), what: what(`${j.images.length} images on page 1 (of ${m.count})`) });
    out.push({ ok: j.galleryPage === Math.floor(m.offset / JUMP_LIMIT) + 1, what: what(`galleryPage ${j.galleryPage}`) });
    const grid = await get(`/api/gridimages?page=${j.galleryPage}&limit=${JUMP_LIMIT}`, token);
    const there = grid.json?.images?.[m.offset % JUMP_LIMIT]?._id;
    out.push({ ok: there !== undefined && there === j.images[0]?._id, what: what(`gallery page ${j.galleryPage} holds the month's first photo at ${m.offset % JUMP_LIMIT} (${there} vs ${j.images[0]?._id})`) });
  }
  return out;
}

async function expectOk(promise) {
  const res = await promise;
  if (res.status !== 200) throw new Error(`answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res;
}

/** The run with the lowest p99, and with several, all runs' p50/p99. */
function best(runs) {
  const chosen = runs.reduce((a, b) => (b.p99 < a.p99 ? b : a));
  return runs.length > 1 ? { ...chosen, allRuns: runs.map(({ p50, p99 }) => ({ p50, p99 })) } : chosen;
}

/** `n` calls of `fn` one after another; latency percentiles in ms. */
async function series(fn, n) {
  const ms = [];
  for (let k = 0; k < n; k += 1) ms.push((await fn()).ms);
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)];
  return { requests: n, p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)), max: round(ms[ms.length - 1]), mean: round(ms.reduce((a, b) => a + b, 0) / n) };
}

const round = (x) => Number(x.toFixed(1));

/** A small deterministic generator of indexes below `n`. */
function seeded(n, seed = 1) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return Math.floor((s / 2 ** 32) * n);
  };
}

/** One request on a kept-alive connection: { status, json, text, ms } (ms to the end of the body). */
function call(agent, url, { method = 'GET', token, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    const req = http.request(url, {
      method,
      agent,
      headers: {
        accept: 'application/json',
        ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const ms = performance.now() - started;
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, json, text, ms });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}
