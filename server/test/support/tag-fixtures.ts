import { expect } from 'vitest';
import { signUpConfirmed } from './accounts.js';
import type { ApiClient } from './http.js';
import { newPerson } from './http.js';
import { tinyPng, upload } from './images.js';
import type { TestServer } from './test-server.js';

/** A signed-up person: their token and numeric id (from GET /api/profile). */
export interface Person {
  token: string;
  id: string;
  username: string;
  email: string;
}

/** Helpers for the tags, likes and in-photo tests: people and tiny uploaded images. */
export function tagFixtures(server: () => TestServer, api: () => ApiClient) {
  let seed = 0;
  return {
    async signUp(prefix = 'user'): Promise<Person> {
      const person = newPerson(prefix);
      const res = await api().post<{ token: string }>('/signup', person);
      expect(res.status).toBe(201);
      const profile = await api().get<{ id: string }>('/api/profile', res.body.token);
      return { token: res.body.token, id: profile.body.id, username: person.username, email: person.email };
    },
    /** A person whose address is proven (opened the mailed link), so shares sent to it reach them. */
    async signUpConfirmed(prefix = 'user'): Promise<Person> {
      const person = await signUpConfirmed(server(), api(), { prefix });
      const profile = await api().get<{ id: string }>('/api/profile', person.token);
      return { token: person.token, id: profile.body.id, username: person.username, email: person.email };
    },
    /** Switches the owner's restricted share with the person off or on again (the access screen's toggle). */
    async switchShare(owner: Person, withPerson: Person, on: boolean): Promise<void> {
      const records = await api().get<{ restrictedAccessUserData: { _id: string; accessTo: string }[] }>('/getUserAccessData', owner.token);
      const record = records.body.restrictedAccessUserData.find((r) => r.accessTo === withPerson.email);
      expect(record, `no share with ${withPerson.email}`).toBeDefined();
      const res = await api().put(`/updateUserStatus/${record?._id}`, { status: on, type: 'restrictedAccess' }, owner.token);
      expect(res.status).toBe(200);
    },
    /** Shares the owner's images with the person (restricted access), as the gallery does. */
    async share(owner: Person, imageIds: string[], withPerson: Person): Promise<void> {
      const res = await api().post('/api/share-restricted', { imageIds, emails: [withPerson.email] }, owner.token);
      expect(res.status).toBe(200);
    },
    /** Uploads `count` distinct tiny PNGs as the person; returns their ids in upload order. */
    async images(person: Person, count: number): Promise<string[]> {
      const files = await Promise.all(
        Array.from({ length: count }, async () => {
          seed += 1;
          return { source: await tinyPng(seed * 7919 + 13), name: `pic-${seed}.png` };
        }),
      );
      const res = await upload(server().url, person.token, files);
      expect(res.status).toBe(200);
      return (res.body.results ?? []).map((r) => r.imageId ?? '');
    },
  };
}
