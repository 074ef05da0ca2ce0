// Reads while ingesting (issues 13 and 14): gallery page 1 p99 while the server is idle, then while
// it ingests the 30-photo upload, on the same server and library. The reader keeps 2 requests in
// flight (a person scrolling, plus their thumbnails' metadata) so it measures waiting, not load.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bulkUpload, makeTempDir, removeTempDir, request, signUp, startServer } from './common.mjs';
import { sourcePhotos, writeVariants } from './variants.mjs';

const READERS = 2;

export async function benchReadsWhileIngesting({ count = 30, logLevel, env = {}, log = console.log }) {
  const dir = makeTempDir('reads-while-ingesting');
  const server = await startServer({ dataDir: path.join(dir, 'data'), logLevel, env, logFile: path.join(dir, 'server.log') });
  try {
    const srcDir = path.join(dir, 'src');
    mkdirSync(srcDir);
    const sources = sourcePhotos();
    const library = writeVariants(sources, 10, srcDir, 'library');
    const files = writeVariants(sources, count, srcDir, 'ingest');
    const token = await signUp(server.url, { username: 'reader', email: 'reader@bench.example', password: 'bench-password' });
    const first = await bulkUpload(server.url, token, library);
    if (first.status !== 200) throw new Error(`library upload answered ${first.status}`);
    const page = `${server.url}/api/gridimages?page=1&limit=50`;
    // Each read asks for a page the cache cannot answer (a like in between changes the version),
    // as when the library changes while someone browses; and a cached one, as most reads are.
    const imageId = first.json.results[0].imageId;
    let flip = false;
    const read = async () => {
      flip = !flip;
      await request(`${server.url}/images/${imageId}/like`, { method: 'POST', token, body: { liked: flip } });
      return (await request(page, { token })).ms;
    };
    const idle = await readFor(read, 6000);
    const upload = bulkUpload(server.url, token, files);
    let done = false;
    upload.finally(() => (done = true));
    const busy = await readWhile(read, () => done);
    const uploaded = await upload;
    if (uploaded.status !== 200) throw new Error(`ingest upload answered ${uploaded.status}`);
    const result = {
      photos: count,
      megabytes: Number((files.reduce((s, f) => s + statSync(f).size, 0) / 1048576).toFixed(1)),
      idle: summary(idle),
      whileIngesting: summary(busy),
      ingestSeconds: Number((uploaded.ms / 1000).toFixed(2)),
    };
    result.ratio = Number((result.whileIngesting.p99 / result.idle.p99).toFixed(2));
    log(`  idle p50/p99 ${result.idle.p50}/${result.idle.p99} ms; while ingesting ${result.whileIngesting.p50}/${result.whileIngesting.p99} ms (${result.ratio}×), ingest ${result.ingestSeconds} s`);
    return result;
  } finally {
    await server.stop();
    removeTempDir(dir);
  }
}

async function readFor(read, ms) {
  const until = performance.now() + ms;
  return readWhile(read, () => performance.now() > until);
}

async function readWhile(read, stop) {
  const times = [];
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (!stop()) times.push(await read());
    }),
  );
  return times;
}

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1));
  return { requests: times.length, p50: at(0.5), p99: at(0.99) };
}
