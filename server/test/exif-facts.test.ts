import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { METADATA_HEAD_BYTES, NO_FACTS, readExif, readExifFromBytes } from '../src/image-processing/exif.js';
import { TESTDATA } from './support/images.js';

const photo = (file: string) => path.join(TESTDATA, file);

describe('readExif on real photos', () => {
  it('reads every fact of an iPhone HEIC, with the offset of its date', async () => {
    expect(await readExif(photo('formats/IMG_2927.HEIC'))).toEqual({
      takenAt: '2020-05-04T18:39:11',
      takenOffset: '-04:00',
      fileDate: '2020-05-04T18:39:11',
      camera: 'Apple iPhone 11 Pro',
      lens: 'iPhone 11 Pro back triple camera 4.25mm f/1.8',
      fNumber: 1.8,
      exposureTime: expect.closeTo(1 / 493, 6) as number,
      iso: 32,
      focalLength: 4.25,
      gps: null,
    });
  });

  it('reads a camera JPEG: lens, exposure, ISO, and a file date later than the date taken', async () => {
    expect(await readExif(photo('large/canon-eos-5d-mark-iii-22mp.jpg'))).toEqual({
      takenAt: '2016-01-12T15:33:28',
      takenOffset: null,
      fileDate: '2017-06-01T13:04:55',
      camera: 'Canon EOS 5D Mark III',
      lens: 'EF24-70mm f/2.8L USM',
      fNumber: 2.8,
      exposureTime: 0.005,
      iso: 1000,
      focalLength: 35,
      gps: null,
    });
  });

  it('finds the EXIF behind an ICC profile (iPhone 4), position included', async () => {
    const facts = await readExif(photo('camera/Apple iPhone 4.jpg'));
    expect(facts).toMatchObject({ takenAt: '2011-01-13T14:33:39', camera: 'Apple iPhone 4', fNumber: 2.8, iso: 500, focalLength: 3.85 });
    expect(facts.exposureTime).toBeCloseTo(1 / 15, 6);
    expect(facts.gps?.latitude).toBeCloseTo(41.853, 3);
    expect(facts.gps?.longitude).toBeCloseTo(12.4888, 3);
  });

  it('reads WebP and AVIF through the EXIF block libvips hands over', async () => {
    expect(await readExif(photo('formats/iphone-x-orient6-gps.webp'))).toMatchObject({
      takenAt: '2018-08-27T12:20:23', camera: 'Apple iPhone X', lens: 'iPhone X back dual camera 4mm f/1.8', fNumber: 1.8, iso: 32, focalLength: 4,
    });
    expect(await readExif(photo('formats/canon-eos-70d-20mp.avif'))).toMatchObject({
      takenAt: '2015-10-11T14:41:44', camera: 'Canon EOS 70D', lens: 'EF50mm f/1.8 STM', fNumber: 3.2, iso: 400, focalLength: 50,
    });
  });

  it('reads a HEIC whose metadata sits after the image data, and a TIFF', async () => {
    // The Nokia records no date taken, only the file's date: the timeline uses that.
    expect(await readExif(photo('formats/HMD_Nokia_8.3_5G_hdr.heif'))).toMatchObject({
      takenAt: null, fileDate: '2022-01-12T07:30:14', fNumber: 1.89, exposureTime: 0.008, iso: 100,
    });
    expect((await readExif(photo('formats/Epson PerfectionV800.tiff'))).camera).toBe('Epson PerfectionV800');
  });

  it('leaves out values no camera can have (FinePix S2 Pro: f/0.2, ISO 0)', async () => {
    const facts = await readExif(photo('camera/FujiFilm FinePixS2Pro.jpg'));
    expect(facts).toMatchObject({ takenAt: '2002-08-24T13:59:08', fileDate: '2002-09-03T12:47:28', fNumber: null, iso: null });
  });

  it('gives nulls, never an error, for pictures without EXIF and files that are no picture', async () => {
    for (const file of ['formats/basn6a08.png', 'tiny/mspaint-10x10.gif', 'broken/empty.jpg', 'broken/not_an_image.jpg', 'orientation/Landscape_1.jpg']) {
      expect(await readExif(photo(file)), file).toEqual(NO_FACTS);
    }
    expect(await readExif(photo('no/such/file.jpg'))).toEqual(NO_FACTS);
  });

  it('reads the same from a JPEG head in memory as from the whole file', async () => {
    for (const file of ['camera/Apple iPhone 5.jpg', 'camera/Sony DSC-HX5V (2).jpg', 'broken/truncated-sony-xperia-z5c.jpg']) {
      const head = (await readFile(photo(file))).subarray(0, METADATA_HEAD_BYTES);
      const fromHead = await readExifFromBytes(head);
      expect(fromHead.takenAt, file).not.toBeNull();
      expect(fromHead, file).toEqual(await readExif(photo(file)));
    }
  });
});
