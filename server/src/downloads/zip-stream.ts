import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { OriginalFile } from './downloads.repository.js';
import { safeFileName, UniqueNames } from './file-names.js';
import { useNativeCrc32ForZips } from './native-crc32.js';

useNativeCrc32ForZips();

/** An original's bytes as this download sends them (location/without-location.ts), or null when missing. */
export type OpenOriginal = (file: OriginalFile) => Promise<Readable | null>;

export interface ZipStream {
  stream: Readable;
  /** Exact length of the archive (entries are stored, not compressed, with known sizes). */
  size: number | undefined;
  /** Stops reading (the client went away): closes the original being read, so no file stays open. */
  abort(): void;
}

/**
 * A ZIP of originals, built while it is sent: each entry's file is opened only when the archive
 * reaches it (one open stream at a time), entries are stored (photos do not compress) and yazl
 * switches to ZIP64 records when sizes or offsets pass 4 GB. Memory stays one chunk per stream.
 */
export async function zipOfOriginals(open: OpenOriginal, files: readonly OriginalFile[], mtime: Date): Promise<ZipStream> {
  const zip = new yazl.ZipFile();
  const stream = zip.outputStream as unknown as Readable;
  const names = new UniqueNames();
  let current: Readable | null = null;
  let aborted = false;
  // An entry can fail once the archive is under way: its original missing from storage, failing
  // while read, or not the size recorded. Its headers and exact Content-Length may be sent by then,
  // so no error answer is possible: the stream is destroyed with the error and the client sees the
  // download break off rather than hang. Before the headers, the error handler answers 500 and logs
  // it; after them Fastify closes the connection and reports it to LogController.streamError (which
  // app.ts's disableRequestLogging silences). Unheard, yazl's 'error' event and a read stream's
  // were thrown from a promise callback or a stream event: an unhandled error in the process.
  const fail = (error: Error) => {
    current?.destroy();
    stream.destroy(error);
  };
  zip.on('error', fail);
  // Fastify listens only once the route sends the stream; an error before that stays on the
  // stream, where Fastify finds it, instead of being thrown for want of a listener.
  stream.on('error', () => {});
  for (const file of files) {
    const name = names.next(safeFileName(file.file_name, `image-${file.id}`));
    zip.addReadStreamLazy(name, { compress: false, size: file.byte_size, mtime }, (done) => {
      open(file).then(
        (body) => {
          if (!body) return done(new Error(`The original of image ${file.id} is missing from storage.`), undefined as never);
          if (aborted) body.destroy();
          body.once('error', fail);
          current = body;
          done(null, body);
        },
        (err: unknown) => done(err as Error, undefined as never),
      );
    });
  }
  // yazl passes the total size to this callback (its typings omit the argument). ZIP64 end records
  // always: yazl's size estimate assumes them once the central directory passes 64 KB (~1,000
  // entries) while its writer adds them only past 4 GB, so the Content-Length would promise 76 bytes
  // the stream never sends; every current unzip tool reads ZIP64 end records.
  const end = zip.end.bind(zip) as unknown as (options: object, sized: (total: number) => void) => void;
  const size = await new Promise<number>((resolve) => end({ forceZip64Format: true }, resolve));
  const abort = () => {
    aborted = true;
    current?.destroy();
    stream.destroy();
  };
  return { stream, size: size >= 0 ? size : undefined, abort };
}
