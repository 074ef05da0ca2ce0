import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { texts } from '@photo/contract';
import { apiClient, newPerson, nextClientIp, type ApiClient } from './support/http.js';
import { testDatabases } from './support/databases.js';
import { startSmtpReceiver } from './support/smtp-receiver.js';
import { ManualClock, startTestServer, TEST_JWT_SECRET, type TestServer } from './support/test-server.js';

const secret = new TextEncoder().encode(TEST_JWT_SECRET);

describe.each(testDatabases)('accounts on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  const clock = new ManualClock();

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer(database, { clock, env: { SMTP_URL: smtp.url, TRUST_PROXY: 'true' } });
  });
  beforeEach(() => {
    api = apiClient(server.url, { 'x-forwarded-for': nextClientIp() });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  async function signUp(person = newPerson()) {
    const res = await api.post<{ token: string }>('/signup', person);
    expect(res.status).toBe(201);
    return { ...person, token: res.body.token };
  }


  describe('sign-up', () => {
    it('makes the first account admin and every later one a plain user, with the role in the token', async () => {
      const first = await signUp(newPerson('admin'));
      const second = await signUp();
      expect(decodeJwt(first.token)).toMatchObject({ user: { role: 'admin', username: first.username } });
      expect(decodeJwt(second.token)).toMatchObject({ user: { role: 'user' } });
      expect(decodeJwt(second.token).exp).toBeGreaterThan(Date.now() / 1000);
      const profile = await api.get('/api/profile', second.token);
      expect(profile.body).toMatchObject({ role: 'user', email: second.email, username: second.username, name: second.username });
    });

    it('stores the e-mail trimmed and lower-cased, and refuses a duplicate in any case with 409', async () => {
      const person = newPerson();
      await signUp({ ...person, email: `  ${person.email.toUpperCase()} ` });
      const again = await api.post('/signup', { ...person, username: 'someone else' });
      expect(again.status).toBe(409);
      expect(again.body['message']).toMatch(/already exists/);
      // The original password still works: the duplicate changed nothing.
      const signin = await api.post('/signin', { email: person.email, password: person.password });
      expect(signin.status).toBe(200);
    });

    it.each<[Partial<Record<'username' | 'email' | 'password', string>>, string]>([
      [{ email: 'a@example.com', password: 'secret1' }, 'username'],
      [{ username: 'a', password: 'secret1' }, 'email'],
      [{ username: 'a', email: 'a@example.com' }, 'password'],
      [{ username: 'a', email: 'not-an-email', password: 'secret1' }, 'email'],
      [{ username: 'a', email: 'short@example.com', password: '12345' }, 'password'],
      [{ username: '   ', email: 'blank@example.com', password: 'secret1' }, 'username'],
      [{ username: 'x'.repeat(51), email: 'long@example.com', password: 'secret1' }, 'username'],
    ])('refuses %j with a 400 naming %s and creates nothing', async (body, field) => {
      const res = await api.post('/signup', body);
      expect(res.status).toBe(400);
      expect(res.body['message']).toContain(field);
      expect(res.body['issues']).toEqual(expect.arrayContaining([expect.objectContaining({ path: `body.${field}` })]));
      if (typeof body.email === 'string' && body.email.includes('@') && body.password) {
        const signin = await api.post('/signin', { email: body.email, password: body.password });
        expect(signin.status).toBe(401);
      }
    });

    it('answers 413 for a body over the size limit', async () => {
      const res = await api.post('/signup', { username: 'big', email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024) });
      expect(res.status).toBe(413);
      expect(res.body['message']).toMatch(/too large/);
    });

    it('answers 400 for a body that is not JSON and 415 for a form post', async () => {
      const bad = await api.request('POST', '/signup', { rawBody: '{nope', headers: { 'content-type': 'application/json' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ message: expect.any(String) });
      const form = await api.request('POST', '/signup', { rawBody: 'a=b', headers: { 'content-type': 'text/csv' } });
      expect(form.status).toBe(415);
    });
  });

  describe('sign-in', () => {
    it('returns a working token for the right password', async () => {
      const person = await signUp();
      const res = await api.post<{ token: string }>('/signin', { email: person.email.toUpperCase(), password: person.password });
      expect(res.status).toBe(200);
      const me = await api.get('/api/users/me', res.body.token);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ name: person.username, image: null, role: 'user', email: person.email, emailConfirmed: false });
    });

    it("refuses a wrong password and an unknown e-mail alike, with the spec's words", async () => {
      const person = await signUp();
      const wrong = await api.post('/signin', { email: person.email, password: 'wrong-password' });
      const unknown = await api.post('/signin', { email: 'nobody-here@example.com', password: 'whatever' });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual({ message: texts.SIGNIN_FAILED, msg: texts.SIGNIN_FAILED });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('refuses missing fields with 400', async () => {
      expect((await api.post('/signin', { email: 'a@example.com' })).status).toBe(400);
      expect((await api.post('/signin', { password: 'secret1' })).status).toBe(400);
      expect((await api.post('/signin', { email: 'a@example.com', password: '' })).status).toBe(400);
    });

    it('counts guesses before checking them: of 200 wrong passwords sent at once, at most 10 are checked', async () => {
      const person = await signUp();
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => api.post('/signin', { email: person.email, password: `wrong-${i}` })),
      );
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
      // This client is out for this account; its owner, elsewhere, is not.
      expect((await api.post('/signin', { email: person.email, password: person.password })).status).toBe(429);
      const owner = apiClient(server.url, { 'x-forwarded-for': nextClientIp() });
      expect((await owner.post('/signin', { email: person.email, password: person.password })).status).toBe(200);
    });

    it('groups IPv6 clients by /64: another address of the same /64 is the same client', async () => {
      const people = [await signUp(), await signUp(), await signUp()];
      const group = () => ((Math.random() * 0xffff) | 0).toString(16);
      const prefix = `2001:db8:${group()}:${group()}`;
      for (let i = 0; i < 30; i += 1) {
        const from = apiClient(server.url, { 'x-forwarded-for': `${prefix}::${(i + 1).toString(16)}` });
        expect((await from.post('/signin', { email: people[i % 3]!.email, password: `wrong-${i}` })).status).toBe(401);
      }
      const sameNetwork = apiClient(server.url, { 'x-forwarded-for': `${prefix}:ffff:ffff:ffff:fffe` });
      expect((await sameNetwork.post('/signin', { email: people[0]!.email, password: people[0]!.password })).status).toBe(429);
      const otherNetwork = apiClient(server.url, { 'x-forwarded-for': '2001:db9::1' });
      expect((await otherNetwork.post('/signin', { email: people[0]!.email, password: people[0]!.password })).status).toBe(200);
    });

    it('holds back an attack on one account from many addresses, but not a client that signed in to it before', async () => {
      const person = await signUp();
      const home = apiClient(server.url, { 'x-forwarded-for': nextClientIp() });
      expect((await home.post('/signin', { email: person.email, password: person.password })).status).toBe(200);
      for (let batch = 0; batch < 10; batch += 1) {
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            apiClient(server.url, { 'x-forwarded-for': nextClientIp() }).post('/signin', { email: person.email, password: `guess-${batch}-${i}` }),
          ),
        );
      }
      const stranger = apiClient(server.url, { 'x-forwarded-for': nextClientIp() });
      expect((await stranger.post('/signin', { email: person.email, password: person.password })).status).toBe(429);
      expect((await home.post('/signin', { email: person.email, password: person.password })).status).toBe(200);
    });

    it('locks an account for a while after 10 wrong passwords from one client, even against the right one (429)', async () => {
      const person = await signUp();
      for (let i = 0; i < 10; i += 1) {
        const res = await api.post('/signin', { email: person.email, password: `wrong-${i}` });
        expect(res.status).toBe(401);
      }
      const locked = await api.post('/signin', { email: person.email, password: person.password });
      expect(locked.status).toBe(429);
      expect(locked.body['message']).toBe(texts.TOO_MANY_ATTEMPTS);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another account from the same address is not locked by this one.
      const other = await signUp();
      expect((await api.post('/signin', { email: other.email, password: other.password })).status).toBe(200);
    });

    it('limits wrong passwords per client address across accounts (429), not other addresses', async () => {
      const people = [await signUp(), await signUp(), await signUp(), await signUp()];
      for (let i = 0; i < 30; i += 1) {
        const res = await api.post('/signin', { email: people[i % 4]!.email, password: `wrong-${i}-${i}` });
        expect(res.status).toBe(401);
      }
      const limited = await api.post('/signin', { email: `someone-${Date.now()}@example.com`, password: 'whatever' });
      expect(limited.status).toBe(429);
      const elsewhere = apiClient(server.url, { 'x-forwarded-for': nextClientIp() });
      expect((await elsewhere.post('/signin', { email: people[0]!.email, password: people[0]!.password })).status).toBe(200);
    });

    it('clears the failure count after a successful sign-in', async () => {
      const person = await signUp();
      for (let round = 0; round < 2; round += 1) {
        for (let i = 0; i < 9; i += 1) await api.post('/signin', { email: person.email, password: 'wrong-password' });
        expect((await api.post('/signin', { email: person.email, password: person.password })).status).toBe(200);
      }
    });
  });

  describe('session tokens', () => {
    it('refuses calls without a token, with a forged, expired, unsigned or malformed one (401)', async () => {
      const person = await signUp();
      const claims = decodeJwt(person.token);
      const forged = await new SignJWT({ ...claims, user: { ...(claims['user'] as object), role: 'admin' } })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('some-other-secret-some-other-secret!!'));
      const expired = await new SignJWT({ user: claims['user'], ver: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.sub))
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
        .sign(secret);
      const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${person.token.split('.')[1]}.`;

      expect((await api.get('/api/profile')).status).toBe(401);
      for (const token of [forged, expired, unsigned, 'not-a-jwt']) {
        const res = await api.get('/api/profile', token);
        expect(res.status).toBe(401);
        expect(res.body['message']).toEqual(expect.any(String));
      }
      const wrongScheme = await api.request('GET', '/api/profile', { headers: { authorization: `Basic ${person.token}` } });
      expect(wrongScheme.status).toBe(401);
    });

    it('refuses a validly signed token for an account that does not exist', async () => {
      const ghost = await new SignJWT({ user: { id: '999999', role: 'admin', username: 'ghost' }, ver: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('999999')
        .setExpirationTime('1h')
        .sign(secret);
      expect((await api.get('/api/profile', ghost)).status).toBe(401);
    });
  });

  describe('password reset', () => {
    async function requestResetLink(email: string): Promise<string> {
      const before = smtp.messages.length;
      const res = await api.post('/forgot-password', { email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: texts.RESET_MAIL_SENT, msg: texts.RESET_MAIL_SENT });
      // Sign-up also mailed a confirmation link: this is the reset mail.
      const mail = await smtp.waitFor(email, 5000, /Reset your/);
      expect(smtp.messages.length).toBeGreaterThan(before);
      const match = /http:\/\/photos\.test\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
      expect(match, 'the e-mail carries a link to PUBLIC_URL/reset-password/<token>').not.toBeNull();
      expect(mail.html).toContain(match![0]);
      smtp.messages.splice(smtp.messages.indexOf(mail), 1);
      return match![1]!;
    }

    it('answers the same for an unknown address and sends it nothing', async () => {
      const before = smtp.messages.length;
      const res = await api.post('/forgot-password', { email: 'no-account-here@example.com' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: texts.RESET_MAIL_SENT, msg: texts.RESET_MAIL_SENT });
      await new Promise((r) => setTimeout(r, 200));
      expect(smtp.messages.length).toBe(before);
    });

    it('e-mails a single-use link that sets a new password and ends older sessions', async () => {
      const person = await signUp();
      const token = await requestResetLink(person.email);
      const reset = await api.post('/reset-password', { token, newPassword: 'brand-new-pw' });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ message: texts.PASSWORD_RESET_DONE, msg: texts.PASSWORD_RESET_DONE });

      expect((await api.post('/signin', { email: person.email, password: person.password })).status).toBe(401);
      expect((await api.post('/signin', { email: person.email, password: 'brand-new-pw' })).status).toBe(200);
      expect((await api.get('/api/profile', person.token)).status).toBe(401);

      const reused = await api.post('/reset-password', { token, newPassword: 'another-pw' });
      expect(reused.status).toBe(400);
      expect(reused.body).toEqual({ message: texts.RESET_TOKEN_INVALID, msg: texts.RESET_TOKEN_INVALID });
      expect((await api.post('/signin', { email: person.email, password: 'brand-new-pw' })).status).toBe(200);
    });

    it('refuses a link after one hour', async () => {
      const person = await signUp();
      const token = await requestResetLink(person.email);
      clock.advance(61 * 60_000);
      const res = await api.post('/reset-password', { token, newPassword: 'brand-new-pw' });
      expect(res.status).toBe(400);
      expect(res.body['msg']).toBe(texts.RESET_TOKEN_INVALID);
      expect((await api.post('/signin', { email: person.email, password: person.password })).status).toBe(200);
    });

    it('refuses an unknown token and a short password, changing nothing', async () => {
      const person = await signUp();
      const token = await requestResetLink(person.email);
      const short = await api.post('/reset-password', { token, newPassword: '12345' });
      expect(short.status).toBe(400);
      expect(short.body['msg']).toMatch(/at least 6/);
      const unknown = await api.post('/reset-password', { token: 'made-up-token', newPassword: 'brand-new-pw' });
      expect(unknown.status).toBe(400);
      expect(unknown.body['msg']).toBe(texts.RESET_TOKEN_INVALID);
      expect((await api.post('/reset-password', { newPassword: 'brand-new-pw' })).status).toBe(400);
      // The link was not spent by the refused attempts.
      expect((await api.post('/reset-password', { token, newPassword: 'brand-new-pw' })).status).toBe(200);
    });

    it('using one link invalidates the other outstanding links', async () => {
      const person = await signUp();
      const first = await requestResetLink(person.email);
      const second = await requestResetLink(person.email);
      expect((await api.post('/reset-password', { token: second, newPassword: 'brand-new-pw' })).status).toBe(200);
      expect((await api.post('/reset-password', { token: first, newPassword: 'other-new-pw' })).status).toBe(400);
    });

    it('refuses a malformed e-mail with 400', async () => {
      const res = await api.post('/forgot-password', { email: 'nope' });
      expect(res.status).toBe(400);
      expect(res.body['msg']).toEqual(expect.any(String));
    });
  });

  describe('profile', () => {
    it('renames the signed-in person and validates the name', async () => {
      const person = await signUp();
      expect((await api.put('/update-profile', { username: 'Ada Lovelace' }, person.token)).status).toBe(200);
      expect((await api.get('/api/users/me', person.token)).body).toMatchObject({ name: 'Ada Lovelace' });
      expect((await api.put('/update-profile', { username: '' }, person.token)).status).toBe(400);
      expect((await api.put('/update-profile', { username: 'x' }, undefined)).status).toBe(401);
      expect((await api.get('/api/users/me', person.token)).body).toMatchObject({ name: 'Ada Lovelace' });
    });

    it('serves breadcrumb names without a token', async () => {
      const res = await api.get<Record<string, string>>('/breadcrumbs');
      expect(res.status).toBe(200);
      expect(res.body['/library']).toBe('Image Library');
      expect(res.body['/sharedMedia/sharedWithMe']).toEqual(expect.any(String));
      // A sharer's page is not "Shared with me › Shared with me", and the Trash is not "trash".
      expect(res.body['/sharedMedia/sharedWithMe']).not.toBe(res.body['/sharedMedia']);
      expect(res.body['/trash']).toBe('Trash');
    });
  });
});

describe('client addresses behind a reverse proxy (TRUST_PROXY as a hop count)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => server?.close());

  it('takes the address the proxy saw, never one the client wrote into X-Forwarded-For', async () => {
    // The proxy appends the address it saw; whatever the client sent stands to the left of it.
    const spoofing = (n: number) => apiClient(server.url, { 'x-forwarded-for': `203.0.113.${n}, 10.77.0.1` });
    for (let i = 0; i < 30; i += 1) {
      expect((await spoofing(i).post('/signin', { email: `nobody-${i}@example.com`, password: 'whatever' })).status).toBe(401);
    }
    expect((await spoofing(99).post('/signin', { email: 'nobody-else@example.com', password: 'whatever' })).status).toBe(429);
    const another = apiClient(server.url, { 'x-forwarded-for': '10.77.0.2' });
    expect((await another.post('/signin', { email: 'nobody-else@example.com', password: 'whatever' })).status).toBe(401);
  });
});
