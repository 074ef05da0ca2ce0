/** Files up to this size are hashed in one go by the browser's own SHA-256 (fast, off the main thread). */
export const WHOLE_FILE_LIMIT = 64 * 1024 * 1024;
/** Larger files are read and hashed this much at a time, so memory never holds more. */
export const SLICE_BYTES = 4 * 1024 * 1024;

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * The SHA-256 of a file's content, in hex: what the server calls the content (it dedupes by it).
 * Web Crypto cannot hash a stream, so a larger file (or any file on a page that is not a secure
 * context, where Web Crypto is missing) goes through an incremental hasher in slices.
 */
export async function sha256Of(file: Blob, signal?: AbortSignal): Promise<string> {
  const subtle = globalThis.crypto?.subtle as SubtleCrypto | undefined;
  if (subtle && file.size <= WHOLE_FILE_LIMIT) {
    return hex(new Uint8Array(await subtle.digest('SHA-256', new Uint8Array(await file.arrayBuffer()))));
  }
  // Pure JavaScript (the page's Content-Security-Policy allows no WebAssembly); loaded only when needed.
  const { sha256 } = await import('@noble/hashes/sha2.js');
  const hash = sha256.create();
  for (let start = 0; start < file.size; start += SLICE_BYTES) {
    signal?.throwIfAborted();
    hash.update(new Uint8Array(await file.slice(start, start + SLICE_BYTES).arrayBuffer()));
  }
  return hex(hash.digest());
}
