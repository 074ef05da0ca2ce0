// The soak's floor: the same simulated people, the same mix and paths, against the smallest Node HTTP
// server (bare-server.mjs: no framework, no database) answering every request with a body the size of
// the real server's average answer. What it reaches is what this machine and this load generator
// allow before the app does any work of its own, so the real run's numbers can be read against it.
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, freePort, trackChild } from './common.mjs';
import { percentile, runPeople } from './soak-workload.mjs';

const bareServer = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-server.mjs');

/** Runs the floor for `seconds`; resolves to { bodyBytes, requestsPerSecond, p50, p99, serverCores, loadGeneratorCores }. */
export async function soakFloor({ accounts, people, seconds, mix, bodyBytes }) {
  const port = await freePort();
  const child = trackChild(fork(bareServer, [], { env: { ...process.env, PORT: String(port), BODY_BYTES: String(bodyBytes) }, stdio: 'ignore' }));
  try {
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
    });
    const cpuBefore = cpuSeconds(child.pid);
    const selfBefore = process.cpuUsage();
    const run = await runPeople({ url: `http://127.0.0.1:${port}`, accounts, people, seconds, mix });
    const serverCpu = cpuSeconds(child.pid) - cpuBefore;
    const self = process.cpuUsage(selfBefore);
    const sorted = Float64Array.from(Object.values(run.samples).flatMap((s) => s.ms)).sort();
    const one = (n) => Number(n.toFixed(1));
    return {
      bodyBytes,
      requestsPerSecond: one(sorted.length / run.seconds),
      p50: one(percentile(sorted, 50)),
      p99: one(percentile(sorted, 99)),
      serverCores: Number((serverCpu / run.seconds).toFixed(2)),
      loadGeneratorCores: Number(((self.user + self.system) / 1e6 / run.seconds).toFixed(2)),
    };
  } finally {
    child.kill('SIGKILL');
  }
}
