import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeHeic, HeicError, readHeicSize, type DecodedRaw } from '../src/image-processing/decoders/heic.js';

const FORMATS = '/work/shared/testdata/images/formats';
const read = (name: string) => readFileSync(`${FORMATS}/${name}`);

// Upright (as displayed) sizes. The iPhone XR file is coded 4032×3024 with irot 3 (= 90° clockwise)
// and EXIF Orientation 6 (the same turn, described twice): upright it is a 3024×4032 portrait.
const FILES = [
  { name: 'iphone-xr-orient6-gps.heic', width: 3024, height: 4032 },
  { name: 'IMG_2927.HEIC', width: 3024, height: 4032 },
  { name: 'HMD_Nokia_8.3_5G_hdr.heif', width: 4608, height: 3456 },
] as const;

/** A copy of `file` with the quarter-turn count of its (first) irot property replaced. */
function withIrot(file: Buffer, quarterTurns: number): Buffer {
  const copy = Buffer.from(file);
  const at = copy.subarray(0, 8192).indexOf('irot', 0, 'latin1');
  if (at < 0) throw new Error('no irot box');
  copy[at + 4] = quarterTurns;
  return copy;
}

/** A copy of `file` whose primary image claims `width`×`height` (its second ispe: the grid's). */
function withHugeIspe(file: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(file);
  const head = copy.subarray(0, 8192);
  const first = head.indexOf('ispe', 0, 'latin1');
  const second = head.indexOf('ispe', first + 4, 'latin1');
  copy.writeUInt32BE(width, second + 8);
  copy.writeUInt32BE(height, second + 12);
  return copy;
}

describe('readHeicSize', () => {
  it.each(FILES)('reads the upright size of $name from the header', async ({ name, width, height }) => {
    expect(await readHeicSize(read(name))).toEqual({ width, height });
  });

  it('honours the container rotation: the same file without irot reads as stored (landscape)', async () => {
    const xr = read('iphone-xr-orient6-gps.heic');
    expect(await readHeicSize(withIrot(xr, 0))).toEqual({ width: 4032, height: 3024 });
    expect(await readHeicSize(withIrot(xr, 2))).toEqual({ width: 4032, height: 3024 });
    expect(await readHeicSize(withIrot(xr, 1))).toEqual({ width: 3024, height: 4032 });
  });

  it('reports a decompression bomb’s claimed size without decoding anything', async () => {
    const bomb = withHugeIspe(read('IMG_2927.HEIC'), 60_000, 60_000);
    const started = performance.now();
    expect(await readHeicSize(bomb)).toEqual({ width: 60_000, height: 60_000 });
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('throws HeicError for what is not a readable HEIF', async () => {
    const xr = read('iphone-xr-orient6-gps.heic');
    const inputs = {
      empty: Buffer.alloc(0),
      garbage: Buffer.from('this is not an image at all '.repeat(50)),
      truncated: xr.subarray(0, 5000),
      'truncated to 1 MB': xr.subarray(0, 1_000_000),
      jpeg: readFileSync('/work/shared/testdata/images/camera/Nikon D1X.jpg'),
      avif: read('canon-eos-70d-20mp.avif'),
    };
    for (const [what, input] of Object.entries(inputs)) {
      await expect(readHeicSize(input), what).rejects.toBeInstanceOf(HeicError);
    }
  });

  it('survives corrupted and cut headers: a size or a HeicError, nothing else', async () => {
    const file = Buffer.from(read('IMG_2927.HEIC'));
    let seed = 1;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed % below;
    };
    for (let i = 0; i < 3000; i++) {
      const at = random(3400); // the header (ftyp + meta) is the first 3303 bytes
      const original = file[at]!;
      file[at] = random(256);
      const outcome = await readHeicSize(file).then(
        (size) => size.width > 0 && size.height > 0,
        (error: unknown) => error instanceof HeicError,
      );
      expect(outcome, `byte ${at} set to ${file[at]}`).toBe(true);
      file[at] = original;
    }
    for (let length = 0; length < 4000; length += 7) {
      await expect(readHeicSize(file.subarray(0, length))).rejects.toBeInstanceOf(HeicError);
    }
  });
});

describe('decodeHeic', () => {
  const decoded = new Map<string, DecodedRaw>();
  beforeAll(async () => {
    for (const { name } of FILES) decoded.set(name, await decodeHeic(read(name)));
  }, 60_000);

  it.each(FILES)('decodes $name upright to raw RGB of the header’s size', ({ name, width, height }) => {
    const image = decoded.get(name)!;
    const { width: w, height: h, channels } = image;
    expect({ width: w, height: h, channels }).toEqual({ width, height, channels: 3 });
    expect(image.data.length).toBe(width * height * image.channels);
  });

  it('turns the iPhone XR photo once: portrait, the stored pixels turned 90° clockwise', async () => {
    const upright = decoded.get('iphone-xr-orient6-gps.heic')!;
    // Not at all, or twice (irot + EXIF 6 = 180°), would leave it landscape.
    expect(upright.height).toBeGreaterThan(upright.width);

    // The stored pixels (irot removed) turned the way EXIF Orientation 6 says, by an independent
    // implementation (libvips): identical, so libheif turned the right way, once.
    const stored = await decodeHeic(withIrot(read('iphone-xr-orient6-gps.heic'), 0));
    expect({ width: stored.width, height: stored.height }).toEqual({ width: 4032, height: 3024 });
    const raw = { width: stored.width, height: stored.height, channels: stored.channels };
    const turned = await sharp(stored.data, { raw })
      .rotate(90)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([turned.info.width, turned.info.height]).toEqual([upright.width, upright.height]);
    expect(turned.data.equals(upright.data)).toBe(true);
  }, 30_000);

  it('throws HeicError for garbage, a truncated HEIC, a JPEG and an AVIF', async () => {
    const inputs = {
      garbage: Buffer.from('this is not an image at all '.repeat(50)),
      truncated: read('iphone-xr-orient6-gps.heic').subarray(0, 5000),
      jpeg: readFileSync('/work/shared/testdata/images/camera/Nikon D1X.jpg'),
      avif: read('canon-eos-70d-20mp.avif'),
    };
    for (const [what, input] of Object.entries(inputs)) {
      await expect(decodeHeic(input), what).rejects.toBeInstanceOf(HeicError);
    }
  });

  it('refuses a decompression bomb before decoding', async () => {
    const bomb = withHugeIspe(read('IMG_2927.HEIC'), 60_000, 60_000);
    const started = performance.now();
    await expect(decodeHeic(bomb)).rejects.toBeInstanceOf(HeicError);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses a file whose pixel data does not match its header (grid larger than ispe)', async () => {
    // IMG_2927's grid descriptor (idat) says 3024×4032; claim 20000×20000 there instead.
    const file = Buffer.from(read('IMG_2927.HEIC'));
    const idat = file.subarray(0, 8192).indexOf('idat', 0, 'latin1');
    file.writeUInt16BE(20_000, idat + 8);
    file.writeUInt16BE(20_000, idat + 10);
    await expect(decodeHeic(file)).rejects.toBeInstanceOf(HeicError);
  });
});
