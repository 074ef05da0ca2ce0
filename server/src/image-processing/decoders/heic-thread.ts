import { parentPort } from 'node:worker_threads';
import { lowerThisThread } from '../background-priority.js';
import { decodeHeic, HeicError } from './heic.js';

// Decoding yields to the threads that answer people (processing/background-priority.ts).
lowerThisThread();

/**
 * Worker-thread entry: decodes one HEIC at a time for `heic-threads.ts`. The WASM decoder is
 * synchronous and takes a second or two per photo; here it cannot stall the server's event loop.
 */
parentPort?.on('message', (message: { id: number; file: Uint8Array }) => {
  decodeHeic(Buffer.from(message.file.buffer, message.file.byteOffset, message.file.byteLength)).then(
    (decoded) => {
      // Transfer, not copy, the pixels; a view into a shared buffer is copied once to be transferable.
      const whole = decoded.data.byteOffset === 0 && decoded.data.byteLength === decoded.data.buffer.byteLength;
      const pixels = whole ? decoded.data : Buffer.from(decoded.data);
      parentPort?.postMessage(
        { id: message.id, ok: true, data: pixels, width: decoded.width, height: decoded.height, channels: decoded.channels },
        [pixels.buffer as ArrayBuffer],
      );
    },
    (error: unknown) => {
      parentPort?.postMessage({
        id: message.id,
        ok: false,
        heic: error instanceof HeicError,
        message: error instanceof Error ? error.message : String(error),
      });
    },
  );
});
