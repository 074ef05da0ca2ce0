import { type AddressInfo, createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP relay between app processes and the real PostgreSQL that counts the round trips they make,
 * read off the wire protocol: nothing in the app is replaced or instrumented. A round trip is one
 * exchange the client must wait for: a simple query ('Q') or the end of an extended-protocol batch
 * ('S', Sync: node-postgres sends Parse/Bind/Describe/Execute/Sync for each parameterized query).
 * SSL is refused (the tests' server has none), so the stream stays readable.
 */
export interface RoundTripCounter {
  /** postgres://…: the given database's URL, pointing at the relay. */
  url: string;
  /** Round trips counted so far, over every connection through the relay. */
  count(): number;
  /** Statements parsed so far ('P' messages): a prepared statement is parsed once per connection. */
  parses(): number;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;

export async function countRoundTrips(databaseUrl: string): Promise<RoundTripCounter> {
  const target = new URL(databaseUrl);
  let total = 0;
  let parses = 0;
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const server = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    sockets.add(client).add(server);
    client.once('close', () => sockets.delete(client));
    server.once('close', () => sockets.delete(server));
    const reader = messageReader((type) => {
      if (type === 'Q' || type === 'S') total += 1;
      if (type === 'P') parses += 1;
    });
    client.on('data', (chunk: Buffer) => {
      // Before startup the client may ask for SSL: answer 'N' (no) ourselves and keep reading.
      if (reader.refuseSsl(chunk)) {
        client.write('N');
        return;
      }
      reader.feed(chunk);
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
    client.on('close', () => server.end());
    server.on('close', () => client.end());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((relay.address() as AddressInfo).port);
  return {
    url: url.toString(),
    count: () => total,
    parses: () => parses,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

/**
 * Splits one client's byte stream into protocol messages: first the startup packet (length, no
 * type byte), then messages of one type byte and a length that counts itself but not the type.
 */
function messageReader(onMessage: (type: string) => void) {
  let started = false;
  let pending: Buffer = Buffer.alloc(0);
  return {
    refuseSsl(chunk: Buffer): boolean {
      return !started && pending.length === 0 && chunk.length === 8 && chunk.readInt32BE(0) === 8 && chunk.readInt32BE(4) === SSL_REQUEST;
    },
    feed(chunk: Buffer): void {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          if (pending.length < 4) return;
          const length = pending.readInt32BE(0);
          if (pending.length < length) return;
          pending = pending.subarray(length);
          started = true;
          continue;
        }
        if (pending.length < 5) return;
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) return;
        onMessage(String.fromCharCode(pending[0] as number));
        pending = pending.subarray(1 + length);
      }
    },
  };
}
