// Memory: the server's peak resident memory while it takes one ~1 GB bulk upload (distinct copies
// of the 22 MP Canon photo), streamed from disk in one request.
import { statSync } from 'node:fs';
import path from 'node:path';
import { bulkUpload, makeTempDir, memoryOf, removeTempDir, signUp, startServer, underWatch } from './common.mjs';
import { sourcePhotos, writeVariants } from './variants.mjs';

export async function benchMemory({ targetBytes = 1024 ** 3, logLevel, env = {}, log = console.log }) {
  const dir = makeTempDir('memory');
  try {
    const canon = sourcePhotos().find((f) => /canon/i.test(path.basename(f))) ?? sourcePhotos()[0];
    const count = Math.max(1, Math.round(targetBytes / statSync(canon).size));
    const files = writeVariants([canon], count, dir, 'memory');
    const totalBytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
    log(`  ${count} distinct copies of ${path.basename(canon)}: ${(totalBytes / 1048576).toFixed(0)} MB in one request`);

    const server = await startServer({ dataDir: path.join(dir, 'server-data'), logLevel, env, logFile: path.join(dir, 'server.log') });
    let samples = 0;
    const timeline = [];
    try {
      const token = await signUp(server.url, { username: 'bench', email: 'bench@bench.example', password: 'bench-password' });
      const idle = memoryOf(server.pid);
      const started = performance.now();
      // Every 20th poll (once a second) goes into the timeline.
      const onSample = (m) => {
        samples += 1;
        if (samples % 20 === 0) timeline.push([Number(((performance.now() - started) / 1000).toFixed(1)), Math.round(m.rss / 1048576)]);
      };
      const watched = await underWatch(server.pid, () => bulkUpload(server.url, token, files), { onSample });
      const { value: res, cpuSeconds: cpu, otherLoadCores, peakRss, childPeakRss, togetherPeakRss } = watched;
      const after = memoryOf(server.pid);
      if (res.status !== 200) throw new Error(`POST /bulk-upload answered ${res.status}: ${res.text.slice(0, 300)}`);
      const kept = res.json.results.filter((r) => r.status === 'kept').length;
      if (kept !== count) throw new Error(`only ${kept} of ${count} uploads were kept`);
      const seconds = res.ms / 1000;
      const result = {
        files: count,
        megabytes: Number((totalBytes / 1048576).toFixed(0)),
        seconds: Number(seconds.toFixed(1)),
        imagesPerSecond: Number((count / seconds).toFixed(2)),
        serverCpuSecondsPerImage: Number((cpu / count).toFixed(3)),
        otherLoadCores,
        idleRssMB: Math.round(idle.rss / 1048576),
        // VmHWM: the kernel's own high-water mark of the process's resident memory (nothing missed between polls).
        peakRssMB: Math.round(Math.max(peakRss, after.hwm) / 1048576),
        peakPolledRssMB: Math.round(peakRss / 1048576),
        rssAfterMB: Math.round(after.rss / 1048576),
        // The decoder process (decision 0018): its own peak, and the server's and its together as polled.
        decoderPeakRssMB: Math.round(childPeakRss / 1048576),
        togetherPeakRssMB: Math.round(togetherPeakRss / 1048576),
        samples,
        timeline,
      };
      log(
        `  peak RSS ${result.peakRssMB} MB (idle ${result.idleRssMB} MB, after ${result.rssAfterMB} MB), ${result.imagesPerSecond} images/s over ${result.seconds} s; ` +
          `decoder process peak ${result.decoderPeakRssMB} MB, server + decoder ${result.togetherPeakRssMB} MB`,
      );
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    removeTempDir(dir);
  }
}
