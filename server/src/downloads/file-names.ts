/** A name safe inside a ZIP and in a header: no folders, no control characters, never empty. */
export function safeFileName(name: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').replace(/^\.+/, '').trim();
  return cleaned.length > 0 ? cleaned.slice(0, 200) : fallback;
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
