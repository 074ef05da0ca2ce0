// Memory: the real mix of test photos (phone HEICs, 22 MP camera JPEGs, TIFF, AVIF, WebP, PNG, GIF)
// sent the way the upload page sends it — through tus, three files at a time — three times over as
// distinct copies. Reports the server's idle RSS after start, its peak while the photos are taken
// in, and its RSS 30 s after the last one is ready (issue 14's memory rows).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir, memoryOf, removeTempDir, signUp, sleep, startServer, treeRss, underWatch } from './common.mjs';
import { uploadAll } from './tus-upload.mjs';

const TESTDATA = '/work/shared/testdata/images';

/** The decodable photos of the test set (manifest.json), as { file, format }. */
export function realMixSources(dir = TESTDATA) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  return manifest.filter((entry) => entry.expectDecodable).map((entry) => ({ file: path.join(dir, entry.file), format: entry.format }));
}

/**
 * A copy of `bytes` with content of its own that decodes to the same pixels: a `free` box after
 * the last box of an ISO-BMFF file (HEIC, AVIF), bytes after the end marker for the others (JPEG's
 * EOI, PNG's IEND, GIF's trailer, TIFF's offsets, WebP's RIFF size all leave them unread).
 */
export function distinctCopy(bytes, format, label) {
  const note = Buffer.from(`photo-library-bench ${label}`);
  if (format === 'HEIC' || format === 'AVIF') {
    const box = Buffer.alloc(8 + note.length);
    box.writeUInt32BE(box.length, 0);
    box.write('free', 4, 'latin1');
    note.copy(box, 8);
    return Buffer.concat([bytes, box]);
  }
  return Buffer.concat([bytes, note]);
}

export async function benchRealMix({ copies = 3, parallel = 3, settleSeconds = 30, logLevel, env = {}, nodeArgs = [], log = console.log } = {}) {
  const dir = makeTempDir('real-mix');
  try {
    const sources = realMixSources();
    const files = [];
    const salt = Math.random().toString(36).slice(2, 10);
    for (let round = 0; round < copies; round += 1) {
      for (const [i, source] of sources.entries()) {
        const name = `${round}-${String(i).padStart(2, '0')}-${path.basename(source.file).replace(/[^A-Za-z0-9.]+/g, '-')}`;
        const file = path.join(dir, name);
        writeFileSync(file, distinctCopy(readFileSync(source.file), source.format, `${salt} ${round} ${i}`));
        files.push(file);
      }
    }
    log(`  ${sources.length} test photos × ${copies} distinct copies = ${files.length} files through tus, ${parallel} at a time`);

    const server = await startServer({ dataDir: path.join(dir, 'server-data'), logLevel, env, nodeArgs, logFile: path.join(dir, 'server.log') });
    try {
      // Idle after start: answering /api/health, asked nothing else yet, given a few seconds to settle.
      await sleep(3000);
      const idle = memoryOf(server.pid);
      const token = await signUp(server.url, { username: 'mix', email: 'mix@bench.example', password: 'bench-password' });
      const run = await underWatch(server.pid, () => uploadAll(server.url, token, files, parallel));
      const { value: outcomes, seconds, cpuSeconds: cpu, otherLoadCores, peakRss, childPeakRss, togetherPeakRss } = run;
      const done = memoryOf(server.pid);
      const refused = outcomes.filter((o) => o.status !== 'kept');
      if (refused.length > 0) throw new Error(`${refused.length} of ${files.length} were not kept, e.g. ${JSON.stringify(refused[0])}`);
      await sleep(settleSeconds * 1000);
      const settled = memoryOf(server.pid);
      const settledTogether = treeRss(server.pid);
      const result = {
        files: files.length,
        parallel,
        seconds: Number(seconds.toFixed(1)),
        serverCpuSecondsPerImage: Number((cpu / files.length).toFixed(3)),
        otherLoadCores,
        idleRssMb: Math.round(idle.rss / 1048576),
        // VmHWM: the kernel's high-water mark of resident memory, so nothing between polls is missed.
        peakRssMb: Math.round(Math.max(peakRss, settled.hwm) / 1048576),
        rssDoneMb: Math.round(done.rss / 1048576),
        settleSeconds,
        rssSettledMb: Math.round(settled.rss / 1048576),
        // The decoder process (decision 0018): its own peak, the server's and its together as polled,
        // and both together at the end (the process has ended by then unless something kept it).
        decoderPeakRssMb: Math.round(childPeakRss / 1048576),
        togetherPeakRssMb: Math.round(togetherPeakRss / 1048576),
        togetherSettledMb: Math.round((settledTogether ?? 0) / 1048576),
      };
      log(
        `  idle ${result.idleRssMb} MB → peak ${result.peakRssMb} MB; ${result.rssDoneMb} MB when done, ` +
          `${result.rssSettledMb} MB ${settleSeconds} s later (${result.seconds} s, ${result.serverCpuSecondsPerImage} s CPU per photo); ` +
          `decoder process peak ${result.decoderPeakRssMb} MB, server + decoder ${result.togetherPeakRssMb} MB at most, ${result.togetherSettledMb} MB at the end`,
      );
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    removeTempDir(dir);
  }
}
