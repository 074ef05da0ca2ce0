import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { startSmtpReceiver } from './support/smtp-receiver.js';
import { startTestServer, type TestServer } from './support/test-server.js';

type Receiver = Awaited<ReturnType<typeof startSmtpReceiver>>;

describe.each(testDatabases)('share e-mails through SMTP on %s', (database) => {
  let server: TestServer;
  let smtp: Receiver;
  let api: ApiClient;
  let admin: { token: string; username: string };
  let seed = 0;

  /** Signs up and opens the confirmation mail (it arrives over SMTP here), as its owner would. */
  async function signUp(prefix = 'user') {
    const person = newPerson(prefix);
    const res = await api.post<{ token: string }>('/signup', person);
    expect(res.status).toBe(201);
    const me = await api.get<{ emailConfirmed: boolean }>('/api/users/me', res.body.token);
    if (!me.body.emailConfirmed) {
      const mail = await smtp.waitFor(person.email, 5000, /Confirm your e-mail/);
      const token = /\/confirm-email\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;
      expect((await api.post(`/api/address-proofs/${token}/confirm`, {})).status).toBe(200);
    }
    return { token: res.body.token, username: person.username, email: person.email };
  }
  async function uploadTiny(token: string, count: number): Promise<string[]> {
    const files = await Promise.all(Array.from({ length: count }, async () => ({ source: await tinyPng(9000 + seed++), name: `m-${seed}.png` })));
    return ((await upload(server.url, token, files)).body.results ?? []).map((r) => r.imageId ?? '');
  }

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer(database, { env: { SMTP_URL: smtp.url } });
    api = apiClient(server.url);
    admin = await signUp('admin');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it("mails each recipient once through the sharer's default template, placeholders filled, escaped in HTML", async () => {
    const bob = await signUp('bob');
    const ids = await uploadTiny(bob.token, 3);
    await api.post('/api/emailTemplate', { templateName: 'Old', subjectEmail: 'unused', bodyEmail: 'unused' }, bob.token);
    await api.post('/api/emailTemplate', {
      templateName: 'Family',
      subjectEmail: '{{sender}} sent you {{count}} photos',
      bodyEmail: 'Hi! <b>{{sender}}</b> & co shared {{ count }} photos.\nLook: {{link}}',
      isDefault: true,
    }, bob.token);
    const [to1, to2] = [newPerson('r').email, newPerson('r').email];
    const res = await api.post('/api/share-restricted', { imageIds: ids, emails: [to1, to2] }, bob.token);
    expect(res.status).toBe(200);

    for (const to of [to1, to2]) {
      const mail = await smtp.waitFor(to);
      expect(mail.subject).toBe(`${bob.username} sent you 3 photos`);
      // No account has the address yet: the link proves it (decision 0006), each recipient their own.
      const link = /http:\/\/photos\.test\/confirm-email\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
      expect(mail.text?.trim()).toBe(`Hi! <b>${bob.username}</b> & co shared 3 photos.\nLook: ${link}`);
      expect(mail.html).toContain(`Hi! &lt;b&gt;${bob.username}&lt;/b&gt; &amp; co shared 3 photos.`);
      expect(mail.html).not.toContain('<b>');
      expect(mail.html).toContain(`href="${link}"`);
    }
    const toThem = smtp.messages.filter((m) => JSON.stringify(m.to).includes(to1));
    expect(toThem).toHaveLength(1);
  });

  it('uses the built-in wording when the sharer has no template, and mails the public link of an all-access share', async () => {
    await uploadTiny(admin.token, 2);
    const to = newPerson('grandma').email;
    const res = await api.post<{ link: string }>('/api/share-all', { accessTo: [to] }, admin.token);
    expect(res.status).toBe(200);
    const mail = await smtp.waitFor(to);
    const total = (await api.get<{ pagination: { totalImages: number } }>('/api/gridimages?page=1&limit=1', admin.token)).body.pagination.totalImages;
    expect(mail.subject).toBe(`${admin.username} shared photos with you`);
    expect(mail.text).toContain(`${admin.username} shared ${total} photos with you on Photo Library.`);
    // The mailed link is the public link plus a proof of the address; the sharer only sees the bare link.
    const mailed = new RegExp(`Open them here: (${res.body.link}\\?confirm=[A-Za-z0-9_-]{43})`).exec(mail.text ?? '')?.[1];
    expect(mailed).toBeDefined();
    expect(mail.html).toContain(`href="${mailed}"`);
    // The mailed link opens the library without signing in.
    const page = await api.get<{ images: Image[] }>(`/shared-images/${res.body.link.split('/').pop()}`);
    expect(page.status).toBe(200);
    expect(page.body.images).toHaveLength(total);
  });

  it('always puts the link in the mail, even when the template leaves it out', async () => {
    const sue = await signUp('sue');
    const [id] = await uploadTiny(sue.token, 1);
    await api.post('/api/emailTemplate', { templateName: 'Short', subjectEmail: '', bodyEmail: 'Enjoy!' }, sue.token);
    const to = newPerson('r').email;
    expect((await api.post('/api/share-restricted', { imageIds: [id], emails: [to] }, sue.token)).status).toBe(200);
    const mail = await smtp.waitFor(to);
    expect(mail.subject).toBe(`${sue.username} shared photos with you`);
    expect(mail.text).toMatch(/^Enjoy!\n\nhttp:\/\/photos\.test\/confirm-email\/[A-Za-z0-9_-]{43}\n$/);
  });
});

describe('share e-mail that cannot be sent', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Nothing listens on port 1: every send fails.
    server = await startTestServer('sqlite', { env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
  });
  afterAll(async () => server?.close());

  it('keeps the share (the failure is only logged)', async () => {
    const api = apiClient(server.url);
    await api.post('/signup', newPerson('admin'));
    const bob = newPerson('bob');
    const { token } = (await api.post<{ token: string }>('/signup', bob)).body;
    const [id] = ((await upload(server.url, token, [{ source: await tinyPng(1), name: 'a.png' }])).body.results ?? []).map((r) => r.imageId);
    const carol = newPerson('carol');
    const res = await api.post('/api/share-restricted', { imageIds: [id], emails: [carol.email] }, token);
    expect(res.status).toBe(200);
    const carolToken = (await api.post<{ token: string }>('/signup', carol)).body.token;
    // No mail reached Carol, so her address is not proven: the share waits for it.
    expect((await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=10', carolToken)).body.images).toEqual([]);
    // Proven some other way (no call does this): the share then reaches her.
    await server.sql('update users set email_confirmed_at = created_at where email = ?', [carol.email]);
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');
    expect((await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=10', carolToken)).body.images.map((i) => i._id)).toEqual([id]);
  });
});
