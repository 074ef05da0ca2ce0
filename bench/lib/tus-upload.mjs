// Resumable upload: ~1 GB of distinct 22 MP JPEGs sent through the tus endpoint (POST + PATCH per
// file, `parallel` files at a time, as the command-line importer sends them), measured like the
// memory row's multipart upload: time until every file's outcome is in, the server's peak RSS.
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { bulkUpload, cpuSeconds, makeTempDir, memoryOf, removeTempDir, signUp, startServer, underWatch, watchOtherLoad } from './common.mjs';
import { sourcePhotos, writeVariants } from './variants.mjs';

/**
 * Starts the built server (server/dist; build it first), uploads `targetBytes` of distinct copies of
 * the 22 MP photo through tus and answers { seconds, mbPerSecond, peakRssMb, … }. With
 * `compareMultipart`, the same number of fresh copies then goes through one POST /bulk-upload on the
 * same server, for the throughput ratio (target: tus within 10% of multipart).
 */
export async function benchTusUpload({ targetBytes = 1024 ** 3, parallel = 3, compareMultipart = false, logLevel, env = {}, log = console.log } = {}) {
  const dir = makeTempDir('tus');
  try {
    const canon = sourcePhotos().find((f) => /canon/i.test(path.basename(f))) ?? sourcePhotos()[0];
    const count = Math.max(1, Math.round(targetBytes / statSync(canon).size));
    const files = writeVariants([canon], count, dir, 'tus');
    const totalBytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
    log(`  ${count} distinct copies of ${path.basename(canon)}: ${(totalBytes / 1048576).toFixed(0)} MB through tus, ${parallel} at a time`);

    const server = await startServer({ dataDir: path.join(dir, 'server-data'), logLevel, env, logFile: path.join(dir, 'server.log') });
    try {
      const token = await signUp(server.url, { username: 'bench', email: 'bench@bench.example', password: 'bench-password' });
      const idle = memoryOf(server.pid);
      const run = await underWatch(server.pid, () => uploadAll(server.url, token, files, parallel));
      const { value: outcomes, seconds, cpuSeconds: cpu, otherLoadCores, peakRss, childPeakRss, togetherPeakRss } = run;
      const after = memoryOf(server.pid);
      const kept = outcomes.filter((o) => o.status === 'kept').length;
      if (kept !== count) throw new Error(`only ${kept} of ${count} tus uploads were kept: ${JSON.stringify(outcomes.find((o) => o.status !== 'kept'))}`);
      const result = {
        files: count,
        megabytes: Number((totalBytes / 1048576).toFixed(0)),
        parallel,
        seconds: Number(seconds.toFixed(1)),
        mbPerSecond: Number((totalBytes / 1048576 / seconds).toFixed(1)),
        imagesPerSecond: Number((count / seconds).toFixed(2)),
        serverCpuSecondsPerImage: Number((cpu / count).toFixed(3)),
        otherLoadCores,
        idleRssMb: Math.round(idle.rss / 1048576),
        // VmHWM: the kernel's high-water mark of resident memory, so nothing between polls is missed.
        peakRssMb: Math.round(Math.max(peakRss, after.hwm) / 1048576),
        rssAfterMb: Math.round(after.rss / 1048576),
        decoderPeakRssMb: Math.round(childPeakRss / 1048576),
        togetherPeakRssMb: Math.round(togetherPeakRss / 1048576),
      };
      log(
        `  tus: ${result.mbPerSecond} MB/s (${result.imagesPerSecond} images/s over ${result.seconds} s), peak RSS ${result.peakRssMb} MB (idle ${result.idleRssMb} MB); ` +
          `decoder process peak ${result.decoderPeakRssMb} MB, server + decoder ${result.togetherPeakRssMb} MB`,
      );
      if (compareMultipart) {
        const again = writeVariants([canon], count, dir, 'multipart');
        const multipartCpuBefore = cpuSeconds(server.pid);
        const multipartLoad = watchOtherLoad();
        const res = await bulkUpload(server.url, token, again);
        const multipartCpu = cpuSeconds(server.pid) - multipartCpuBefore;
        result.multipartOtherLoadCores = multipartLoad.stop(multipartCpu);
        result.multipartServerCpuSecondsPerImage = Number((multipartCpu / count).toFixed(3));
        if (res.status !== 200) throw new Error(`POST /bulk-upload answered ${res.status}: ${res.text.slice(0, 300)}`);
        const multipartSeconds = res.ms / 1000;
        result.multipartSeconds = Number(multipartSeconds.toFixed(1));
        result.multipartMbPerSecond = Number((totalBytes / 1048576 / multipartSeconds).toFixed(1));
        result.tusVsMultipart = Number((result.mbPerSecond / result.multipartMbPerSecond).toFixed(2));
        log(
          `  multipart on the same server: ${result.multipartMbPerSecond} MB/s → tus ${result.tusVsMultipart}× ` +
            `(server CPU per image ${result.serverCpuSecondsPerImage} s tus, ${result.multipartServerCpuSecondsPerImage} s multipart)`,
        );
      }
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    removeTempDir(dir);
  }
}

/** Every file through tus, `parallel` at a time; resolves with their outcomes (the final PATCH's JSON). */
export async function uploadAll(url, token, files, parallel) {
  const queue = [...files];
  const outcomes = [];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let file = queue.shift(); file; file = queue.shift()) outcomes.push(await uploadOne(url, token, file));
    }),
  );
  return outcomes;
}

function uploadOne(url, token, file) {
  return new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(file), {
      endpoint: `${url}/api/uploads`,
      headers: { authorization: `Bearer ${token}` },
      // The server decides the type by content; the name is what people see.
      metadata: { filename: path.basename(file) },
      storeFingerprintForResuming: false,
      retryDelays: [500, 1000, 2000],
      onError: reject,
      onSuccess: ({ lastResponse }) => {
        try {
          resolve(JSON.parse(lastResponse.getBody()));
        } catch {
          reject(new Error(`no outcome in the final answer for ${path.basename(file)} (${lastResponse.getStatus()})`));
        }
      },
    });
    upload.start();
  });
}
