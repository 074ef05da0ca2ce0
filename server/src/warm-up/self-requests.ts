import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** The path of request `index`, from the answer this connection was sent last (empty at first). */
export type NextPath = (index: number, lastAnswer: Buffer) => string;

export interface SelfRequests {
  /** The server's own request handler (what its listener calls for every request). */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Header lines sent with every request, each ending in CRLF. */
  headers: string;
  /** Requests in all; fewer when `until` (performance.now()) passes first. */
  count: number;
  until: number;
  connections: number;
  nextPath: NextPath;
}

/**
 * Sends GETs through the server's own request handler over real loopback sockets — a listener of
 * its own on 127.0.0.1, closed after — `connections` at a time, each connection sending its next
 * request once the answer to the last is in. Real sockets, so the code that will serve people runs
 * with the very objects it will serve them with: V8 optimizes it for those. (Fastify's `inject`
 * sends made-up requests: tried, the crowd's steady state was then ~8% slower, its code optimized
 * for two kinds of request object.) Every answer must carry a Content-Length, as JSON answers do.
 * Resolves to the number of answers read; rejects when an answer is missing at `until`.
 */
export async function sendToSelf({ handler, headers, count, until, connections, nextPath }: SelfRequests): Promise<number> {
  const server = createServer({ keepAlive: true }, handler);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let sent = 0;
  let answered = 0;
  const connection = async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    try {
      let last: Buffer = Buffer.alloc(0);
      while (sent < count && performance.now() < until) {
        const index = sent;
        sent += 1;
        socket.write(`GET ${nextPath(index, last)} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
        last = await answerOn(socket, until);
        answered += 1;
      }
    } finally {
      socket.destroy();
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, connection));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return answered;
}

/**
 * The body of the next answer on the socket (which must carry a Content-Length). An answer still
 * missing at `until` fails, and the socket is closed: a request stuck on something slow must not
 * keep the server from listening.
 */
function answerOn(socket: Socket, until: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let read: Buffer = Buffer.alloc(0);
    const late = setTimeout(() => {
      finish(new Error('no answer before the warm-up’s deadline'));
      socket.destroy();
    }, Math.max(0, until - performance.now()));
    const onData = (chunk: Buffer) => {
      read = read.length === 0 ? chunk : Buffer.concat([read, chunk]);
      const headEnd = read.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = read.toString('latin1', 0, headEnd);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!length) return finish(new Error(`an answer without Content-Length: ${head.split('\r\n')[0] ?? ''}`));
      const end = headEnd + 4 + Number(length[1]);
      if (read.length >= end) finish(undefined, read.subarray(headEnd + 4, end));
    };
    const onClose = () => finish(new Error('the connection closed before the answer'));
    const finish = (error?: Error, body?: Buffer) => {
      clearTimeout(late);
      socket.off('data', onData).off('close', onClose).off('error', finish);
      if (error) reject(error);
      else resolve(body as Buffer);
    };
    socket.on('data', onData).on('close', onClose).on('error', finish);
  });
}
