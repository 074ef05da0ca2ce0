/**
 * When a photo sorts (decision 0009): every list is newest *taken* first. The key is an instant in
 * milliseconds since 1970 (UTC), from the first of:
 * 1. the EXIF date taken, at its recorded offset ('+09:00'); without one the wall-clock time is
 *    read as UTC (EXIF before 2.31 has no offset, and the server's own zone is no better a guess);
 * 2. the file's own date: its metadata's modification date, else the last-modified time the
 *    uploading client reported;
 * 3. the upload time — the date is then unknown, and the photo says so.
 * Ties (a burst within one millisecond, copies of one picture) are broken by image id.
 */
export interface DateFacts {
  /** EXIF date taken, wall-clock 'YYYY-MM-DDTHH:MM:SS'. */
  takenAt: string | null;
  takenOffset: string | null;
  /** The file's own date from its metadata, wall-clock like `takenAt`. */
  fileDate: string | null;
}

export interface UploadDates {
  /** ISO instant the client reported as the file's last modification, if it did. */
  fileModifiedAt: string | null;
  /** ISO instant of the upload. */
  createdAt: string;
}

export type DateSource = 'taken' | 'file' | 'upload';

export interface TakenKey {
  takenKey: number;
  dateSource: DateSource;
}

/** Dates outside this range are a wrong camera clock or a corrupt field, not a date taken. */
const EARLIEST = Date.UTC(1826, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

export function takenKeyOf(facts: DateFacts | undefined, upload: UploadDates): TakenKey {
  const taken = facts?.takenAt ? wallClock(facts.takenAt, facts.takenOffset) : undefined;
  if (taken !== undefined) return { takenKey: taken, dateSource: 'taken' };
  const file = (facts?.fileDate ? wallClock(facts.fileDate, null) : undefined) ?? instant(upload.fileModifiedAt);
  if (file !== undefined) return { takenKey: file, dateSource: 'file' };
  return { takenKey: instant(upload.createdAt) ?? 0, dateSource: 'upload' };
}

/** A wall-clock time at an offset ('+09:00', '-05:30'; none: UTC), or undefined when not a date. */
function wallClock(value: string, offset: string | null): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(value)) return undefined;
  const zone = offset && /^[+-](0\d|1[0-4]):[0-5]\d$/.test(offset) ? offset : 'Z';
  return inRange(Date.parse(`${value}${zone}`));
}

function instant(value: string | null): number | undefined {
  return value ? inRange(Date.parse(value)) : undefined;
}

function inRange(ms: number): number | undefined {
  return Number.isFinite(ms) && ms >= EARLIEST && ms < LATEST ? ms : undefined;
}

/** The ISO text of a key, as the API shows it (`sortedAt`). */
export function keyToIso(key: number): string {
  return new Date(key).toISOString();
}
