import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { signInAs } from './fixtures.js';

/**
 * Issue 11: a 1,000,000-photo library scrolls and jumps with the DOM bound held. The library is
 * built by the benchmark's builder (`npm run bench:library -- --count 1000000`: rows straight into
 * SQLite, photos taken over 20 years) in a folder of its own — or reused from
 * `E2E_MILLION_LIBRARY` (a folder that builder made) — and the built server is started on it.
 */
const COUNT = 1_000_000;
const MAX_TIMELINE_NODES = 3_000;
/** Chrome lays out nothing taller than ~33.5 M px; the timeline's window stays far below. */
const MAX_SCROLL_HEIGHT = 4_000_000;

const root = path.resolve(import.meta.dirname, '..', '..');

interface Library {
  url: string;
  token: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not become healthy in 120 s');
}

const test = base.extend<object, { library: Library }>({
  library: [
    async ({}, use) => {
      const reused = process.env['E2E_MILLION_LIBRARY'];
      const dataDir = reused ?? (await mkdtemp(path.join(os.tmpdir(), 'photo-e2e-million-')));
      if (!reused) {
        const builder = (await import(pathToFileURL(path.join(root, 'bench', 'make-library.mjs')).href)) as {
          makeLibrary(options: { count: number; dataDir: string; log?: (line: string) => void }): Promise<unknown>;
        };
        await builder.makeLibrary({ count: COUNT, dataDir, log: () => undefined });
      }
      const { admin } = JSON.parse(await readFile(path.join(dataDir, 'library.json'), 'utf8')) as { admin: { email: string; password: string } };
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = spawn(process.execPath, [path.join(root, 'server', 'dist', 'main.js')], {
        env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      try {
        await waitForHealth(url, child);
        const signin = await fetch(`${url}/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: admin.email, password: admin.password }),
        });
        expect(signin.status).toBe(200);
        const { token } = (await signin.json()) as { token: string };
        await use({ url, token });
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
        if (!reused) await rm(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 600_000 },
  ],
});

const nodeCount = (timeline: Locator) => timeline.evaluate((section) => section.querySelectorAll('*').length);

async function clickScrubber(slider: Locator, fraction: number) {
  const box = (await slider.boundingBox())!;
  await slider.page().mouse.click(box.x + box.width / 2, box.y + Math.min(box.height - 2, Math.max(2, box.height * fraction)));
}

/**
 * The months named on screen, top to bottom: month headings in view, and first the label of the
 * month being read, shown over the timeline once its heading has scrolled away.
 */
async function monthsOnScreen(page: Page): Promise<string[]> {
  return page.getByRole('region', { name: 'Timeline' }).evaluate((region) => {
    const list = region.querySelector('[role="list"]')!;
    const view = list.parentElement!.getBoundingClientRect();
    return Array.from(region.querySelectorAll('h2, p[aria-hidden="true"]'))
      .map((element) => ({ text: element.textContent ?? '', box: element.getBoundingClientRect() }))
      .filter(({ text, box }) => /^[A-Z][a-z]+ \d{4}$/.test(text) && box.bottom > view.top && box.top < view.bottom)
      .sort((a, b) => a.box.top - b.box.top)
      .map(({ text }) => text);
  });
}

/** Thumbnails on screen that have finished loading. */
async function loadedThumbnails(page: Page): Promise<number> {
  return page.getByRole('list', { name: 'Gallery' }).evaluate((list) => {
    const view = list.parentElement!.getBoundingClientRect();
    return Array.from(list.querySelectorAll('img')).filter((img) => {
      const box = img.getBoundingClientRect();
      return img.complete && img.naturalWidth > 0 && box.bottom > view.top && box.top < view.bottom;
    }).length;
  });
}

test('a 1,000,000-photo library scrolls and jumps with the DOM bound held', async ({ page, library }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await signInAs(page, library.token);
  await page.goto(library.url);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const list = page.getByRole('list', { name: 'Gallery' });
  const slider = page.getByRole('slider', { name: 'Timeline scrubber' });
  const scroller = list.locator('..');

  // The whole library counted, the newest photos first.
  const first = list.locator('[role="listitem"][aria-posinset="1"]');
  await expect(first).toBeVisible({ timeout: 60_000 });
  await expect(first).toHaveAttribute('aria-setsize', String(COUNT));
  await expect.poll(() => loadedThumbnails(page), { timeout: 20_000 }).toBeGreaterThan(0);
  let most = await nodeCount(timeline);

  // Jumps: the oldest month, the middle of the library, a quarter down; each shows its month's photos.
  const seen: string[] = [];
  for (const fraction of [1, 0.5, 0.25, 0.75]) {
    await clickScrubber(slider, fraction);
    const month = ((await slider.getAttribute('aria-valuetext')) ?? '').split(',')[0] ?? '';
    expect(month).toMatch(/^[A-Z][a-z]+ \d{4}$/);
    await expect.poll(() => monthsOnScreen(page), { timeout: 20_000 }).toContain(month);
    await expect.poll(() => loadedThumbnails(page), { timeout: 20_000 }).toBeGreaterThan(0);
    seen.push(month);
    most = Math.max(most, await nodeCount(timeline));
    expect(await scroller.evaluate((element) => element.scrollHeight)).toBeLessThanOrEqual(MAX_SCROLL_HEIGHT);
  }
  expect(new Set(seen).size).toBe(4);

  // Scrolling on from a jump goes both ways, far enough to move the window, with the DOM bound held.
  await scroller.hover();
  const startMonth = (await monthsOnScreen(page))[0];
  for (let step = 0; step < 60; step += 1) {
    await page.mouse.wheel(0, 4_000);
    if (step % 10 === 9) most = Math.max(most, await nodeCount(timeline));
  }
  await expect.poll(() => loadedThumbnails(page), { timeout: 20_000 }).toBeGreaterThan(0);
  expect((await monthsOnScreen(page))[0]).not.toBe(startMonth);
  for (let step = 0; step < 60; step += 1) {
    await page.mouse.wheel(0, -4_000);
    if (step % 10 === 9) most = Math.max(most, await nodeCount(timeline));
  }
  await expect.poll(() => loadedThumbnails(page), { timeout: 20_000 }).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(MAX_TIMELINE_NODES);

  // End and Home: the oldest and the newest photo.
  await page.getByRole('heading', { name: 'Gallery', level: 1 }).click();
  await page.keyboard.press('End');
  await expect(list.locator(`[role="listitem"][aria-posinset="${COUNT}"]`)).toBeInViewport({ timeout: 20_000 });
  await page.keyboard.press('Home');
  await expect(first).toBeInViewport({ timeout: 20_000 });
  expect(await nodeCount(timeline)).toBeLessThanOrEqual(MAX_TIMELINE_NODES);
  expect(await scroller.evaluate((element) => element.scrollHeight)).toBeLessThanOrEqual(MAX_SCROLL_HEIGHT);
});
