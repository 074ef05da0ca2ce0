// Imports through the API (issue 14, first memory row): N small distinct JPEGs (64×48) sent to a
// fresh server's `POST /bulk-upload`, 200 per request, 4 requests in flight, as an importer would.
// The server's resident memory is sampled every 5,000 images; the rows are its RSS after the import
// and its growth per image over the second half (once every cache has had time to fill, memory
// should stop growing with the number of images). RSS at any instant also holds the garbage waiting
// for V8's next full collection (up to tens of MB), so the growth is measured on each 5,000-image window's
// floor — its lowest RSS, polled every 250 ms across several collections — which is what the server
// keeps: a least-squares line through the floors from N/2 on.
//
// The server lets one person run at most MAX_UPLOADS_PER_PERSON (2) uploads at once (a guard, not
// configurable, and not weakened here), so the 4 requests in flight come from two people, 2 each.
// The images are made here, lazily one request's worth at a time (sharp, ~0.5 ms each), so the bench
// process stays small whatever N is: each has a pattern of 8×8 blocks spelling its index (distinct
// JPEG bytes, distinct pixels) on a colour that drifts with the index.
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { makeTempDir, memoryOf, removeTempDir, signUp, startServer, underWatch } from './common.mjs';

const WIDTH = 64;
const HEIGHT = 48;
const BLOCK = 8;

export async function benchApiImport({
  count = 100_000,
  perRequest = 200,
  inFlight = 4,
  sampleEvery = 5_000,
  logLevel,
  env = {},
  nodeArgs = [],
  keepDataDir = false,
  log = console.log,
}) {
  const dir = makeTempDir('api-import');
  const server = await startServer({ dataDir: path.join(dir, 'server-data'), logLevel, env, nodeArgs, logFile: path.join(dir, 'server.log') });
  try {
    // Two requests in flight per person (the server's per-person limit), so inFlight/2 people.
    const people = Math.max(1, Math.ceil(inFlight / 2));
    const tokens = [];
    for (let p = 0; p < people; p += 1) {
      tokens.push(await signUp(server.url, { username: `importer${p}`, email: `importer${p}@bench.example`, password: 'bench-password' }));
    }
    const idle = memoryOf(server.pid);
    const samples = [{ images: 0, seconds: 0, rssMB: mb(idle.rss), floorMB: mb(idle.rss), topMB: mb(idle.rss) }];
    const batches = Math.ceil(count / perRequest);
    let nextBatch = 0;
    let done = 0;
    let nextSample = sampleEvery;
    let refused = 0;
    // Lowest and highest RSS polled since the last sample.
    let floor = Infinity;
    let top = 0;
    const started = performance.now();
    const worker = async (w) => {
      const token = tokens[w % people];
      for (;;) {
        const batch = nextBatch;
        if (batch >= batches) return;
        nextBatch += 1;
        const first = batch * perRequest;
        const files = await makeImages(first, Math.min(perRequest, count - first));
        const res = await postImages(server.url, token, files);
        if (res.status !== 200) throw new Error(`POST /bulk-upload (images ${first}…) answered ${res.status}: ${res.text.slice(0, 300)}`);
        const results = JSON.parse(res.text).results;
        const kept = results.filter((r) => r.status === 'kept').length;
        refused += files.length - kept;
        if (kept !== files.length) throw new Error(`only ${kept} of ${files.length} images kept (images ${first}…): ${JSON.stringify(results.find((r) => r.status !== 'kept'))}`);
        done += files.length;
        while (done >= nextSample) {
          const m = memoryOf(server.pid);
          const seconds = (performance.now() - started) / 1000;
          floor = Math.min(floor, m.rss);
          top = Math.max(top, m.rss);
          samples.push({ images: done, seconds: Number(seconds.toFixed(1)), rssMB: mb(m.rss), floorMB: mb(floor), topMB: mb(top) });
          log(`  ${done.toLocaleString('en')} images: server RSS ${mb(m.rss)} MB (since the last sample ${mb(floor)}–${mb(top)} MB; ${(done / seconds).toFixed(0)} images/s)`);
          floor = Infinity;
          top = 0;
          nextSample += sampleEvery;
        }
      }
    };
    const onSample = (m) => {
      floor = Math.min(floor, m.rss);
      top = Math.max(top, m.rss);
    };
    const watched = await underWatch(server.pid, () => Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w))), { everyMs: 250, onSample });
    const { seconds, cpuSeconds: cpu, otherLoadCores } = watched;
    const peakPolled = Math.max(idle.rss, watched.peakRss);
    const after = memoryOf(server.pid);
    if (samples.at(-1).images !== done) {
      samples.push({ images: done, seconds: Number(seconds.toFixed(1)), rssMB: mb(after.rss), floorMB: mb(Math.min(floor, after.rss)), topMB: mb(Math.max(top, after.rss)) });
    }
    // The growth over the second half: a least-squares line through the windows' floors from N/2 on.
    const half = samples.filter((s) => s.images > 0 && s.images >= count / 2);
    const growthKBPerImage = slope(half.map((s) => [s.images, s.floorMB * 1024]));
    // And once the import is over and the server idle for 10 s (V8 shrinks its heap when idle).
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const settled = memoryOf(server.pid);
    const result = {
      images: done,
      perRequest,
      inFlight,
      people,
      refused,
      seconds: Number(seconds.toFixed(1)),
      imagesPerSecond: Number((done / seconds).toFixed(1)),
      serverCpuMsPerImage: Number(((cpu / done) * 1000).toFixed(2)),
      otherLoadCores,
      idleRssMB: mb(idle.rss),
      rssAfterMB: mb(after.rss),
      rssSettledMB: mb(settled.rss),
      peakRssMB: mb(Math.max(peakPolled, after.hwm)),
      growthKBPerImage: Number(growthKBPerImage.toFixed(3)),
      growthSamples: half.length,
      samples,
    };
    log(
      `  ${done.toLocaleString('en')} images in ${result.seconds} s (${result.imagesPerSecond}/s, ${result.serverCpuMsPerImage} ms server CPU each): ` +
        `RSS idle ${result.idleRssMB} → after ${result.rssAfterMB} MB (${result.rssSettledMB} MB 10 s later), peak ${result.peakRssMB} MB; ` +
        `${result.growthKBPerImage} KB/image over the second half`,
    );
    if (keepDataDir) result.dataDir = path.join(dir, 'server-data');
    return result;
  } finally {
    await server.stop();
    if (!keepDataDir) removeTempDir(dir);
  }
}

const mb = (bytes) => Math.round(bytes / 1048576);

/** Least-squares slope of [x, y] points (0 with fewer than 2). */
function slope(points) {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** `n` distinct 64×48 JPEGs, numbered from `first`. */
async function makeImages(first, n) {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  const out = [];
  for (let k = 0; k < n; k += 1) {
    const index = first + k;
    // Background colour drifting with the index; a dark or light 8×8 block per bit of the index.
    const bg = [(index * 37) % 200 + 28, (index * 91) % 200 + 28, (index * 53) % 200 + 28];
    const blocksAcross = WIDTH / BLOCK;
    for (let y = 0; y < HEIGHT; y += 1) {
      for (let x = 0; x < WIDTH; x += 1) {
        const bit = Math.floor(y / BLOCK) * blocksAcross + Math.floor(x / BLOCK);
        const on = bit < 31 && (index >>> bit) & 1;
        const at = (y * WIDTH + x) * 3;
        raw[at] = on ? 255 - bg[0] : bg[0];
        raw[at + 1] = on ? 255 - bg[1] : bg[1];
        raw[at + 2] = on ? 255 - bg[2] : bg[2];
      }
    }
    const data = await sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
    out.push({ name: `import-${String(index).padStart(6, '0')}.jpg`, data });
  }
  return out;
}

/** One multipart `POST /bulk-upload` of in-memory files (field `images`); resolves to { status, text }. */
function postImages(url, token, files) {
  const boundary = `----bench${Math.random().toString(16).slice(2)}`;
  const parts = [];
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${file.name}"\r\nContent-Type: image/jpeg\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/bulk-upload`,
      {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length, authorization: `Bearer ${token}`, accept: 'application/json' },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
