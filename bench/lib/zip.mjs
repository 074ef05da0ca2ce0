// Zip downloads: throughput of one streamed ZIP of ~1 GB of distinct originals (POST
// /api/downloads/zip, then GET the URL it gives, bytes counted and dropped), against reading the
// very same stored files from disk one after another (the floor: what the zip must at least read).
import { createReadStream, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { bulkUpload, cpuSeconds, makeTempDir, memoryOf, removeTempDir, request, signUp, startServer } from './common.mjs';
import { sourcePhotos, writeVariants } from './variants.mjs';

/** Streams a GET to nowhere; resolves to { status, bytes, ms }. */
function drain(url) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode, bytes, ms: performance.now() - started }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function readAll(files) {
  const started = performance.now();
  let bytes = 0;
  for (const file of files) {
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) bytes += chunk.length;
  }
  return { bytes, ms: performance.now() - started };
}

export async function benchZip({ targetBytes = 1024 ** 3, logLevel, env = {}, log = console.log }) {
  const dir = makeTempDir('zip');
  try {
    const canon = sourcePhotos().find((f) => /canon/i.test(path.basename(f))) ?? sourcePhotos()[0];
    const count = Math.max(1, Math.round(targetBytes / statSync(canon).size));
    const files = writeVariants([canon], count, dir, 'zip');
    log(`  uploading ${count} distinct copies of ${path.basename(canon)} to zip them…`);
    const dataDir = path.join(dir, 'server-data');
    const server = await startServer({ dataDir, logLevel, env, logFile: path.join(dir, 'server.log') });
    try {
      const token = await signUp(server.url, { username: 'bench', email: 'bench@bench.example', password: 'bench-password' });
      const up = await bulkUpload(server.url, token, files);
      if (up.status !== 200) throw new Error(`POST /bulk-upload answered ${up.status}: ${up.text.slice(0, 300)}`);
      const ids = up.json.results.map((r) => r.imageId).filter(Boolean);
      // The stored originals (local storage keeps them under DATA_DIR/media/originals/<sha256>).
      const originalsDir = path.join(dataDir, 'media', 'originals');
      const originals = readdirSync(originalsDir).map((f) => path.join(originalsDir, f));
      await readAll(originals); // warm the page cache, as the zip below will find it
      const disk = await readAll(originals);

      const made = await request(`${server.url}/api/downloads/zip`, { method: 'POST', body: { ids }, token });
      if (made.status !== 200) throw new Error(`POST /api/downloads/zip answered ${made.status}: ${made.text.slice(0, 300)}`);
      const idle = memoryOf(server.pid);
      let peakRss = idle.rss;
      const poll = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(server.pid)?.rss ?? 0)), 50);
      const cpuBefore = cpuSeconds(server.pid);
      let zip;
      try {
        zip = await drain(`${server.url}${made.json.url}`);
      } finally {
        clearInterval(poll);
      }
      const cpu = cpuSeconds(server.pid) - cpuBefore;
      if (zip.status !== 200) throw new Error(`GET ${made.json.url} answered ${zip.status}`);
      const mbps = (bytes, ms) => Number((bytes / 1048576 / (ms / 1000)).toFixed(0));
      return {
        images: ids.length,
        megabytes: Number((disk.bytes / 1048576).toFixed(0)),
        zipMegabytes: Number((zip.bytes / 1048576).toFixed(0)),
        zipSeconds: Number((zip.ms / 1000).toFixed(2)),
        zipMBps: mbps(zip.bytes, zip.ms),
        diskMBps: mbps(disk.bytes, disk.ms),
        zipVsDisk: Number((disk.ms / zip.ms).toFixed(2)),
        serverCpuSeconds: Number(cpu.toFixed(2)),
        rssGrowthMB: Math.round((peakRss - idle.rss) / 1048576),
      };
    } finally {
      await server.stop();
    }
  } finally {
    removeTempDir(dir);
  }
}
