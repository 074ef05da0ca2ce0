import { deriveAvatar, deriveImages } from '../image-processing/derive.js';
import { readExif, readExifFromBytes } from '../image-processing/exif.js';
import { probeImage } from '../image-processing/probe.js';
import { sniffImageType } from '../ingest/file-type.js';
import { TooManyPixelsError, UnreadableImageError } from '../image-processing/image-errors.js';
import { lowerWholeProcess } from '../image-processing/background-priority.js';
import { loadSharp } from '../image-processing/sharp-loader.js';
import type { DecodeReply, DecodeRequest, DecoderReady } from './protocol.js';

/**
 * The decoder process's entry (decoder-process.ts). Everything that holds pixels — libvips, the HEIC
 * decoder's WebAssembly, libaom for AVIF — runs here, so the server never holds them, and all of it
 * goes back to the system when this process ends. Telling a file's type, reading its header and its
 * EXIF run here too: the server then never loads file-type, sharp or exifr (~47 MB resident once
 * loaded, and 200–400 ms of event-loop turns on the first upload after a start, which a crowd of
 * people browsing waits on; decision 0031). The whole process runs at a background priority:
 * a person browsing is served first.
 */
lowerWholeProcess();

// The server went away (stopped, or killed with SIGKILL): nobody is left to answer to, and this
// process writes nothing, so it ends at once. Not process.exit(): that waits for the decodes under
// way in libvips to finish (measured ~1 s with AVIFs queued), holding their memory meanwhile.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));

// A send that fails finds the server gone; 'disconnect' above ends this process.
const send = (reply: DecodeReply | DecoderReady) => process.send?.(reply, undefined, {}, () => undefined);

process.on('message', (request: DecodeRequest) => {
  void answer(request).then(sendAndFree, (error: unknown) =>
    send({
      id: request.id,
      ok: false,
      unreadable: error instanceof UnreadableImageError,
      tooManyPixels: error instanceof TooManyPixelsError,
      message: error instanceof Error ? error.message : String(error),
    }),
  );
});

/**
 * A derive leaves its display-size pixels (~8 MB for 1920×1440, derive.ts) in a Buffer that only a
 * collection frees; V8 would wait until tens of MB of them pile up (the 1 GB upload: decoder peak
 * 150 → 194 MB). They are young, so a minor collection right after the answer frees them: ~1 ms
 * on this process's small heap. (`gc` with options collects nothing on Node 20 unless asynchronous.)
 */
function sendAndFree(reply: DecodeReply): void {
  send(reply);
  if (reply.ok && reply.kind === 'derive') globalThis.gc?.({ type: 'minor', execution: 'async' });
}

// libvips loaded before saying so: a picture's time limit then counts its own decode only.
await loadSharp();
send({ ready: true });

async function answer(request: DecodeRequest): Promise<DecodeReply> {
  if (request.kind === 'sniff') {
    const head = Buffer.from(request.head.buffer, request.head.byteOffset, request.head.byteLength);
    return { id: request.id, ok: true, kind: 'sniff', type: await sniffImageType(head) };
  }
  if (request.kind === 'probe') return { id: request.id, ok: true, kind: 'probe', ...(await probeImage(request.file, request.decoder)) };
  if (request.kind === 'exif') return { id: request.id, ok: true, kind: 'exif', facts: await readExif(request.file) };
  if (request.kind === 'exif-head') {
    const head = Buffer.from(request.head.buffer, request.head.byteOffset, request.head.byteLength);
    return { id: request.id, ok: true, kind: 'exif', facts: await readExifFromBytes(head) };
  }
  if (request.kind === 'avatar') {
    const data = await deriveAvatar(request.file, request.decoder, request.size);
    return { id: request.id, ok: true, kind: 'avatar', data };
  }
  const derived = await deriveImages(request.file, request.decoder);
  return { id: request.id, ok: true, kind: 'derive', ...derived };
}
