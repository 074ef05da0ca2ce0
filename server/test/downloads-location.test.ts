import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { TESTDATA, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { unzip } from './support/zips.js';

/** Photos whose files say where they were taken: a camera JPEG, an iPhone HEIC, a WebP (EXIF after the pixels). */
const PLACED = ['camera/Apple iPhone 4.jpg', 'formats/iphone-xr-orient6-gps.heic', 'formats/iphone-x-orient6-gps.webp'] as const;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A photo whose file names its place, as photo editors write it: XMP (photoshop:City, IPTC Core's
 * Location) and an IPTC-IIM block in an APP13 segment (city, country), beside a title kept for all.
 */
async function photoNamingItsPlace(): Promise<Buffer> {
  const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
 xmlns:dc="http://purl.org/dc/elements/1.1/" photoshop:City="Lisbon" photoshop:Country="Portugal">
<Iptc4xmpCore:Location>Rua Augusta 10</Iptc4xmpCore:Location><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Kept title</rdf:li></rdf:Alt></dc:title>
</rdf:Description></rdf:RDF></x:xmpmeta>`;
  const dataset = (number: number, value: string) => Buffer.concat([Buffer.from([0x1c, 2, number, 0, value.length]), Buffer.from(value, 'latin1')]);
  const iim = Buffer.concat([dataset(5, 'Kept object'), dataset(90, 'Lisbon'), dataset(101, 'Portugal')]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(iim.length);
  const resources = Buffer.concat([Buffer.from('8BIM\x04\x04\0\0', 'latin1'), size, iim, Buffer.alloc(iim.length % 2)]);
  const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resources]);
  const app13 = Buffer.concat([Buffer.from([0xff, 0xed, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a7' } }).withXmp(xmp).jpeg().toBuffer();
  return Buffer.concat([jpeg.subarray(0, 2), app13, jpeg.subarray(2)]);
}

/**
 * A GIF whose XMP names its place and its position, laid out as the XMP specification says (the
 * packet's raw bytes after the "XMP DataXMP" application extension, then the 258-byte magic
 * trailer), after the frame, as exiftool writes it.
 */
async function gifNamingItsPlace(): Promise<Buffer> {
  const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
 xmlns:dc="http://purl.org/dc/elements/1.1/" photoshop:City="Lisbon" exif:GPSLatitude="38,42.6N" exif:GPSLongitude="9,8.2W">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Kept title</rdf:li></rdf:Alt></dc:title>
</rdf:Description></rdf:RDF></x:xmpmeta>`;
  const trailer = Buffer.from([0x01, ...Array.from({ length: 256 }, (_, i) => 0xff - i), 0x00]);
  const extension = Buffer.concat([Buffer.from([0x21, 0xff, 11]), Buffer.from('XMP DataXMP', 'latin1'), Buffer.from(xmp), trailer]);
  const gif = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a72' } }).gif().toBuffer();
  return Buffer.concat([gif.subarray(0, -1), extension, gif.subarray(-1)]);
}

/** The file's EXIF as exifr reads it: from the file, or (WebP, which exifr cannot open) the EXIF block sharp finds in it. */
async function exifOf(bytes: Buffer): Promise<Buffer> {
  if (bytes.subarray(8, 12).toString('latin1') !== 'WEBP') return bytes;
  const exif = (await sharp(bytes).metadata()).exif ?? Buffer.alloc(0);
  return exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
}

async function positionOf(bytes: Buffer): Promise<{ latitude: number; longitude: number } | undefined> {
  return (await exifr.gps(await exifOf(bytes))) ?? undefined;
}

/** What else the file says: kept for everyone. */
async function factsOf(bytes: Buffer) {
  const tags = (await exifr.parse(await exifOf(bytes), { pick: ['Make', 'Model', 'DateTimeOriginal'] })) as Record<string, unknown> | undefined;
  return { make: tags?.['Make'], model: tags?.['Model'], taken: String(tags?.['DateTimeOriginal']) };
}

/**
 * A photo's location only ever reaches its uploader and admins (DECISIONS §3, decision 0006): the
 * original they download is the file as uploaded; anyone else's — a share's recipient, a share-all
 * link — is the same file, the same length, with its position blanked (downloads/location/).
 */
describe.each(testSetups)('downloads without the position ($database, $storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let admin: SignedUpPerson;
  let bob: SignedUpPerson;
  let carol: SignedUpPerson;
  let linkToken: string;
  const photos: { id: string; name: string; bytes: Buffer }[] = [];
  const named: { id: string; name: string; bytes: Buffer } = { id: '', name: 'lisbon.jpg', bytes: Buffer.alloc(0) };
  const namedGif: { id: string; name: string; bytes: Buffer } = { id: '', name: 'lisbon.gif', bytes: Buffer.alloc(0) };

  const download = async (call: 'original' | 'zip', body: unknown, token: string) => {
    const made = await api.post<{ url: string }>(`/api/downloads/${call}`, body, token);
    expect(made.status).toBe(200);
    const res = await fetch(new URL(made.body.url, server.url));
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const fromLink = async (suffix: string) => {
    const res = await fetch(new URL(`/shared-images/${linkToken}/download${suffix}`, server.url));
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
    carol = await signUpConfirmed(server, api, { prefix: 'carol' });
    for (const file of PLACED) {
      const source = path.join(TESTDATA, file);
      const name = path.basename(file);
      const res = await upload(server.url, bob.token, [{ source, name }]);
      expect(res.body.results?.[0]?.status, file).toBe('kept');
      photos.push({ id: res.body.results?.[0]?.imageId ?? '', name, bytes: await readFile(source) });
    }
    named.bytes = await photoNamingItsPlace();
    const namedUpload = await upload(server.url, bob.token, [{ source: named.bytes, name: named.name }]);
    expect(namedUpload.body.results?.[0]?.status).toBe('kept');
    named.id = namedUpload.body.results?.[0]?.imageId ?? '';
    namedGif.bytes = await gifNamingItsPlace();
    const gifUpload = await upload(server.url, bob.token, [{ source: namedGif.bytes, name: namedGif.name }]);
    expect(gifUpload.body.results?.[0]?.status).toBe('kept');
    namedGif.id = gifUpload.body.results?.[0]?.imageId ?? '';
    const shareIds = [...photos.map((p) => p.id), named.id, namedGif.id];
    expect((await api.post('/api/share-restricted', { imageIds: shareIds, emails: [carol.email] }, bob.token)).status).toBe(200);
    const shared = await api.post<{ link: string }>('/api/share-all', { accessTo: [newPerson('grandpa').email] }, admin.token);
    linkToken = shared.body.link.split('/').pop() ?? '';
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it('every test photo says where it was taken (else this test proves nothing)', async () => {
    for (const photo of photos) expect(await positionOf(photo.bytes), photo.name).toBeDefined();
  });

  it('gives the uploader and admins the original byte for byte, position included', async () => {
    for (const photo of photos) {
      for (const person of [bob, admin]) {
        const bytes = await download('original', { id: photo.id }, person.token);
        expect(sha256(bytes), photo.name).toBe(sha256(photo.bytes));
      }
    }
    const zipped = await unzip(await download('zip', { ids: photos.map((p) => p.id) }, bob.token));
    for (const photo of photos) expect(sha256(zipped.get(photo.name)!), photo.name).toBe(sha256(photo.bytes));
  });

  it("gives a share's recipient the same file without its position: one original, and in a zip", async () => {
    const zipped = await unzip(await download('zip', { ids: photos.map((p) => p.id) }, carol.token));
    for (const photo of photos) {
      for (const bytes of [await download('original', { id: photo.id }, carol.token), zipped.get(photo.name)!]) {
        expect(bytes.length, photo.name).toBe(photo.bytes.length);
        expect(await positionOf(bytes), photo.name).toBeUndefined();
        expect(await factsOf(bytes), photo.name).toEqual(await factsOf(photo.bytes));
      }
    }
  });

  it('gives a share-all link the files without their positions, one by one and all at once', async () => {
    const all = await unzip(await fromLink(''));
    for (const photo of photos) {
      for (const bytes of [await fromLink(`/${photo.id}`), all.get(photo.name)!]) {
        expect(bytes.length, photo.name).toBe(photo.bytes.length);
        expect(await positionOf(bytes), photo.name).toBeUndefined();
        expect(await factsOf(bytes), photo.name).toEqual(await factsOf(photo.bytes));
      }
    }
  });

  it('gives others the file without the names of its place (XMP and IPTC); its uploader gets them', async () => {
    const places = async (bytes: Buffer) => {
      const read = (await exifr.parse(bytes, { xmp: true, iptc: true, mergeOutput: true })) as Record<string, unknown>;
      return ['City', 'Country', 'Location'].map((key) => String(read[key] ?? '').trim()).filter(Boolean);
    };
    expect(await places(named.bytes)).toEqual(expect.arrayContaining(['Lisbon', 'Portugal', 'Rua Augusta 10']));
    expect(sha256(await download('original', { id: named.id }, bob.token))).toBe(sha256(named.bytes));
    for (const bytes of [await download('original', { id: named.id }, carol.token), await fromLink(`/${named.id}`)]) {
      expect(bytes.length).toBe(named.bytes.length);
      expect(await places(bytes)).toEqual([]);
      expect(bytes.includes(Buffer.from('Lisbon'))).toBe(false);
      expect(bytes.includes(Buffer.from('Kept title'))).toBe(true);
      expect(bytes.includes(Buffer.from('Kept object'))).toBe(true);
      expect((await sharp(bytes).metadata()).width).toBe(64);
    }
  });

  it("gives others a GIF without the place and position in its XMP, its frame intact; its uploader gets them", async () => {
    const pixels = async (bytes: Buffer) => (await sharp(bytes).raw().toBuffer()).toString('base64');
    expect(sha256(await download('original', { id: namedGif.id }, bob.token))).toBe(sha256(namedGif.bytes));
    for (const bytes of [await download('original', { id: namedGif.id }, carol.token), await fromLink(`/${namedGif.id}`)]) {
      expect(bytes.length).toBe(namedGif.bytes.length);
      for (const text of ['Lisbon', 'GPSLatitude', '38,42.6N', 'GPSLongitude']) expect(bytes.includes(Buffer.from(text)), text).toBe(false);
      expect(bytes.includes(Buffer.from('Kept title'))).toBe(true);
      expect(await pixels(bytes)).toBe(await pixels(namedGif.bytes));
    }
  });
});
