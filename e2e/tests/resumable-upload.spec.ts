import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Locator, Page, Request } from '@playwright/test';
import sharp from 'sharp';
import { createAccountByApi, expect, freePort, newPerson, signInAs, signUpByApi, test, testPhoto, uploadByApi, waitForHealth } from './fixtures.js';

/**
 * Issue 15: the upload page sends each file as a tus upload that survives a lost network and a
 * reload, and never sends what the library already has. Big files are made here (random pixels, so
 * every one is new content) and the browser's upload speed is held down, so a transfer lasts long
 * enough to be interrupted.
 */

const TUS_PATH = '/api/uploads';
/** A few seconds per big file. */
const SLOW_UPLOAD_BYTES_PER_SECOND = 4_000_000;
/** How long the network is cut: a few of the client's quick first tries fail. */
const CUT_MS = 3000;

let folder: string;
test.beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'photo-e2e-resumable-'));
});
test.afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A ~30 MB JPEG of random pixels, on disk (a path, so the same file can be picked again after a reload). */
async function bigPhoto(name: string): Promise<{ file: string; size: number }> {
  const data = await sharp({ create: { width: 3200, height: 3200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 80 } } })
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .toBuffer();
  const file = path.join(folder, name);
  await writeFile(file, data);
  return { file, size: data.length };
}

/** Holds the page's upload speed down (Chromium's network emulation), or lets it go with `null`. */
async function limitUploads(cdp: CDPSession, bytesPerSecond: number | null): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond ?? -1 });
}

/** The tus endpoint and one upload's URL (not the check and outcome calls beside them). */
const TUS_URL = new RegExp(`${TUS_PATH}(/[0-9a-f]{32})?$`);
const UPLOAD_URL = new RegExp(`${TUS_PATH}/[0-9a-f]{32}$`);

/** The tus requests the page makes, in order, from now on. */
function recordTus(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (TUS_URL.test(new URL(request.url()).pathname)) requests.push(request);
  });
  return requests;
}

function fileRow(page: Page, fileName: string): Locator {
  return page.getByRole('list', { name: 'Selected images' }).getByRole('listitem').filter({ has: page.getByRole('progressbar', { name: fileName, exact: true }) });
}

const percentOf = async (page: Page, fileName: string) =>
  Number(await page.getByRole('progressbar', { name: fileName, exact: true }).getAttribute('aria-valuenow'));

const offsetOf = async (request: Request) => Number(await request.headerValue('upload-offset'));

test('an upload continues by itself after the network was cut mid-file', async ({ page, app }) => {
  test.setTimeout(120_000);
  await signInAs(page, await signUpByApi(app, newPerson('offline')));
  const big = await bigPhoto('cut-network.jpg');
  const requests = recordTus(page);
  // Once the first part of the file is in, the network is gone for a few seconds: every request to the upload fails.
  let cutUntil = 0;
  const cut: Request[] = [];
  await page.route(UPLOAD_URL, async (route) => {
    const request = route.request();
    if (cutUntil === 0 && request.method() === 'PATCH' && (await offsetOf(request)) > 0) cutUntil = Date.now() + CUT_MS;
    if (Date.now() >= cutUntil) return route.continue();
    cut.push(request);
    return route.abort('internetdisconnected');
  });
  await page.goto('/uploadImages');
  await page.getByLabel('Images').setInputFiles(big.file);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  // The page says so while it waits, then goes on alone.
  await expect(fileRow(page, 'cut-network.jpg')).toContainText(/Connection lost at \d+%, trying again/);
  // Done: the screen goes on to the profile (spec §2).
  await expect(page).toHaveURL(/\/profile$/, { timeout: 60_000 });
  await expect(page.getByText('1 image uploaded.')).toBeVisible();
  expect(cut.length).toBeGreaterThan(0);
  // The same upload went on from where the server was: one creation, the last PATCH from past the start.
  expect(requests.filter((request) => request.method() === 'POST')).toHaveLength(1);
  const afterCut = requests.slice(requests.indexOf(cut.at(-1)!) + 1);
  expect(afterCut.map((request) => request.method())).toEqual(['HEAD', 'PATCH']);
  expect(await offsetOf(afterCut[1]!)).toBeGreaterThan(0);
});

test('after a reload mid-upload the page offers to resume, and the file finishes sending only what was missing', async ({ page, app }) => {
  test.setTimeout(120_000);
  await signInAs(page, await signUpByApi(app, newPerson('reload')));
  const big = await bigPhoto('reloaded.jpg');
  const cdp = await page.context().newCDPSession(page);
  // Leaving mid-upload asks first; the person confirms.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto('/uploadImages');
  await page.getByLabel('Images').setInputFiles(big.file);
  await limitUploads(cdp, SLOW_UPLOAD_BYTES_PER_SECOND);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  // Past the first request's worth of bytes, so the server surely has some.
  await expect.poll(() => percentOf(page, 'reloaded.jpg'), { timeout: 30_000 }).toBeGreaterThanOrEqual(60);

  await page.reload();
  await limitUploads(cdp, null);
  const offer = page.getByRole('region', { name: 'Unfinished uploads' });
  await expect(offer).toContainText('1 unfinished upload: reloaded.jpg.');
  await expect(offer).toContainText('Choose the same files again');

  const requests = recordTus(page);
  const chooser = page.waitForEvent('filechooser');
  await offer.getByRole('button', { name: 'Resume' }).click();
  await (await chooser).setFiles(big.file);
  await expect(page).toHaveURL(/\/profile$/, { timeout: 60_000 });
  await expect(page.getByText('1 image uploaded.')).toBeVisible();

  // Nothing created anew: the server said how much it had, and only the rest went, request after request.
  expect(requests.map((request) => request.method())).not.toContain('POST');
  const head = requests.find((request) => request.method() === 'HEAD')!;
  const had = Number((await head.response())!.headers()['upload-offset']);
  expect(had).toBeGreaterThan(0);
  const patches = requests.filter((request) => request.method() === 'PATCH');
  let at = had;
  for (const patch of patches) {
    expect(await offsetOf(patch)).toBe(at);
    at = Number((await patch.response())!.headers()['upload-offset']);
  }
  expect(at).toBe(big.size);
  const sent = big.size - had;
  expect(sent, `${sent} bytes sent after the reload, of ${big.size}`).toBeLessThan(big.size);

  // Nothing is left to offer: the browser forgot the finished upload.
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::')))).toEqual([]);
});

test('an upload survives a restart of the server mid-file', async ({ page }) => {
  test.setTimeout(120_000);
  // A server of this test's own, to stop at will: killed mid-upload (as a crash would), then started again.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photo-e2e-restart-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const start = (): ChildProcess =>
    spawn(process.execPath, [path.resolve(import.meta.dirname, '..', '..', 'server', 'dist', 'main.js')], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, LOG_LEVEL: 'error' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  let server = start();
  try {
    await waitForHealth(url, server);
    await signInAs(page, await createAccountByApi(url, newPerson('restart')));
    const big = await bigPhoto('restarted.jpg');
    const cdp = await page.context().newCDPSession(page);
    const requests = recordTus(page);
    await page.goto(`${url}/uploadImages`);
    await page.getByLabel('Images').setInputFiles(big.file);
    await limitUploads(cdp, SLOW_UPLOAD_BYTES_PER_SECOND);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => percentOf(page, 'restarted.jpg'), { timeout: 30_000 }).toBeGreaterThanOrEqual(60);

    server.kill('SIGKILL');
    await once(server, 'exit');
    const beforeRestart = requests.length;
    server = start();
    await waitForHealth(url, server);

    await expect(page).toHaveURL(/\/profile$/, { timeout: 60_000 });
    await expect(page.getByText('1 image uploaded.')).toBeVisible();
    // The same upload, continued from what the server had kept through the crash.
    expect(requests.filter((request) => request.method() === 'POST')).toHaveLength(1);
    const patches = requests.slice(beforeRestart).filter((request) => request.method() === 'PATCH');
    expect(await offsetOf(patches[0]!)).toBeGreaterThan(0);
  } finally {
    server.kill('SIGTERM');
    if (server.exitCode === null) await once(server, 'exit');
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a picked folder holding photos already in the library reports them as duplicates without sending them', async ({ page, app }) => {
  const token = await signUpByApi(app, newPerson('folder'));
  const known = ['orientation/Landscape_1.jpg', 'camera/HTC Desire.jpg'];
  const results = await uploadByApi(app.url, token, known.map((photo) => ({ name: path.basename(photo), source: testPhoto(photo) })));
  expect(results.map((result) => result.status)).toEqual(['kept', 'kept']);

  const dir = await mkdtemp(path.join(folder, 'trip-'));
  // A text file named .jpg is refused by the server: the page then stays to show why.
  for (const photo of [...known, 'camera/Nikon D1X.jpg', 'broken/not_an_image.jpg']) await copyFile(testPhoto(photo), path.join(dir, path.basename(photo)));
  await writeFile(path.join(dir, 'notes.txt'), 'not a photo');

  await signInAs(page, token);
  await page.goto('/uploadImages');
  const requests = recordTus(page);
  await page.getByLabel('Pick a folder').setInputFiles(dir);
  await expect(page.getByText('1 file that is not an image was left out.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Selected images' }).getByRole('listitem')).toHaveCount(4);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  await expect(fileRow(page, 'Landscape_1.jpg')).toContainText('Already in your library');
  await expect(fileRow(page, 'HTC Desire.jpg')).toContainText('Already in your library');
  await expect(fileRow(page, 'Nikon D1X.jpg')).toContainText('Uploaded', { timeout: 30_000 });
  await expect(fileRow(page, 'not_an_image.jpg')).toContainText('Refused');
  await expect(page.getByRole('status').filter({ hasText: '1 image uploaded, 2 already in your library, 1 refused.' }).first()).toBeVisible();

  // Only the two new files were sent: one upload created for each, and every other request was about them.
  const created = requests.filter((request) => request.method() === 'POST');
  const metadata = await Promise.all(created.map(async (request) => (await request.headerValue('upload-metadata')) ?? ''));
  const named = (name: string) => `filename ${Buffer.from(name).toString('base64')}`;
  expect(metadata).toHaveLength(2);
  expect(metadata.some((entry) => entry.includes(named('Nikon D1X.jpg')))).toBe(true);
  expect(metadata.some((entry) => entry.includes(named('not_an_image.jpg')))).toBe(true);
  const uploadUrls = await Promise.all(created.map(async (request) => (await request.response())?.headers()['location']));
  expect(requests.filter((request) => request.method() !== 'POST').every((request) => uploadUrls.includes(new URL(request.url()).pathname))).toBe(true);
});
