import { open } from 'node:fs/promises';
import { loadSharp } from './sharp-loader.js';
import { loadOnFirstUse } from '../shared/load-on-first-use.js';

export interface ExifFacts {
  /** Wall-clock time the photo was taken, as the camera recorded it ('YYYY-MM-DDTHH:MM:SS'). */
  takenAt: string | null;
  /** The offset recorded with it (EXIF OffsetTimeOriginal, '+09:00'), if any. */
  takenOffset: string | null;
  /** The file's own date (EXIF ModifyDate), wall-clock like `takenAt`. */
  fileDate: string | null;
  camera: string | null;
  lens: string | null;
  fNumber: number | null;
  /** Seconds. */
  exposureTime: number | null;
  iso: number | null;
  /** Millimetres. */
  focalLength: number | null;
  gps: { latitude: number; longitude: number } | null;
}

export const NO_FACTS: ExifFacts = {
  takenAt: null,
  takenOffset: null,
  fileDate: null,
  camera: null,
  lens: null,
  fNumber: null,
  exposureTime: null,
  iso: null,
  focalLength: null,
  gps: null,
};

/**
 * How much of a picture is read for its metadata first. A JPEG keeps it in the segments before the
 * image data (in the test photos within 64 KB, also behind an ICC profile), and iPhone HEIC in the
 * first 16 KB. TIFF, WebP, AVIF and some HEIC (Nokia) keep it after the image data, so for those the
 * whole file has to be at hand: `readExif` on a path lets exifr and libvips fetch the parts they need.
 */
export const METADATA_HEAD_BYTES = 512 * 1024;

/** The only tags parsed (exifr skips the rest of each block: reading stays cheap). */
const PICKED = [
  'DateTimeOriginal', 'CreateDate', 'ModifyDate', 'OffsetTimeOriginal', 'OffsetTime',
  'Make', 'Model', 'LensMake', 'LensModel', 'FNumber', 'ExposureTime', 'ISO', 'FocalLength',
  'GPSLatitude', 'GPSLatitudeRef', 'GPSLongitude', 'GPSLongitudeRef',
];

type Tags = Record<string, unknown>;

/** Everything the camera recorded that we keep, from a file on disk; missing or unreadable EXIF gives nulls, never an error. */
export async function readExif(file: string): Promise<ExifFacts> {
  try {
    const head = await readHead(file, METADATA_HEAD_BYTES);
    // exifr's chunked file reader loses an EXIF segment that follows an ICC profile longer than its
    // first chunk (iPhone 4 photos), so a JPEG — and any file that fits — is parsed from its bytes.
    const useHead = head.length < METADATA_HEAD_BYTES || isJpeg(head);
    return await factsOf(useHead ? head : file);
  } catch {
    return NO_FACTS;
  }
}

/** The same from bytes in memory: a whole file, or a JPEG's first METADATA_HEAD_BYTES. */
export async function readExifFromBytes(bytes: Buffer): Promise<ExifFacts> {
  try {
    return await factsOf(bytes);
  } catch {
    return NO_FACTS;
  }
}

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

export function hasAnyFact(facts: ExifFacts): boolean {
  return Object.values(facts).some((value) => value !== null);
}

async function factsOf(input: string | Buffer): Promise<ExifFacts> {
  const tags = await exifTags(input);
  if (!tags) return NO_FACTS;
  const takenAt = exifDate(tags.DateTimeOriginal) ?? exifDate(tags.CreateDate);
  return {
    takenAt,
    // EXIF 2.31 offsets; OffsetTime belongs to ModifyDate, which cameras write at the same moment.
    takenOffset: takenAt ? offsetOf(tags.OffsetTimeOriginal) ?? offsetOf(tags.OffsetTime) : null,
    fileDate: exifDate(tags.ModifyDate),
    camera: cameraName(tags.Make, tags.Model),
    lens: lensName(tags.LensMake, tags.LensModel, tags.Make),
    // Out of any lens's or camera's range: a broken field (FinePix S2 Pro writes f/0.2 and ISO 0).
    fNumber: within(tags.FNumber, 0.5, 512),
    exposureTime: within(tags.ExposureTime, 1e-7, 86_400),
    iso: isoOf(tags.ISO ?? tags.ISOSpeedRatings ?? tags.PhotographicSensitivity),
    focalLength: within(tags.FocalLength, 0.1, 10_000),
    gps: position(tags),
  };
}

async function exifTags(input: string | Buffer): Promise<Tags | undefined> {
  const parsed = await parseTags(input).catch(() => undefined);
  if (parsed && PICKED.some((name) => parsed[name] !== undefined)) return parsed;
  // exifr does not read WebP, nor the EXIF of every AVIF or TIFF variant; libvips hands over the raw block instead.
  const sharp = await loadSharp();
  const { exif } = await sharp(input).metadata().catch(() => ({ exif: undefined }));
  if (!exif) return parsed;
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  return (await parseTags(tiff).catch(() => undefined)) ?? parsed;
}

/**
 * One options object for every parse, made once: exifr keeps the parsed form of each options object
 * it is given in a module-level Map keyed by the object (`Options.useCached`), never emptied. A fresh
 * literal per call left ~9 KB on the heap per image read (issue 14: 19 KB of RSS per imported image).
 */
const EXIFR_OPTIONS = Object.freeze({
  tiff: true,
  exif: true,
  gps: true,
  ifd1: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  // Dates stay the camera's text (wall clock, no zone); exifr would turn them into local-time Dates.
  reviveValues: false,
  pick: PICKED,
});

async function parseTags(input: string | Buffer): Promise<Tags | undefined> {
  // Loaded with the first picture, not at start (issue 14: idle memory).
  const exifr = loadOnFirstUse<typeof import('exifr').default>('exifr');
  return (await exifr.parse(input, EXIFR_OPTIONS)) as Tags | undefined;
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\0/g, '').trim() : '';
}

function exifDate(value: unknown): string | null {
  const match = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text(value));
  if (!match || match[1] === '0000') return null;
  const [, y, mo, d, h, mi, s] = match;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}`;
  // "2005:00:00 00:00:00" and the like are blanks, not dates.
  const parsed = new Date(`${iso}Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 19) !== iso ? null : iso;
}

/** '+09:00' from '+09:00', '+0900' or '+9:00' ('Z': '+00:00'); anything else is no offset. */
function offsetOf(value: unknown): string | null {
  const raw = text(value);
  if (raw === 'Z') return '+00:00';
  const match = /^([+-])(\d{1,2}):?(\d{2})$/.exec(raw);
  if (!match) return null;
  const [, sign, hours = '', minutes = ''] = match;
  if (Number(hours) > 14 || Number(minutes) > 59) return null;
  return `${sign}${hours.padStart(2, '0')}:${minutes}`;
}

function cameraName(make: unknown, model: unknown): string | null {
  const m = text(make);
  const mo = text(model);
  if (!m && !mo) return null;
  // Many cameras repeat the maker in the model ("Canon" + "Canon EOS 70D").
  if (m && mo.toLowerCase().startsWith(firstWord(m))) return mo;
  return [m, mo].filter(Boolean).join(' ');
}

/**
 * The lens model as recorded; with its maker in front only when that says something: a third-party
 * lens ("SIGMA" + "18-35mm F1.8 DC HSM") yes, the camera's own maker ("Apple" + "iPhone XR back camera") no.
 */
function lensName(lensMake: unknown, lensModel: unknown, cameraMake: unknown): string | null {
  const model = text(lensModel);
  const maker = text(lensMake);
  // Cameras without lens data write '----' or blanks.
  if (!/[1-9a-z]/i.test(model)) return null;
  if (!maker || firstWord(maker) === firstWord(text(cameraMake)) || model.toLowerCase().startsWith(firstWord(maker))) return model;
  return `${maker} ${model}`;
}

function firstWord(value: string): string {
  return value.toLowerCase().split(/\s+/)[0] ?? '';
}

function within(value: unknown, min: number, max: number): number | null {
  const n = Array.isArray(value) ? value[0] : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= min && n <= max ? n : null;
}

/** ISO speed: a number, or the first of several (EXIF allows a list); 0 says nothing. */
function isoOf(value: unknown): number | null {
  const iso = within(value, 1, 1_000_000);
  return iso === null ? null : Math.round(iso);
}

function position(tags: Tags): ExifFacts['gps'] {
  const lat = degrees(tags.GPSLatitude, tags.GPSLatitudeRef, 'S');
  const lon = degrees(tags.GPSLongitude, tags.GPSLongitudeRef, 'W');
  if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  if (lat === 0 && lon === 0) return null;
  return { latitude: lat, longitude: lon };
}

function degrees(value: unknown, ref: unknown, negative: string): number | null {
  if (!Array.isArray(value) || value.length < 3 || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  const [d, m, s] = value as number[];
  const result = (d ?? 0) + (m ?? 0) / 60 + (s ?? 0) / 3600;
  return ref === negative ? -result : result;
}
