import { existsSync, openAsBlob } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { ApiResponse } from './http.js';

/** The shared corpus of real camera and phone photos, with what each file is (read-only). */
export const TESTDATA = findTestData();

function findTestData(): string {
  const candidates = [
    process.env['TESTDATA_IMAGES'],
    // Beside the checkout (../shared), wherever the checkout is, and the workplace's fixed place.
    path.resolve(import.meta.dirname, '../../../../shared/testdata/images'),
    '/work/shared/testdata/images',
  ].filter((c): c is string => Boolean(c));
  const found = candidates.find((c) => existsSync(path.join(c, 'manifest.json')));
  if (!found) throw new Error(`The test photos are missing; set TESTDATA_IMAGES. Looked in: ${candidates.join(', ')}`);
  return found;
}

export interface ManifestEntry {
  file: string;
  format: string;
  bytes: number;
  width: number | null;
  height: number | null;
  orientation: number | null;
  expectDecodable: boolean;
  purpose: string;
}

export async function readManifest(): Promise<ManifestEntry[]> {
  return JSON.parse(await readFile(path.join(TESTDATA, 'manifest.json'), 'utf8')) as ManifestEntry[];
}

/** The upright size a manifest entry should come out at: orientations 5–8 swap width and height. */
export function uprightSize(entry: ManifestEntry): { width: number; height: number } {
  const turned = (entry.orientation ?? 1) >= 5;
  const w = entry.width ?? 0;
  const h = entry.height ?? 0;
  return turned ? { width: h, height: w } : { width: w, height: h };
}

export interface UploadFile {
  /** A path on disk (streamed, as a browser does) or bytes made by the test. */
  source: string | Buffer;
  name: string;
}

export interface UploadResult {
  fileName: string;
  status: 'kept' | 'duplicate' | 'refused';
  reason?: string;
  imageId?: string;
}

/** POST /bulk-upload with repeated `images` parts, over real HTTP. */
export async function upload(
  baseUrl: string,
  token: string | undefined,
  files: UploadFile[],
): Promise<ApiResponse<{ message: string; results?: UploadResult[] }>> {
  const form = new FormData();
  for (const file of files) {
    const blob = typeof file.source === 'string' ? await openAsBlob(file.source) : new Blob([file.source]);
    form.append('images', blob, file.name);
  }
  const response = await fetch(new URL('/bulk-upload', baseUrl), {
    method: 'POST',
    body: form,
    headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { message: string; results?: UploadResult[] } };
}

/** A small distinct PNG (solid colour from the seed), fast to upload and process in bulk. */
export async function tinyPng(seed: number, width = 12, height = 8): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: seed % 256, g: Math.floor(seed / 256) % 256, b: 77 } },
  })
    .png()
    .toBuffer();
}

/** Every file under a folder, relative to it (for asserting what storage holds). */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A 16×16 grey thumbnail of an image, to compare pictures regardless of size and encoding. */
export async function fingerprint(image: Buffer): Promise<Buffer> {
  return sharp(image).resize(16, 16, { fit: 'fill' }).greyscale().raw().toBuffer();
}

/** Mean absolute difference of two fingerprints, 0 (same) to 255. */
export function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}
