// The reference for the ingest benchmark: the minimal sharp script that makes the same two derived
// files from each original — nothing else (no upload, hashing or database). Each output is made
// straight from the original (libjpeg shrink-on-load makes the 400 px one cheap); as many files in
// flight as there are cores.
//
//   node bench/lib/reference.mjs job.json   → prints {"seconds": …, "files": …} for job.files
//   job.json: { "outDir": "…", "concurrency": 2, "warmup": ["…"], "files": ["…"] }
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const webp = { quality: 80, effort: 2 };
const inside = { fit: 'inside', withoutEnlargement: true };

function derive(file, outDir) {
  const base = path.join(outDir, path.basename(file, path.extname(file)));
  return Promise.all([
    sharp(file).rotate().resize(1920, 1920, inside).webp(webp).toFile(`${base}-display.webp`),
    sharp(file).rotate().resize(400, 400, inside).webp(webp).toFile(`${base}-thumb.webp`),
  ]);
}

async function runAll(files, outDir, concurrency) {
  let next = 0;
  const worker = async () => {
    while (next < files.length) await derive(files[next++], outDir);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
}

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
await runAll(job.warmup ?? [], job.outDir, job.concurrency);
const started = performance.now();
const cpuBefore = process.cpuUsage();
await runAll(job.files, job.outDir, job.concurrency);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const all = process.cpuUsage();
const cpuTotalSeconds = (all.user + all.system) / 1e6; // start-up and warm-up included
process.stdout.write(`${JSON.stringify({ seconds, cpuSeconds, cpuTotalSeconds, files: job.files.length, sharpConcurrency: sharp.concurrency(), libvips: sharp.versions.vips })}\n`);
