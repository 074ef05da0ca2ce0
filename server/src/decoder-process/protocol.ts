import type { ExifFacts } from '../image-processing/exif.js';
import type { ProbedImage } from '../image-processing/probe.js';
import type { Decoder, SniffedType } from '../ingest/file-type.js';

/**
 * What the server asks of the decoder process: what a file's first bytes say it is, what its header
 * says (its upright size and decode cost), what its camera recorded (from the file, or from its
 * first bytes: `exif-head`, answered as `exif`), one picture's derived images, or an avatar.
 */
export type DecodeRequest =
  | { id: number; kind: 'sniff'; head: Uint8Array }
  | { id: number; kind: 'probe'; file: string; decoder: Decoder }
  | { id: number; kind: 'exif'; file: string }
  | { id: number; kind: 'exif-head'; head: Uint8Array }
  | { id: number; kind: 'derive'; file: string; decoder: Decoder }
  | { id: number; kind: 'avatar'; file: string; decoder: Decoder; size: number };

export interface EncodedImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Its answer. `unreadable`: the file cannot become an image, and `message` says why to the person
 * who uploaded it (image-errors.ts's UnreadableImageError, kept across the process boundary).
 */
export type DecodeReply =
  | { id: number; ok: true; kind: 'sniff'; type: SniffedType | { refused: string } }
  | ({ id: number; ok: true; kind: 'probe' } & ProbedImage)
  | { id: number; ok: true; kind: 'exif'; facts: ExifFacts }
  | { id: number; ok: true; kind: 'derive'; display: EncodedImage; thumbnail: EncodedImage; placeholder: string }
  | { id: number; ok: true; kind: 'avatar'; data: Uint8Array }
  | { id: number; ok: false; unreadable: boolean; tooManyPixels: boolean; message: string };

/** Sent once, when the process has loaded and listens: a picture's time limit counts from here. */
export interface DecoderReady {
  ready: true;
}
