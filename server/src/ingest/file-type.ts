import { loadOnFirstUse } from '../shared/load-on-first-use.js';

/** The image formats we accept, by the MIME type their magic bytes reveal (never by file name). */
const accepted = new Map<string, 'sharp' | 'heic'>([
  ['image/jpeg', 'sharp'],
  ['image/png', 'sharp'],
  ['image/webp', 'sharp'],
  ['image/gif', 'sharp'],
  ['image/tiff', 'sharp'],
  ['image/avif', 'sharp'],
  ['image/heic', 'heic'],
  ['image/heif', 'heic'],
  ['image/heic-sequence', 'heic'],
  ['image/heif-sequence', 'heic'],
]);

export type Decoder = 'sharp' | 'heic';

/** The decoder for a stored media's MIME type (as sniffed when it was uploaded). */
export function decoderFor(mime: string): Decoder {
  return accepted.get(mime) ?? 'sharp';
}

export interface SniffedType {
  mime: string;
  decoder: Decoder;
}

/** Bytes of a file's start that are enough to recognise every accepted format. */
export const SNIFF_BYTES = 4100;

/**
 * What the first bytes of a file say it is. Returns the refusal reason instead when it is not an
 * image we can read.
 */
export async function sniffImageType(head: Buffer): Promise<SniffedType | { refused: string }> {
  if (head.length === 0) return { refused: 'The file is empty.' };
  // Loaded on the first upload rather than at start (about 10 MB resident: issue 14, idle memory).
  const { fileTypeFromBuffer } = loadOnFirstUse<typeof import('file-type')>('file-type');
  const detected = (await fileTypeFromBuffer(head)) ?? tiffByMagic(head);
  if (!detected) return { refused: 'This file is not an image we can read (unrecognised content).' };
  const decoder = accepted.get(detected.mime);
  if (!decoder) return { refused: `This file is not a supported image (its content is ${detected.mime}).` };
  return { mime: detected.mime, decoder };
}

/**
 * file-type reads a TIFF's first directory to tell it from camera raw formats; scanners often put
 * that directory at the end of the file, beyond the sniffed head. The TIFF signature is enough:
 * the decoder makes the final call.
 */
function tiffByMagic(head: Buffer): { mime: string } | undefined {
  const signature = head.subarray(0, 4).toString('hex');
  return signature === '49492a00' || signature === '4d4d002a' ? { mime: 'image/tiff' } : undefined;
}
