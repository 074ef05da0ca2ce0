// Why a file cannot become an image, as the person who uploaded it is told: thrown by the probe in the
// server (probe.ts) and by the decoders in the decoder process (derive.ts), and carried across that
// process boundary by kind (decoder-process.ts).

/** A file that cannot become an image; `message` is shown to the person who uploaded it. */
export class UnreadableImageError extends Error {}

/** Thrown for images over the pixel limit; the reason names the limit so people know why. */
export class TooManyPixelsError extends UnreadableImageError {}

/**
 * libvips' and the decoders' messages, made fit to show: their first line, in plain words where
 * they are known, else without the names of libvips' own loaders ("VipsJpeg:", "gifload:").
 */
export function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // libvips messages span lines and name internal functions; the first line is the useful part.
  const first = (text.split('\n')[0] ?? text).replace(/\.$/, '');
  if (/premature end|unexpected end|truncated/i.test(first)) return 'the file is cut off (it ends before the picture does)';
  if (/unsupported image format/i.test(first)) return 'it is not a picture in a format this library reads';
  return first
    .replace(/^Input (file|buffer) /, '')
    .replace(/\b(Vips\w+|\w+load): /g, '')
    .replace(/^has corrupt header: /, 'its header is damaged: ');
}
