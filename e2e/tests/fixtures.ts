import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface Mailbox {
  /** The newest message to `to` (whose subject matches `subject`, when given), waiting for it to arrive. */
  latestTo(to: string, timeoutMs?: number, subject?: RegExp): Promise<ParsedMail>;
}

export interface Person {
  username: string;
  email: string;
  password: string;
}

export interface RunningApp {
  url: string;
  mailbox: Mailbox;
  /** The first account, created before any test runs, so it is the admin (DECISIONS §1). */
  admin: Person & { token: string };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startMailbox() {
  const messages: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream).then((mail) => {
        messages.push(mail);
        done();
      }, done);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  const mailbox: Mailbox = {
    async latestTo(to, timeoutMs = 10_000, subject) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages
          .filter((m) => JSON.stringify(m.to ?? '').toLowerCase().includes(to.toLowerCase()) && (!subject || subject.test(m.subject ?? '')))
          .at(-1);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no e-mail to ${to} arrived within ${timeoutMs} ms`);
    },
  };
  return { url: `smtp://127.0.0.1:${port}`, mailbox, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not become healthy in 30 s');
}

/** The built app (`npm start`'s server) on a free port, with a fresh data folder and a real SMTP receiver. */
export const test = base.extend<{ app: RunningApp }, { runningApp: RunningApp }>({
  runningApp: [
    async ({}, use) => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photo-e2e-'));
      const smtp = await startMailbox();
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = spawn(process.execPath, [path.join(root, 'server', 'dist', 'main.js')], {
        // TRUST_PROXY=true (loopback): set-up sign-ups come from addresses of their own (below), so the
        // whole run's accounts do not add up against the per-address sign-up limit.
        env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SMTP_URL: smtp.url, PUBLIC_URL: url, LOG_LEVEL: 'warn', TRUST_PROXY: 'true' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      try {
        await waitForHealth(url, child);
        const admin = newPerson('admin');
        const token = await createAccountByApi(url, admin);
        await use({ url, mailbox: smtp.mailbox, admin: { ...admin, token } });
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
        await smtp.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],
  app: async ({ runningApp }, use) => use(runningApp),
  baseURL: async ({ runningApp }, use) => use(runningApp.url),
});

export { expect };

let counter = 0;
export function newPerson(prefix = 'person'): Person {
  counter += 1;
  const id = `${prefix}${counter}-${Date.now().toString(36)}`;
  return { username: `${prefix[0]!.toUpperCase()}${prefix.slice(1)} Tester${counter}`, email: `${id}@example.com`, password: `pw-${id}` };
}

/** Creates an account through the API and answers its token; its address is not confirmed (the admin's is). */
let setUpClients = 0;

export async function createAccountByApi(url: string, person: Person & { proof?: string }): Promise<string> {
  setUpClients += 1;
  const response = await fetch(`${url}/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.250.${(setUpClients >> 8) & 255}.${setUpClients & 255}` },
    body: JSON.stringify(person),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** The proof token of a mailed confirmation or share link (`/confirm-email/<t>` or `?confirm=<t>`). */
export function proofTokenIn(mail: ParsedMail): string | undefined {
  return /(?:\/confirm-email\/|[?&]confirm=)([A-Za-z0-9_-]{20,128})/.exec(mail.text ?? '')?.[1];
}

/**
 * Creates an account through the API (fast set-up for tests that are not about signing up) and
 * confirms its address from the real confirmation mail, so what is shared with it reaches it.
 */
export async function signUpByApi(app: RunningApp, person: Person): Promise<string> {
  const token = await createAccountByApi(app.url, person);
  const mail = await app.mailbox.latestTo(person.email);
  const proof = proofTokenIn(mail);
  if (!proof) throw new Error(`the confirmation mail to ${person.email} carries no link:\n${mail.text ?? ''}`);
  const confirmed = await fetch(`${app.url}/api/address-proofs/${proof}/confirm`, { method: 'POST' });
  if (confirmed.status !== 200) throw new Error(`confirming ${person.email} failed: ${confirmed.status} ${await confirmed.text()}`);
  return token;
}

// ---------------------------------------------------------------------------------------------
// Images: the shared test photos, tiny generated pictures, and set-up through the HTTP API.

/** The shared corpus of real photos (read-only), found like `server/test/support/images.ts` does. */
export function testPhotosDir(): string {
  const candidates = [
    process.env['TESTDATA_IMAGES'],
    path.resolve(root, '..', 'shared', 'testdata', 'images'),
    '/work/shared/testdata/images',
  ].filter((candidate): candidate is string => Boolean(candidate));
  const found = candidates.find((candidate) => existsSync(path.join(candidate, 'manifest.json')));
  if (!found) throw new Error(`The test photos are missing; set TESTDATA_IMAGES. Looked in: ${candidates.join(', ')}`);
  return found;
}

/** A path inside the test photos, e.g. `orientation/Portrait_6.jpg`. */
export function testPhoto(relative: string): string {
  return path.join(testPhotosDir(), relative);
}

/** Signs the page in with a token before any of the app's scripts run (once per tab, so Sign Out still works). */
export async function signInAs(page: Page, token: string): Promise<void> {
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('e2e-token-set')) {
      localStorage.setItem('token', value);
      sessionStorage.setItem('e2e-token-set', '1');
    }
  }, token);
}

export interface UploadFile {
  name: string;
  /** Bytes made by the test, or a path on disk. */
  source: Buffer | string;
}

export interface UploadResult {
  fileName: string;
  status: 'kept' | 'duplicate' | 'refused';
  reason?: string;
  imageId?: string;
}

/** POST /bulk-upload in one request (repeated `images` field), as the person with `token`. */
export async function uploadByApi(url: string, token: string, files: UploadFile[]): Promise<UploadResult[]> {
  const form = new FormData();
  for (const file of files) {
    const blob = typeof file.source === 'string' ? await openAsBlob(file.source) : new Blob([new Uint8Array(file.source)]);
    form.append('images', blob, file.name);
  }
  const response = await fetch(`${url}/bulk-upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { results: UploadResult[] }).results;
}

/** Uploads `count` tiny distinct PNGs named `${prefix}-001.png`…; resolves with their ids, all kept. */
export async function seedImages(url: string, token: string, count: number, options: { prefix?: string; width?: number; height?: number } = {}): Promise<string[]> {
  const { prefix = 'seed', width = 64, height = 16 } = options;
  // A random base colour per call, so two tests never upload the same bytes.
  const base = Math.floor(Math.random() * 0xffffff);
  const files = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const colour = (base + index * 97) % 0xffffff;
      const data = await sharp({
        create: { width, height, channels: 3, background: { r: colour >> 16, g: (colour >> 8) & 0xff, b: colour & 0xff } },
      })
        .png()
        .toBuffer();
      return { name: `${prefix}-${String(index + 1).padStart(3, '0')}.png`, source: data };
    }),
  );
  const results = await uploadByApi(url, token, files);
  const notKept = results.filter((result) => result.status !== 'kept');
  if (notKept.length > 0 || results.length !== count) throw new Error(`seeding failed: ${JSON.stringify(notKept.slice(0, 3))}`);
  return results.map((result) => result.imageId!);
}

/** GET an API path as the person with `token`; resolves with the status and the parsed body. */
export async function getByApi<T = unknown>(url: string, token: string, apiPath: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}${apiPath}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Every image the person sees (id and name), in gallery order (newest first): the list previous/next steps through. */
export async function galleryImages(url: string, token: string): Promise<{ id: string; name: string }[]> {
  const { status, body } = await getByApi<{ images: { _id: string; imageName: string }[] }>(url, token, '/api/gridimages');
  if (status !== 200) throw new Error(`GET /api/gridimages answered ${status}`);
  return body.images.map((image) => ({ id: image._id, name: image.imageName }));
}

/** Ids of every image the person sees, in gallery order (newest first). */
export async function galleryIds(url: string, token: string): Promise<string[]> {
  return (await galleryImages(url, token)).map((image) => image.id);
}
