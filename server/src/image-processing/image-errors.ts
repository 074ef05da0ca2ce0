// Why a file cannot become an image, as the person who uploaded it is told: thrown by the probe in the
// server (probe.ts) and by the decoders in the decoder process (derive.ts), and carried across that
// process boundary by kind (decoder-process.ts).

/** A file that cannot become an image; `message` is shown to the person who uploaded it. */
export class UnreadableImageError extends Error {}

/** Thrown for images over the pixel limit; the reason names the limit so people know why. */
export class TooManyPixelsError extends UnreadableImageError {}

/** libvips' and the decoders' messages, made fit to show: their first line, without its prefix. */
export function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // libvips messages span lines and name internal functions; the first line is the useful part.
  return (text.split('\n')[0] ?? text).replace(/^Input (file|buffer) /, '').replace(/\.$/, '');
}
