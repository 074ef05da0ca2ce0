import exifr from 'exifr';
import sharp from 'sharp';

export interface ExifFacts {
  /** Wall-clock time the photo was taken, as the camera recorded it (EXIF has no time zone). */
  takenAt: string | null;
  camera: string | null;
  gps: { latitude: number; longitude: number } | null;
}

const none: ExifFacts = { takenAt: null, camera: null, gps: null };

/** Date taken, camera and GPS position; missing or unreadable EXIF gives nulls, never an error. */
export async function readExif(file: string): Promise<ExifFacts> {
  try {
    const tags = await parseTags(file).catch(async () => {
      // exifr does not read WebP (or every TIFF variant); libvips hands over the raw EXIF block instead.
      const { exif } = await sharp(file).metadata();
      if (!exif) return undefined;
      const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
      return parseTags(tiff);
    });
    if (!tags) return none;
    return { takenAt: exifDate(tags.DateTimeOriginal ?? tags.CreateDate), camera: cameraName(tags.Make, tags.Model), gps: position(tags) };
  } catch {
    return none;
  }
}

async function parseTags(input: string | Buffer): Promise<Record<string, unknown> | undefined> {
  return (await exifr.parse(input, {
    tiff: true,
    exif: true,
    gps: true,
    ifd1: false,
    xmp: false,
    icc: false,
    iptc: false,
    jfif: false,
    ihdr: false,
    reviveValues: false,
    pick: ['DateTimeOriginal', 'CreateDate', 'Make', 'Model', 'GPSLatitude', 'GPSLatitudeRef', 'GPSLongitude', 'GPSLongitudeRef'],
  })) as Record<string, unknown> | undefined;
}

function exifDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!match || match[1] === '0000') return null;
  const [, y, mo, d, h, mi, s] = match;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}`;
}

function cameraName(make: unknown, model: unknown): string | null {
  const m = typeof make === 'string' ? make.replace(/\0/g, '').trim() : '';
  const mo = typeof model === 'string' ? model.replace(/\0/g, '').trim() : '';
  if (!m && !mo) return null;
  // Many cameras repeat the maker in the model ("Canon" + "Canon EOS 70D").
  if (m && mo.toLowerCase().startsWith(m.toLowerCase().split(' ')[0] ?? '')) return mo;
  return [m, mo].filter(Boolean).join(' ');
}

function position(tags: Record<string, unknown>): ExifFacts['gps'] {
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
