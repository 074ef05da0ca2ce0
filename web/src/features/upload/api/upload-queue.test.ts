import { createHash } from 'node:crypto';
import { MAX_CHECK_FILES } from '@photo/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSessionExpiredHandler } from '@/lib/api-client';
import { getToken, setToken } from '@/lib/auth-token';
import { fakeToken, stubFetch } from '@/testing/fetch-stub';
import { rememberUpload, stubTusServer, type FakeTusXhr } from '../testing/fake-tus-server';
import { fingerprintOf, unfinishedUploads } from './unfinished-uploads';
import { networkDeps, UploadQueue, type FilePhase } from './upload-queue';

const photo = (name: string, bytes = 100, lastModified = 1_700_000_000_000) =>
  new File([name.padEnd(bytes, '#').slice(0, bytes)], name, { type: 'image/jpeg', lastModified });

const sha256 = async (file: File) => createHash('sha256').update(new Uint8Array(await file.arrayBuffer())).digest('hex');
const contentOf = async (file: File) => ({ sha256: await sha256(file), size: file.size });

type CheckBody = { files: { sha256: string; size: number }[] };

/** The check call answers `known` among what it is asked; records every question. */
function stubCheck(known: string[] = []) {
  const asked: CheckBody[] = [];
  const fetch = stubFetch({
    'POST /api/uploads/check': ({ init }) => {
      const body = JSON.parse(String(init?.body)) as CheckBody;
      asked.push(body);
      return { body: { known: body.files.filter((file) => known.includes(file.sha256)).map((file) => ({ sha256: file.sha256, imageId: '9' })) } };
    },
  });
  return { asked, fetch };
}

/** Runs a queue over the real network edge (fake XHR and fetch); records every phase each file went through. */
function startQueue(files: File[]) {
  const phases = files.map(() => new Set<FilePhase>());
  const queue: UploadQueue = new UploadQueue(files, networkDeps('u1'), () => queue.states.forEach((state, index) => phases[index]!.add(state.phase)));
  const run = queue.run();
  return { queue, run, phases };
}

const patches = (requests: FakeTusXhr[]) => requests.filter((request) => request.method === 'PATCH');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => vi.useRealTimers());

describe('the upload queue', () => {
  it('sends three files at once, each as its own tus upload, and the next as one ends', async () => {
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    server.patchPlan = () => 'hold';
    const files = Array.from({ length: 7 }, (_, index) => photo(`img-${index}.jpg`));
    const { queue, run } = startQueue(files);

    await vi.waitFor(() => expect(patches(server.pending())).toHaveLength(3));
    await pause(50);
    expect(patches(server.pending())).toHaveLength(3);
    expect(server.sent('POST')).toHaveLength(3);
    expect(server.sent('POST')[0]!.headers['Authorization']).toBe(`Bearer ${getToken()}`);

    server.receive(patches(server.pending())[0]!);
    await vi.waitFor(() => expect(server.sent('POST')).toHaveLength(4));
    expect(patches(server.pending()).length).toBeLessThanOrEqual(3);

    server.patchPlan = () => 'answer';
    for (const request of patches(server.pending())) server.receive(request);
    // Held requests answered, later ones go through at once.
    await vi.waitFor(() => {
      for (const request of patches(server.pending())) server.receive(request);
      expect(queue.states.every((state) => state.phase === 'done')).toBe(true);
    });
    expect(await run).toBe('finished');
    expect(queue.states.map((state) => state.outcome?.status)).toEqual(Array(7).fill('kept'));
    expect(server.sent('POST')).toHaveLength(7);
  });

  it('reports what the library already has as duplicates without sending a byte of it, and declares the sha256 of the rest', async () => {
    setToken(fakeToken());
    const [a, b, c] = [photo('a.jpg'), photo('b.jpg'), photo('c.jpg')];
    const { asked } = stubCheck([await sha256(a!), await sha256(c!)]);
    const server = stubTusServer();
    const { queue, run } = startQueue([a!, b!, c!]);

    expect(await run).toBe('finished');
    expect(queue.states.map((state) => state.outcome?.status)).toEqual(['duplicate', 'kept', 'duplicate']);
    expect(asked.flatMap((body) => body.files)).toEqual(
      await Promise.all([a!, b!, c!].map(async (file) => ({ sha256: await sha256(file), size: file.size }))),
    );
    const [post, ...others] = server.sent('POST');
    expect(others).toHaveLength(0);
    expect(post!.headers['Upload-Metadata']).toContain(`sha256 ${btoa(await sha256(b!))}`);
    expect(post!.headers['Upload-Metadata']).toContain(`filename ${btoa('b.jpg')}`);
    expect(post!.headers['Upload-Metadata']).toContain(`lastModified ${btoa('1700000000000')}`);
    expect(queue.progress()).toMatchObject({ totalBytes: b!.size, sentBytes: b!.size });
  });

  it(`asks about at most ${MAX_CHECK_FILES} contents per check, and not once per file`, async () => {
    setToken(fakeToken());
    const files = Array.from({ length: MAX_CHECK_FILES + 5 }, (_, index) => photo(`same-${index}.jpg`, 20));
    const known = await Promise.all(files.map(sha256));
    const { asked } = stubCheck(known);
    const server = stubTusServer();
    const { queue, run } = startQueue(files);

    expect(await run).toBe('finished');
    expect(queue.states.every((state) => state.outcome?.status === 'duplicate')).toBe(true);
    expect(asked.every((body) => body.files.length <= MAX_CHECK_FILES)).toBe(true);
    expect(asked.reduce((sum, body) => sum + body.files.length, 0)).toBe(files.length);
    expect(asked.length).toBeLessThan(10);
    expect(server.requests).toHaveLength(0);
  });

  it('pauses: the request on its way stops and nothing more goes; resuming continues from what the server has', async () => {
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    server.patchPlan = () => 'hold';
    const { queue, run } = startQueue([photo('long.jpg', 100)]);
    await vi.waitFor(() => expect(patches(server.pending())).toHaveLength(1));
    const first = patches(server.pending())[0]!;
    first.progress(40);
    expect(queue.states[0]).toMatchObject({ phase: 'sending', sent: 40 });

    queue.pause();
    expect(queue.paused).toBe(true);
    expect(queue.states[0]!.phase).toBe('paused');
    expect(first.state).toBe('aborted');
    [...server.uploads.values()][0]!.offset = 40; // what arrived before the pause
    await pause(50);
    expect(server.requests).toHaveLength(2); // POST and the aborted PATCH

    server.patchPlan = () => 'answer';
    queue.resume();
    expect(await run).toBe('finished');
    expect(server.requests.slice(2).map((request) => [request.method, request.headers['Upload-Offset'], request.bodySize])).toEqual([
      ['HEAD', undefined, 0],
      ['PATCH', '40', 60],
    ]);
    expect(queue.states[0]!.outcome).toEqual({ status: 'kept' });
  });

  it.each([
    ['the connection drops', 'network' as const],
    ['the server fails', 503],
  ])('when %s mid-file it tries again by itself from the offset the server has', async (_case, fail) => {
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    let failed = false;
    server.patchPlan = () => (failed ? 'answer' : ((failed = true), { fail, keepBytes: 30 }));
    const { queue, run, phases } = startQueue([photo('flaky.jpg', 100)]);

    expect(await run).toBe('finished');
    expect(phases[0]).toContain('retrying');
    expect(server.requests.map((request) => [request.method, request.headers['Upload-Offset'] ?? null, request.bodySize])).toEqual([
      ['POST', null, 0],
      ['PATCH', '0', 100],
      ['HEAD', null, 0],
      ['PATCH', '30', 70],
    ]);
    expect(queue.states[0]!.outcome).toEqual({ status: 'kept' });
  });

  it('waits while the browser is offline and continues when it is back online', async () => {
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    const online = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    let failed = false;
    server.patchPlan = () => (failed ? 'answer' : ((failed = true), { fail: 'network', keepBytes: 50 }));
    const { queue, run } = startQueue([photo('away.jpg', 100)]);

    await vi.waitFor(() => expect(queue.states[0]!.phase).toBe('offline'));
    await pause(100);
    expect(server.requests).toHaveLength(2); // no tries while offline

    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(await run).toBe('finished');
    expect(server.requests.slice(2).map((request) => [request.method, request.headers['Upload-Offset'] ?? null])).toEqual([
      ['HEAD', null],
      ['PATCH', '50'],
    ]);
  });

  it('stops when the network stays away through every try, leaving the unfinished files resumable', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    server.patchPlan = () => ({ fail: 'network' });
    const { queue, run } = startQueue([photo('one.jpg'), photo('two.jpg'), photo('three.jpg'), photo('four.jpg')]);
    await vi.waitFor(() => expect(patches(server.requests).length).toBeGreaterThan(0));
    await vi.advanceTimersByTimeAsync(10 * 60_000);

    expect(await run).toBe('stopped');
    expect(queue.states.map((state) => state.outcome?.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(server.sent('POST')).toHaveLength(3); // the fourth never started
    expect((await unfinishedUploads('u1')).map((upload) => upload.name).sort()).toEqual(['one.jpg', 'three.jpg', 'two.jpg']);
  });

  it('continues an upload an earlier page left unfinished, matched by the file\'s fingerprint, and starts the others afresh', async () => {
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    const [big, other] = [photo('big.jpg', 100), photo('other.jpg', 50)];
    const earlier = server.seed({ filename: 'big.jpg' }, 100, 60);
    rememberUpload(fingerprintOf(await contentOf(big!), 'u1'), earlier);
    // Someone else's upload of a file like it, in the same browser: neither offered nor used.
    rememberUpload(fingerprintOf(await contentOf(other!), 'u2'), server.seed({ filename: 'other.jpg' }, 50, 10));
    expect((await unfinishedUploads('u1')).map((upload) => upload.name)).toEqual(['big.jpg']);

    const { queue, run } = startQueue([big!, other!]);
    expect(await run).toBe('finished');
    const toEarlier = server.requests.filter((request) => request.url.endsWith(earlier.id));
    expect(toEarlier.map((request) => [request.method, request.headers['Upload-Offset'] ?? null, request.bodySize])).toEqual([
      ['HEAD', null, 0],
      ['PATCH', '60', 40],
    ]);
    expect(server.sent('POST').map((request) => request.headers['Upload-Metadata'])).toEqual([expect.stringContaining(btoa('other.jpg'))]);
    expect(queue.states[0]).toMatchObject({ resumed: true, outcome: { status: 'kept' } });
    expect(queue.states[1]).toMatchObject({ resumed: false, outcome: { status: 'kept' } });
    expect(await unfinishedUploads('u1')).toEqual([]);
  });

  it('forgets (and abandons on the server) an unfinished upload of a file the library turns out to have', async () => {
    setToken(fakeToken());
    const file = photo('known.jpg');
    stubCheck([await sha256(file)]);
    const server = stubTusServer();
    const earlier = server.seed({ filename: 'known.jpg' }, 100, 60);
    rememberUpload(fingerprintOf(await contentOf(file), 'u1'), earlier);

    const { queue, run } = startQueue([file]);
    expect(await run).toBe('finished');
    expect(queue.states[0]!.outcome).toEqual({ status: 'duplicate' });
    await vi.waitFor(async () => expect(await unfinishedUploads('u1')).toEqual([]));
    expect(server.sent('DELETE').map((request) => request.url)).toEqual([expect.stringMatching(new RegExp(`${earlier.id}$`))]);
    expect(server.sent('PATCH')).toHaveLength(0);
  });

  it('measures the speed from the bytes sent, not counting what the server had from an earlier page', async () => {
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    server.patchPlan = () => 'hold';
    const file = photo('measured.jpg', 10_000);
    rememberUpload(fingerprintOf(await contentOf(file), 'u1'), server.seed({ filename: 'measured.jpg' }, 10_000, 4000));
    let now = 0;
    const queue = new UploadQueue([file], { ...networkDeps('u1'), now: () => now }, () => undefined);
    void queue.run();
    await vi.waitFor(() => expect(patches(server.pending())).toHaveLength(1));
    expect(queue.progress()).toEqual({ totalBytes: 10_000, sentBytes: 4000, bytesPerSecond: 0 });

    patches(server.pending())[0]!.progress(1000);
    now = 2000;
    patches(server.pending())[0]!.progress(3000);
    expect(queue.progress()).toEqual({ totalBytes: 10_000, sentBytes: 7000, bytesPerSecond: 1000 });
    queue.pause();
    expect(queue.progress().bytesPerSecond).toBe(0);
  });

  it('sends the same content once when a selection holds it twice, the copy reported as a duplicate', async () => {
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    const original = photo('IMG_1.jpg');
    const copy = new File([original], 'copy of IMG_1.jpg', { type: 'image/jpeg' });
    const { queue, run } = startQueue([original, photo('other.jpg'), copy]);

    expect(await run).toBe('finished');
    expect(queue.states.map((state) => state.outcome?.status)).toEqual(['kept', 'kept', 'duplicate']);
    expect(server.sent('POST').map((request) => request.headers['Upload-Metadata'])).toEqual([
      expect.stringContaining(btoa('IMG_1.jpg')),
      expect.stringContaining(btoa('other.jpg')),
    ]);
  });

  it('reports the server\'s refusals with their reasons: at creation, and once the file is in', async () => {
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    server.refuseCreation = (metadata) =>
      metadata['filename'] === 'huge.jpg' ? { status: 413, body: { message: 'The file is larger than the 200 MB limit.' } } : undefined;
    server.outcome = (upload) => (upload.metadata['filename'] === 'notes.jpg' ? { status: 'refused', reason: 'Not an image.' } : { status: 'kept', imageId: '4' });
    const { queue, run } = startQueue([photo('huge.jpg'), photo('notes.jpg'), photo('fine.jpg')]);

    expect(await run).toBe('finished');
    expect(queue.states.map((state) => state.outcome)).toEqual([
      { status: 'refused', reason: 'The file is larger than the 200 MB limit.' },
      { status: 'refused', reason: 'Not an image.' },
      { status: 'kept' },
    ]);
  });

  it('asks for the outcome when the final answer carries none, waiting as long as the server is processing', async () => {
    setToken(fakeToken());
    const server = stubTusServer();
    server.patchPlan = (request) => {
      // The last byte's answer is lost with the connection, after the server got it.
      const upload = [...server.uploads.values()][0]!;
      upload.offset = upload.size;
      request.failNetwork();
      return 'hold';
    };
    let asked = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/uploads/check') return Response.json({ known: [] });
        asked += 1;
        return asked === 1
          ? Response.json({ message: 'The file is being processed; ask again in a moment.' }, { status: 409, headers: { 'Retry-After': '1' } })
          : Response.json({ fileName: 'slow.jpg', status: 'refused', reason: 'The picture is too large.' });
      }),
    );
    const { queue, run } = startQueue([photo('slow.jpg')]);

    expect(await run).toBe('finished');
    expect(asked).toBe(2);
    expect(queue.states[0]!.outcome).toEqual({ status: 'refused', reason: 'The picture is too large.' });
  });

  it('ends the session on a 401 like every other call, and stops', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    setToken(fakeToken());
    stubCheck();
    const server = stubTusServer();
    server.refuseCreation = () => ({ status: 401, body: { message: 'Your session has expired. Please sign in again.' } });
    const { run } = startQueue([photo('a.jpg'), photo('b.jpg')]);

    expect(await run).toBe('stopped');
    expect(getToken()).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
  });
});
