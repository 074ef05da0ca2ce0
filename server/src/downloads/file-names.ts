import { cutAtCodePoint, withoutLoneSurrogates } from '../ingest/whole-characters.js';

/** Longest name given to a download, in UTF-16 units: at most 600 bytes of UTF-8 (yazl allows 65,535). */
const MAX_NAME_UNITS = 200;

/**
 * A name safe as a ZIP entry and in a header, whatever was stored (rows may predate any cleaning).
 * yazl throws, failing the whole zip, on an entry name that is empty, starts with `/` or a drive
 * (`C:`) once `\` reads as `/`, has a `..` folder, ends in `/`, or passes 65,535 bytes
 * (validateMetadataPath and Entry in yazl/index.js). Here `/`, `\` and `:` become `_`, so a name is
 * one plain file: no folder, no root, no drive; leading dots go (no `..`, no hidden file); the rest
 * is cut to MAX_NAME_UNITS between characters; an empty result takes the fallback.
 * Every `:` goes, not only a drive's: Windows has none in file names (NTFS takes `a:b` for the
 * stream `b` of a file `a`), and `C_evil.png` still reads as what was uploaded, where dropping the
 * drive would make `C:evil.png` and `evil.png` look the same.
 */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = withoutLoneSurrogates(name)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\:]/g, '_')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  return cleaned.length > 0 ? cutAtCodePoint(cleaned, MAX_NAME_UNITS) : fallback;
}

/**
 * Makes each name unique in the archive, the way file managers do: `IMG_0001.jpg`,
 * `IMG_0001 (2).jpg`, … Compared case-insensitively, since most desktops' disks are.
 */
export class UniqueNames {
  private readonly taken = new Set<string>();
  /** For each name, the number to try next: 10,000 photos named alike must not cost 10,000² lookups. */
  private readonly nextNumber = new Map<string, number>();

  next(name: string): string {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    const key = name.toLowerCase();
    let candidate = name;
    let n = this.nextNumber.get(key) ?? 2;
    while (this.taken.has(candidate.toLowerCase())) candidate = `${stem} (${n++})${ext}`;
    this.nextNumber.set(key, n);
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/** `attachment` with the name twice: an ASCII fallback, and the exact name (RFC 6266 / 5987). */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `photos-2026-11-23.zip`. */
export function zipName(now: Date): string {
  return `photos-${now.toISOString().slice(0, 10)}.zip`;
}
