import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface Mailbox {
  /** The newest message to `to`, waiting for it to arrive. */
  latestTo(to: string, timeoutMs?: number): Promise<ParsedMail>;
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

async function freePort(): Promise<number> {
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
    async latestTo(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.filter((m) => JSON.stringify(m.to ?? '').toLowerCase().includes(to.toLowerCase())).at(-1);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no e-mail to ${to} arrived within ${timeoutMs} ms`);
    },
  };
  return { url: `smtp://127.0.0.1:${port}`, mailbox, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
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
        env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SMTP_URL: smtp.url, PUBLIC_URL: url, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      try {
        await waitForHealth(url, child);
        const admin = newPerson('admin');
        const token = await signUpByApi(url, admin);
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

/** Creates an account through the API (fast set-up for tests that are not about signing up). */
export async function signUpByApi(url: string, person: Person): Promise<string> {
  const response = await fetch(`${url}/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
