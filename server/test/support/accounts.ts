import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { expect } from 'vitest';
import type { ApiClient } from './http.js';
import { newPerson } from './http.js';
import type { TestServer } from './test-server.js';

export interface SignedUpPerson {
  token: string;
  username: string;
  email: string;
  password: string;
}

/** A mailed link's proof token: `/confirm-email/<token>` or a share-all link's `?confirm=<token>`. */
const PROOF_LINK = /(?:\/confirm-email\/|[?&]confirm=)([A-Za-z0-9_-]{20,128})/;

/** Every message in the server's outbox (mail without SMTP_URL) to `email`, oldest first. */
export async function outboxMailsTo(server: TestServer, email: string): Promise<{ subject: string; text: string; html: string }[]> {
  const dir = path.join(server.dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const mails = await Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(dir, file)))));
  return mails
    .filter((mail) => JSON.stringify(mail.to ?? '').toLowerCase().includes(email.toLowerCase()))
    .map((mail) => ({ subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '' }));
}

/** The proof token of the newest mail to `email` that carries one (confirmation or share mail). */
export async function latestProofTokenFor(server: TestServer, email: string): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mails = await outboxMailsTo(server, email);
    const token = mails.map((mail) => PROOF_LINK.exec(mail.text)?.[1]).filter(Boolean).at(-1);
    if (token) return token;
    if (Date.now() > deadline) throw new Error(`no mail with a confirmation link to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens the newest mailed link to `email` and confirms the address, as its owner would. */
export async function confirmAddress(server: TestServer, api: ApiClient, email: string): Promise<void> {
  const token = await latestProofTokenFor(server, email);
  const res = await api.post(`/api/address-proofs/${token}/confirm`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Signs up a new person and confirms their address from the mail, so shares sent to it reach them. */
export async function signUpConfirmed(
  server: TestServer,
  api: ApiClient,
  options: { prefix?: string; email?: string } = {},
): Promise<SignedUpPerson> {
  const person = newPerson(options.prefix ?? 'user');
  if (options.email) person.email = options.email;
  const res = await api.post<{ token: string }>('/signup', person);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const me = await api.get<{ emailConfirmed: boolean }>('/api/users/me', res.body.token);
  // The first account (the admin) is confirmed at sign-up and gets no confirmation mail.
  if (!me.body.emailConfirmed) await confirmAddress(server, api, person.email);
  return { ...person, token: res.body.token };
}
