import net from 'node:net';

export interface PipelinedRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  token?: string;
}

/**
 * Sends every request on one connection in a single write (HTTP/1.1 pipelining) and answers their
 * statuses and JSON bodies in order. Node reads them all in one turn of the event loop, so the
 * server starts their handlers together and they interleave at every await, as requests do on a
 * busy server (request-turns.ts starts waiting requests together too). Requests sent one per
 * connection from this process are each handled to the end before the next is read: on SQLite,
 * whose queries never leave the turn, they could not race at all.
 */
export async function pipelined(baseUrl: string, requests: readonly PipelinedRequest[]): Promise<{ status: number; body: unknown }[]> {
  const url = new URL(baseUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  const text = requests
    .map(({ method, path, body, token }) => {
      const json = body === undefined ? '' : JSON.stringify(body);
      const headers = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        'Accept: application/json',
        ...(token ? [`Authorization: Bearer ${token}`] : []),
        ...(body === undefined ? [] : ['Content-Type: application/json']),
        `Content-Length: ${Buffer.byteLength(json)}`,
      ];
      return `${headers.join('\r\n')}\r\n\r\n${json}`;
    })
    .join('');
  const answers: { status: number; body: unknown }[] = [];
  await new Promise<void>((resolve, reject) => {
    let received = Buffer.alloc(0);
    socket.once('connect', () => socket.write(text));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd < 0) break;
        const head = received.subarray(0, headEnd).toString('latin1');
        const length = Number(/^content-length: *(\d+)/im.exec(head)?.[1] ?? Number.NaN);
        if (!Number.isFinite(length)) return reject(new Error(`an answer without a Content-Length: ${head}`));
        if (received.length < headEnd + 4 + length) break;
        const body = received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
        answers.push({ status: Number(head.split(' ')[1]), body: body ? (JSON.parse(body) as unknown) : undefined });
        received = received.subarray(headEnd + 4 + length);
      }
      if (answers.length === requests.length) {
        socket.end();
        resolve();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => (answers.length < requests.length ? reject(new Error(`connection closed after ${answers.length} answers`)) : resolve()));
  });
  return answers;
}
