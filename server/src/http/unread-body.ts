import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How much of an unwanted body is read and thrown away after (or before) the answer, at most. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
export const DRAIN_MAX_MS = 10_000;

/**
 * An answer sent before the request body was read — a 413 for a body over the limit, a 401, an
 * upload refused (429, 503) or stopped — must still reach the client. Closing a socket that has
 * unread bytes makes the kernel send a reset, which can destroy the answer before the client reads
 * it (the client sees "connection reset" instead of the 413). So the rest of the body is read and
 * discarded, at most DRAIN_MAX_BYTES within DRAIN_MAX_MS:
 * - on a keep-alive connection the answer goes out at once (the connection stays open instead of
 *   closing) and the body is drained behind it; past either bound the connection is closed;
 * - when the client asked to close, the body is drained first and then answered, so the close
 *   finds nothing unread.
 */
export function drainUnreadBodies(app: FastifyInstance): void {
  const draining = new Set<Socket>();
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of draining) socket.destroy();
  });
  // Callback style: this runs on every answer, and almost every body has been read by then.
  app.addHook('onSend', (request, reply, payload, done) => {
    const req = request.raw;
    if (req.complete || !hasBody(req) || req.destroyed || closing) return done(null, payload);
    const socket = req.socket;
    draining.add(socket);
    const drained = drain(req).finally(() => draining.delete(socket));
    if (!reply.raw.shouldKeepAlive) {
      void drained.then(() => done(null, payload));
      return;
    }
    // Fastify asks to close after a body error; with the body drained the connection stays sound.
    if (String(reply.getHeader('connection') ?? '').toLowerCase() === 'close') reply.removeHeader('connection');
    void drained.then((complete) => {
      if (!complete) socket.destroy();
    });
    done(null, payload);
  });
}

/** Reads and drops the rest of `req`; true once it ended, false when a bound or the socket stopped it first. */
function drain(req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (complete: boolean) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.socket.off('close', onClose);
      resolve(complete);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), DRAIN_MAX_MS);
    timer.unref();
    // Whatever was still reading the body (a multipart parser that gave up) lets go of it first.
    req.unpipe();
    req.removeAllListeners('data');
    req.on('data', onData);
    req.on('end', onEnd);
    req.socket.on('close', onClose);
    req.resume();
  });
}

/** A request without a body may not be `complete` yet when it is answered synchronously (a 404): nothing to drain. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
