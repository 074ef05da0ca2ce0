// The soak test's accounts: signed up over HTTP like real people, their addresses confirmed from
// the mail in the outbox, and the library shared with them by its admin — most get everything
// (family with all-access), a few a restricted share of a few hundred photos.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { LIBRARY_ADMIN, request, signIn } from './common.mjs';

const PASSWORD = 'soak-test-password';
const CONFIRM_LINK = /\/confirm-email\/([A-Za-z0-9_-]{20,128})/;

/**
 * Signs up `count` accounts (each from its own client address: sign-up is limited per address),
 * confirms them, shares the library with them, and resolves to
 * [{ email, token, view: 'all' | 'restricted' }]. `restricted` of them get a restricted share of
 * `sharedImages` of the library's images; the rest get everything.
 */
export async function soakAccounts({ url, dataDir, count, restricted, sharedImages, libraryCount }) {
  const accounts = [];
  for (let k = 0; k < count; k += 1) {
    const email = `soak${k}@soak.example`;
    const res = await request(`${url}/signup`, {
      method: 'POST',
      body: { username: `soak person ${k}`, email, password: PASSWORD },
      headers: { 'x-forwarded-for': `10.90.${k >> 8}.${k & 255}` },
    });
    if (res.status !== 201) throw new Error(`POST /signup for ${email} answered ${res.status}: ${res.text.slice(0, 300)}`);
    accounts.push({ email, token: res.json.token, view: k < count - restricted ? 'all' : 'restricted' });
  }

  const tokens = await confirmationTokens(path.join(dataDir, 'outbox'));
  for (const account of accounts) {
    const token = tokens.get(account.email);
    if (!token) throw new Error(`no confirmation mail to ${account.email} in the outbox`);
    const res = await request(`${url}/api/address-proofs/${token}/confirm`, { method: 'POST', body: {} });
    if (res.status !== 200) throw new Error(`confirming ${account.email} answered ${res.status}: ${res.text.slice(0, 300)}`);
  }

  const admin = await signIn(url, LIBRARY_ADMIN);
  const all = accounts.filter((a) => a.view === 'all').map((a) => a.email);
  const some = accounts.filter((a) => a.view === 'restricted').map((a) => a.email);
  if (all.length) await call(url, admin, '/api/share-all', { accessTo: all });
  if (some.length) {
    const step = Math.max(1, Math.floor(libraryCount / sharedImages));
    const imageIds = Array.from({ length: Math.min(sharedImages, libraryCount) }, (_, i) => String(1 + i * step));
    await call(url, admin, '/api/share-restricted', { imageIds, emails: some });
  }
  return accounts;
}

async function call(url, token, pathname, body) {
  const res = await request(`${url}${pathname}`, { method: 'POST', body, token });
  if (res.status !== 200) throw new Error(`POST ${pathname} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res.json;
}

/** Address → the token of the newest confirmation link mailed to it (outbox .eml files). */
async function confirmationTokens(outbox) {
  const tokens = new Map();
  const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml')).sort();
  for (const file of files) {
    const mail = await simpleParser(await readFile(path.join(outbox, file)));
    const token = CONFIRM_LINK.exec(mail.text ?? '')?.[1];
    for (const to of [mail.to ?? []].flat().flatMap((t) => t.value ?? [])) if (token && to.address) tokens.set(to.address.toLowerCase(), token);
  }
  return tokens;
}
