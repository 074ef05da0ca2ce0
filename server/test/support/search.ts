import type { Image } from '@photo/contract';
import { expect } from 'vitest';
import type { ApiClient } from './http.js';
import { tinyPng, upload } from './images.js';
import { tagFixtures } from './tag-fixtures.js';
import type { TestServer } from './test-server.js';

/** `GET /search?query=` as this person (a bearer token): the images answered, after checking the 200. */
export async function searchAs(api: ApiClient, token: string, text: string): Promise<Image[]> {
  const res = await api.get<{ images: Image[] }>(`/search?query=${encodeURIComponent(text)}`, token);
  expect(res.status).toBe(200);
  return res.body.images;
}

/**
 * The search tests' cast: an admin (the first account), Olga, who uploads `fileNames` as tiny
 * distinct PNGs, and Rita; with the ids of Olga's photos by file name.
 */
export async function searchCast(server: TestServer, api: ApiClient, fileNames: readonly string[], seed: number) {
  const fx = tagFixtures(() => server, () => api);
  const admin = await fx.signUpConfirmed('admin');
  const olga = await fx.signUpConfirmed('olga');
  const rita = await fx.signUpConfirmed('rita');
  const files = await Promise.all(fileNames.map(async (name, i) => ({ source: await tinyPng(seed + i), name })));
  const res = await upload(server.url, olga.token, files);
  const ids: Record<string, string> = {};
  for (const result of res.body.results ?? []) ids[result.fileName ?? ''] = result.imageId ?? '';
  return { fx, admin, olga, rita, ids };
}
