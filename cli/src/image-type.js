// @ts-check

/** Bytes read from each file to tell an image from anything else. */
export const HEAD_BYTES = 64;

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);

/**
 * The image type the first bytes show (the formats the server reads: JPEG, PNG, GIF, WebP, TIFF,
 * HEIC/HEIF, AVIF), or undefined for anything else. Only a first sort: the server decides.
 * @param {Buffer} head
 * @returns {string | undefined} the MIME type
 */
export function imageTypeOf(head) {
  const ascii = (/** @type {number} */ start, /** @type {number} */ end) => head.subarray(start, end).toString('latin1');
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  const tiff = head.subarray(0, 4).toString('hex');
  if (tiff === '49492a00' || tiff === '4d4d002a') return 'image/tiff';
  if (ascii(4, 8) === 'ftyp') {
    const boxEnd = Math.min(head.length, head.readUInt32BE(0));
    const brands = [ascii(8, 12)];
    for (let at = 16; at + 4 <= boxEnd; at += 4) brands.push(ascii(at, at + 4));
    if (brands.some((b) => b === 'avif' || b === 'avis')) return 'image/avif';
    if (brands.some((b) => HEIF_BRANDS.has(b))) return brands[0] === 'mif1' || brands[0] === 'msf1' ? 'image/heif' : 'image/heic';
  }
  return undefined;
}
