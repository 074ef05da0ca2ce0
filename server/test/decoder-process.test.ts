import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DECODER_GLIBC_TUNABLE,
  DECODER_MALLOC_SETTINGS,
  DecoderProcess,
  decoderProcess,
  FRESH_PROCESS_BYTES,
} from '../src/decoder-process/decoder-process.js';
import { decoderLanes } from '../src/decoder-process/decoder-lanes.js';
import { deriveImages } from '../src/image-processing/derive.js';
import { TooManyPixelsError, UnreadableImageError } from '../src/image-processing/image-errors.js';
import { startChildServer } from './support/child-server.js';
import { apiClient, newPerson } from './support/http.js';
import { TESTDATA, upload } from './support/images.js';
import { startTestServer } from './support/test-server.js';

const JPEG = path.join(TESTDATA, 'large/canon-eos-5d-mark-iii-22mp.jpg');
const HEIC = path.join(TESTDATA, 'formats/iphone-xr-orient6-gps.heic');
const TINY = path.join(TESTDATA, 'tiny/iphone-xr-1x1-gps.jpg');
// Takes a second or more to decode: long enough to kill its decoder midway.
const AVIF = path.join(TESTDATA, 'formats/canon-eos-70d-20mp.avif');

/** Running (a process that ended but is not reaped yet, a zombie, counts as ended). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

/** The nice value of every thread of a process (Linux /proc: field 19 of each task's stat). */
function niceOfThreads(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('the decoder process', () => {
  let decoders: DecoderProcess | undefined;
  afterEach(async () => {
    await decoders?.close();
    decoders = undefined;
  });

  it('makes the same derived images as decoding in the server, for JPEG and HEIC', async () => {
    decoders = new DecoderProcess();
    for (const [file, decoder] of [[JPEG, 'sharp'], [HEIC, 'heic']] as const) {
      const [there, here] = await Promise.all([decoders.derive(file, decoder), deriveImages(file, decoder)]);
      expect(Buffer.isBuffer(there.display.data)).toBe(true);
      expect({ ...there.display, data: there.display.data.length }).toEqual({ ...here.display, data: here.display.data.length });
      expect(there.thumbnail.data.equals(here.thumbnail.data)).toBe(true);
      expect(there.placeholder).toBe(here.placeholder);
    }
  }, 60_000);

  it('is at a background priority from the moment it is started, before its own code has loaded', async () => {
    decoders = new DecoderProcess();
    const derived = decoders.derive(JPEG, 'sharp');
    const pid = decoders.pid;
    expect(pid).toBeDefined();
    // Read at once: the process lowers its threads itself only once its modules are loaded (~0.1 s on).
    if (process.platform === 'linux') expect(niceOfThreads(pid!)[0]).toBe(10);
    await derived;
  }, 30_000);

  it('runs at a background priority, every thread of it, and ends once idle', async () => {
    decoders = new DecoderProcess({ idleMs: 300 });
    await decoders.derive(JPEG, 'sharp');
    const pid = decoders.pid;
    expect(pid).toBeDefined();
    if (process.platform === 'linux') expect(new Set(niceOfThreads(pid!))).toEqual(new Set([10]));
    await until(() => !alive(pid!));
    expect(decoders.pid).toBeUndefined();
    // The next picture starts a new one.
    await decoders.derive(JPEG, 'sharp');
    expect(decoders.pid).not.toBe(pid);
  }, 30_000);

  it("runs with its own mmap and trim thresholds and huge pages instead of the server's, in one malloc arena like the server", async () => {
    // As `npm start` sets them for the server (scripts/server-runtime.mjs), and one more to see it passed on.
    const set = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072', PHOTO_TEST_MARK: 'kept' };
    const before = Object.fromEntries(Object.keys(set).map((key) => [key, process.env[key]]));
    Object.assign(process.env, set);
    try {
      decoders = new DecoderProcess();
      await decoders.derive(TINY, 'sharp');
      const environ = readFileSync(`/proc/${decoders.pid}/environ`, 'utf8').split('\0');
      for (const [key, value] of Object.entries(DECODER_MALLOC_SETTINGS)) expect(environ).toContain(`${key}=${value}`);
      expect(environ).toContain(`GLIBC_TUNABLES=${DECODER_GLIBC_TUNABLE}`);
      // Everything else is the server's, the one arena included.
      expect(environ).toContain('MALLOC_ARENA_MAX=1');
      expect(environ).toContain('PHOTO_TEST_MARK=kept');
    } finally {
      for (const [key, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  }, 30_000);

  it('starts the largest decodes in a fresh process when the current one is idle, and keeps it for the next', async () => {
    decoders = new DecoderProcess();
    await decoders.derive(JPEG, 'sharp');
    const earlier = decoders.pid!;
    await decoders.derive(AVIF, 'sharp', FRESH_PROCESS_BYTES);
    const fresh = decoders.pid!;
    expect(fresh).not.toBe(earlier);
    await until(() => !alive(earlier));
    await decoders.derive(JPEG, 'sharp', FRESH_PROCESS_BYTES - 1);
    expect(decoders.pid).toBe(fresh);
    // Not while other work is in it: that would end the work (the image pool runs such decodes alone anyway).
    const [, , pidMeanwhile] = await Promise.all([
      decoders.derive(JPEG, 'sharp'),
      decoders.derive(AVIF, 'sharp', FRESH_PROCESS_BYTES),
      Promise.resolve(decoders.pid),
    ]);
    expect(pidMeanwhile).toBe(fresh);
    expect(decoders.pid).toBe(fresh);
  }, 60_000);

  it('keeps a refusal’s reason and kind across the process boundary', async () => {
    decoders = new DecoderProcess();
    const refusal = await decoders.derive(path.join(TESTDATA, 'broken/truncated_jpeg.jpg'), 'sharp').catch((error: unknown) => error);
    const inline = await deriveImages(path.join(TESTDATA, 'broken/truncated_jpeg.jpg'), 'sharp').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UnreadableImageError);
    expect(refusal).not.toBeInstanceOf(TooManyPixelsError);
    expect((refusal as Error).message).toBe((inline as Error).message);
  }, 30_000);

  it('tries a picture again in a new process when its decoder dies, and refuses it after two deaths alone', async () => {
    decoders = new DecoderProcess();
    const first = decoders.derive(AVIF, 'sharp');
    await until(() => decoders!.pid !== undefined);
    const killed = decoders.pid!;
    await sleep(300);
    process.kill(killed, 'SIGKILL');
    const derived = await first;
    expect(derived.display.width).toBeGreaterThan(0);
    expect(decoders.pids).not.toContain(killed);

    // Each attempt's process killed: the picture is refused as undecodable, not tried for ever.
    const second = decoders.derive(AVIF, 'sharp').catch((error: unknown) => error);
    let kills = 0;
    const killedPids = new Set<number>();
    while (kills < 2) {
      const pid = decoders.pids.find((p) => !killedPids.has(p) && alive(p));
      if (pid !== undefined) {
        await sleep(200);
        process.kill(pid, 'SIGKILL');
        killedPids.add(pid);
        kills += 1;
      }
      await sleep(20);
    }
    const refusal = await second;
    expect(refusal).toBeInstanceOf(UnreadableImageError);
    expect((refusal as Error).message).toMatch(/^The image could not be decoded: its decoder stopped \(SIGKILL\)\.$/);
    // Other work goes on.
    expect((await decoders.derive(JPEG, 'sharp')).display.width).toBe(1920);
  }, 60_000);

  it('keeps a photo that was decoding beside a file that crashes its decoder, and refuses only that file', async () => {
    decoders = new DecoderProcess({ entry: path.join(import.meta.dirname, 'support/hostile-decoder-child.ts') });
    const dir = mkdtempSync(path.join(tmpdir(), 'hostile-'));
    const hostile = path.join(dir, 'hostile.jpg');
    copyFileSync(TINY, hostile);
    try {
      // The photo is mid-decode in the shared process when the hostile file kills it.
      const photo = decoders.derive(AVIF, 'sharp');
      await until(() => decoders!.pid !== undefined);
      await sleep(300);
      const shared = decoders.pid!;
      const refusal = await decoders.derive(hostile, 'sharp').catch((error: unknown) => error);
      expect(alive(shared)).toBe(false);
      expect(refusal).toBeInstanceOf(UnreadableImageError);
      expect((refusal as Error).message).toBe('The image could not be decoded: its decoder stopped (SIGKILL).');
      const kept = await photo;
      expect(kept.display.width).toBe(1920);
      // Each was tried again in a process of its own, and those end with their picture.
      await until(() => decoders!.pids.length === 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a picture that takes longer than the time allowed, and goes on with the next', async () => {
    decoders = new DecoderProcess({ timeoutMs: 200 });
    // Started and warm, so only the AVIF's own decode (~0.5 s here) is timed.
    await decoders.derive(TINY, 'sharp');
    const slow = await decoders.derive(AVIF, 'sharp').catch((error: unknown) => error);
    expect(slow).toBeInstanceOf(UnreadableImageError);
    expect((slow as Error).message).toBe('The image could not be decoded: it took longer than 0.2 s.');
    expect((await decoders.derive(TINY, 'sharp')).display.width).toBe(1);
  }, 30_000);

  it('ends when the server is killed with SIGKILL in the middle of a decode', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const module = pathToFileURL(path.resolve(import.meta.dirname, '../src/decoder-process/decoder-process.ts')).href;
    const script = `
      const { DecoderProcess } = await import(${JSON.stringify(module)});
      const decoders = new DecoderProcess();
      // Seconds of work queued: a decoder left to finish it would outlive the deadline below.
      for (let i = 0; i < 4; i += 1) void decoders.derive(${JSON.stringify(AVIF)}, 'sharp');
      const timer = setInterval(() => { if (decoders.pid) { console.log(decoders.pid); clearInterval(timer); } }, 10);
      setInterval(() => {}, 1000);`;
    const server = spawn(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const decoderPid = await new Promise<number>((resolve, reject) => {
      server.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      server.once('exit', (code) => reject(new Error(`the script exited (${code})`)));
    });
    expect(alive(decoderPid)).toBe(true);
    await sleep(300);
    server.kill('SIGKILL');
    await until(() => !alive(decoderPid), 1000);
  }, 30_000);

  it('leaves the server without an image library: headers, EXIF and pixels are all read in the decoder process', async () => {
    // A real server process, as `npm start` runs it: what it maps is its own, not the test runner's.
    const server = await startChildServer();
    try {
      const api = apiClient(server.url);
      const token = (await api.post<{ token: string }>('/signup', newPerson('lean'))).body.token;
      // A JPEG (EXIF read by exifr), a WebP (its EXIF block handed over by libvips), a HEIC, a bomb
      // refused from its header, and a file that is no image, refused from its first bytes.
      const res = await upload(server.url, token, [
        { source: path.join(TESTDATA, 'formats/iphone-x-orient6-gps.webp'), name: 'phone.webp' },
        { source: HEIC, name: 'phone.heic' },
        { source: JPEG, name: 'camera.jpg' },
        { source: path.join(TESTDATA, 'broken/decompression_bomb.gif'), name: 'bomb.gif' },
        { source: path.join(TESTDATA, 'broken/not_an_image.jpg'), name: 'notes.jpg' },
      ]);
      expect(res.body.results?.map((r) => r.status)).toEqual(['kept', 'kept', 'kept', 'refused', 'refused']);
      expect(res.body.results?.[4]?.reason).toMatch(/not an image|not a supported image/);
      const webp = (await api.get<{ camera: string | null; gps: unknown }>(`/api/images/${res.body.results?.[0]?.imageId}`, token)).body;
      expect(webp.camera).not.toBeNull();
      expect(webp.gps).not.toBeNull();
      const maps = readFileSync(`/proc/${server.pid}/maps`, 'utf8');
      expect(maps).not.toMatch(/libvips|sharp-/);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('reads the facts of pictures stored before the timeline in the decoder process too (the facts backfill)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'photo-backfill-'));
    try {
      let server = await startChildServer({}, { dataDir });
      let api = apiClient(server.url);
      const token = (await api.post<{ token: string }>('/signup', newPerson('old'))).body.token;
      // A WebP, whose EXIF block libvips hands over, and a JPEG, read by exifr.
      const res = await upload(server.url, token, [
        { source: path.join(TESTDATA, 'formats/iphone-x-orient6-gps.webp'), name: 'phone.webp' },
        { source: JPEG, name: 'camera.jpg' },
      ]);
      expect(res.body.results?.map((r) => r.status)).toEqual(['kept', 'kept']);
      await server.stop();
      // As migration 010 leaves pictures stored before the timeline: their facts are read again at start.
      const db = new SQLite(path.join(dataDir, 'photos.sqlite'));
      const current = (db.prepare('select max(facts_version) as v from media').get() as { v: number }).v;
      db.prepare('update media set facts_version = 0, lens = null, file_date = null').run();
      db.close();

      server = await startChildServer({}, { dataDir });
      try {
        api = apiClient(server.url);
        const pending = () => {
          const reader = new SQLite(path.join(dataDir, 'photos.sqlite'), { readonly: true });
          try {
            return (reader.prepare('select count(*) as n from media where facts_version < ?').get(current) as { n: number }).n;
          } finally {
            reader.close();
          }
        };
        await until(() => pending() === 0, 20_000);
        const webp = (await api.get<{ camera: string | null; gps: unknown }>(`/api/images/${res.body.results?.[0]?.imageId}`, token)).body;
        expect(webp.camera).not.toBeNull();
        expect(webp.gps).not.toBeNull();
        expect(readFileSync(`/proc/${server.pid}/maps`, 'utf8')).not.toMatch(/libvips|sharp-/);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('serves the same photos whether the server decodes in its process or inline (IMAGE_DECODER)', async () => {
    const seen = [];
    for (const mode of ['process', 'inline']) {
      await decoderProcess.close();
      const server = await startTestServer('sqlite', { env: { IMAGE_DECODER: mode } });
      try {
        const api = apiClient(server.url);
        const token = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
        const res = await upload(server.url, token, [{ source: HEIC, name: 'phone.heic' }, { source: JPEG, name: 'camera.jpg' }]);
        expect(res.body.results?.map((r) => r.status)).toEqual(['kept', 'kept']);
        const images = await Promise.all(
          (res.body.results ?? []).map(async (r) => (await api.get<{ width: number; height: number; placeholder: string }>(`/api/images/${r.imageId}`, token)).body),
        );
        seen.push(images.map(({ width, height, placeholder }) => ({ width, height, placeholder })));
        // The server's decoder process ran the decodes, or none was started.
        expect(decoderProcess.pid !== undefined).toBe(mode === 'process');
      } finally {
        await server.close();
      }
    }
    expect(seen[0]).toEqual(seen[1]);
  }, 60_000);
});

/** The CPUs a process may run on (Linux /proc), as the kernel lists them ("0", "0-1"). */
function cpusOf(pid: number): string {
  return /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '';
}

// One decoder process per core, each held to its core (decision 0050), where this machine allows it.
const pinnable = decoderLanes(64);

describe.skipIf(!pinnable.cpus)('decoder lanes held to their cores', () => {
  let decoders: DecoderProcess | undefined;
  afterEach(async () => {
    await decoders?.close();
    decoders = undefined;
  });
  const cpus = pinnable.cpus!.slice(0, 2);

  it('decodes two pictures at once in two processes, each held to its own core, and starts the second only when needed', async () => {
    decoders = new DecoderProcess({ idleMs: 400, lanes: { cpus } });
    // One picture at a time, and the light requests beside it, keep to one process.
    await decoders.sniff(readFileSync(JPEG).subarray(0, 4100));
    await decoders.derive(JPEG, 'sharp');
    await decoders.probe(JPEG, 'sharp');
    expect(decoders.pids).toHaveLength(1);
    const first = decoders.pid!;
    expect(cpusOf(first)).toBe(String(cpus[0]));

    const both = Promise.all([decoders.derive(JPEG, 'sharp'), decoders.derive(HEIC, 'heic')]);
    // A header asked for meanwhile goes to a running lane, not to a third process.
    const probed = await decoders.probe(TINY, 'sharp');
    expect(probed.width).toBe(1);
    expect(decoders.pids).toHaveLength(2);
    expect(decoders.pids.map(cpusOf).sort()).toEqual(cpus.map(String).sort());
    const [jpeg, heic] = await both;
    const alone = await deriveImages(HEIC, 'heic');
    expect(heic.placeholder).toBe(alone.placeholder);
    expect(heic.display.data.equals(alone.display.data)).toBe(true);
    expect(jpeg.display.width).toBe(1920);
    // Every thread of each is held to its core and at a background priority.
    for (const pid of decoders.pids) {
      const allowed = readdirSync(`/proc/${pid}/task`).map((tid) => /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))?.[1]);
      expect(new Set(allowed).size).toBe(1);
      expect(new Set(niceOfThreads(pid))).toEqual(new Set([10]));
    }
    const pids = decoders.pids;
    await until(() => pids.every((pid) => !alive(pid)));
    expect(decoders.pids).toEqual([]);
  }, 60_000);

  it('ends every idle lane before the largest decodes, which start in a fresh process', async () => {
    decoders = new DecoderProcess({ lanes: { cpus } });
    await Promise.all([decoders.derive(JPEG, 'sharp'), decoders.derive(JPEG, 'sharp')]);
    const earlier = decoders.pids;
    expect(earlier).toHaveLength(2);
    await decoders.derive(AVIF, 'sharp', FRESH_PROCESS_BYTES);
    await until(() => earlier.every((pid) => !alive(pid)));
    expect(decoders.pids).toHaveLength(1);
    expect(earlier).not.toContain(decoders.pid);
  }, 60_000);

  it('starts its processes unpinned when a core cannot be held to, and still decodes', async () => {
    // No machine has this CPU: taskset refuses, the process never starts, the picture is decoded all the same.
    decoders = new DecoderProcess({ lanes: { cpus: [4095, 4094] } });
    const warned = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const derived = await decoders.derive(JPEG, 'sharp');
      expect(derived.display.width).toBe(1920);
      await decoders.derive(JPEG, 'sharp');
      expect(decoders.pids.length).toBeGreaterThan(0);
      for (const pid of decoders.pids) expect(cpusOf(pid)).toBe(cpusOf(process.pid));
      expect(warned.mock.calls.map(String).join('\n')).toContain('decoder processes run unpinned from now on');
    } finally {
      warned.mockRestore();
    }
  }, 60_000);
});
