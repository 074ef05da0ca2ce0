import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@photo/contract';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { TESTDATA, listFiles, tinyPng, upload } from './support/images.js';
import { startTestServer, type TestServer } from './support/test-server.js';

describe.each(testDatabases)('profile image and uploads on the profile (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let token: string;

  async function sendProfileImage(file: Blob, name: string, field = 'profileImage') {
    const form = new FormData();
    form.append(field, file, name);
    const res = await fetch(new URL('/upload-profile-image', server.url), { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { message: string; profileImage?: string | null } };
  }

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    token = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
  });
  afterAll(async () => server?.close());

  it('stores an upright square avatar, replaces the old one without leaving it behind, and signs its URL', async () => {
    const photo = new Blob([await import('node:fs/promises').then((fs) => fs.readFile(path.join(TESTDATA, 'orientation/Portrait_6.jpg')))]);
    const first = await sendProfileImage(photo, 'me.jpg');
    expect(first.status).toBe(200);
    expect(first.body.profileImage).toMatch(/^\/media\/profiles\/[0-9a-f]{64}\.webp\?exp=\d+&sig=/);
    const avatar = await fetch(new URL(first.body.profileImage ?? '', server.url));
    const meta = await sharp(Buffer.from(await avatar.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([256, 256, 'webp']);

    const profile = await api.get<Profile>('/api/profile', token);
    expect(profile.body.profileImage).toBe(first.body.profileImage);
    expect((await api.get<{ image: string }>('/api/users/me', token)).body.image).toBe(first.body.profileImage);

    const second = await sendProfileImage(new Blob([await tinyPng(9, 40, 40)]), 'new.png');
    expect(second.status).toBe(200);
    expect(await listFiles(path.join(server.dataDir, 'media'))).toEqual([second.body.profileImage?.split('?')[0]?.replace('/media/', '')]);
  });

  it('refuses what is not a picture, and changes nothing', async () => {
    const before = (await api.get<Profile>('/api/profile', token)).body.profileImage;
    const text = await sendProfileImage(new Blob(['just text']), 'me.jpg');
    expect(text.status).toBe(415);
    const bomb = await sendProfileImage(new Blob([await import('node:fs/promises').then((fs) => fs.readFile(path.join(TESTDATA, 'broken/decompression_bomb.gif')))]), 'b.gif');
    expect(bomb.status).toBe(413);
    expect((await api.get<Profile>('/api/profile', token)).body.profileImage).toBe(before);
    expect(await listFiles(path.join(server.dataDir, 'tmp'))).toEqual([]);
  });

  it("lists the person's own uploads on the profile, newest first", async () => {
    const results = (await upload(server.url, token, [{ source: await tinyPng(1), name: 'one.png' }, { source: await tinyPng(2), name: 'two.png' }])).body.results ?? [];
    const profile = await api.get<Profile>('/profile', token);
    expect(profile.body.userUploadedImages.map((i) => i._id).sort()).toEqual(results.map((r) => r.imageId).sort());
    const someoneElse = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
    expect((await api.get<Profile>('/api/profile', someoneElse)).body.userUploadedImages).toEqual([]);
  });
});
