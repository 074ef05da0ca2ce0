import type { PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * Statements run on (nearly) every request, prepared once per PostgreSQL connection: the session
 * check reads the account and the library version in one statement before any cache answers
 * (decision 0011), so it is all the database work a cached read does. Sent unnamed, as Kysely
 * sends every statement, PostgreSQL parsed and planned it again each time. Named, each connection
 * parses it once and, after a few runs, keeps a generic plan; only its values travel after that,
 * in the same one round trip (decision 0041).
 *
 * Only statements whose text is fixed are named here (their values are parameters): a text made
 * per call (an IN list of some length) would leave a prepared statement behind for every length.
 */
const names = new Map<string, string>();

/** Runs `sql` as the prepared statement `name` on every connection from now on. */
export function prepareOnEachConnection(sql: string, name: string): void {
  names.set(sql, name);
}

/** The pool Kysely is given: its connections run the named statements prepared (pg keeps them per connection). */
export function namingPool(pool: PostgresPool): PostgresPool {
  // One wrapper per pg connection, so Kysely (which keeps its own state per client object) sees the same one each time.
  const wrappers = new WeakMap<PostgresPoolClient, PostgresPoolClient>();
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = namingClient(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}

type AnyQuery = (...args: unknown[]) => unknown;

function namingClient(client: PostgresPoolClient): PostgresPoolClient {
  // Looked up on each call: pg-pool gives the client a new `release` at every checkout.
  const target = client as unknown as { query: AnyQuery; release: (...args: unknown[]) => void };
  return {
    query: ((sqlOrCursor: unknown, parameters?: readonly unknown[]) => {
      const name = typeof sqlOrCursor === 'string' ? names.get(sqlOrCursor) : undefined;
      return name === undefined ? target.query(sqlOrCursor, parameters) : target.query({ name, text: sqlOrCursor, values: parameters });
    }) as PostgresPoolClient['query'],
    release: (...args: unknown[]) => target.release(...args),
  };
}
