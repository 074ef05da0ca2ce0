import type { ImageInfo } from '@photo/contract';

/** 1.8, 14, 2.6 (of 2.638…): at most one decimal, none when whole. */
const oneDecimal = (value: number) => String(Number(value.toFixed(1)));

/** 'YYYY-MM-DDTHH:MM:SS' as the camera's clock showed it: formatted in UTC so the viewer's zone does not shift it. */
function wallClock(value: string): string {
  const date = new Date(value.endsWith('Z') ? value : `${value}Z`);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
}

/** The date line and a note on where it comes from. */
export function dateLines(info: ImageInfo): { date: string; note?: string } {
  if (info.dateSource === 'taken' && info.takenAt) {
    return { date: info.takenOffset ? `${wallClock(info.takenAt)} (UTC${info.takenOffset})` : wallClock(info.takenAt) };
  }
  if (info.dateSource === 'file') return { date: wallClock(info.sortedAt), note: "The file's date: no date taken was recorded." };
  return { date: 'Date unknown', note: 'Sorted by upload date' };
}

/** 1/250 s under a second, 2 s or 1.5 s above. */
export function shutter(seconds: number): string {
  if (seconds >= 1 || seconds <= 0) return `${oneDecimal(seconds)} s`;
  return `1/${Math.round(1 / seconds)} s`;
}

/** ƒ/1.8 · 1/250 s · ISO 100 · 4.2 mm — what was recorded of it, or null. */
export function exposureLine(info: ImageInfo): string | null {
  const parts = [
    info.aperture !== null ? `ƒ/${oneDecimal(info.aperture)}` : null,
    info.exposureTime !== null ? shutter(info.exposureTime) : null,
    info.iso !== null ? `ISO ${info.iso}` : null,
    info.focalLength !== null ? `${oneDecimal(info.focalLength)} mm` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** 4032 × 3024 (12.2 MP). */
export function pixelSize(width: number | null, height: number | null): string | null {
  if (!width || !height) return null;
  return `${width} × ${height} (${((width * height) / 1e6).toFixed(1)} MP)`;
}

/** 2.4 MB, 705 KB (decimal units, as file managers show them). */
export function fileSize(bytes: number): string {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}

export function coordinates({ latitude, longitude }: { latitude: number; longitude: number }): string {
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;
}

export function openStreetMapUrl({ latitude, longitude }: { latitude: number; longitude: number }): string {
  const lat = latitude.toFixed(5);
  const lon = longitude.toFixed(5);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
}
