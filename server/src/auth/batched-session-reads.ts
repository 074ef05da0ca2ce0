/** The most accounts one batched statement asks for; past it, the batch is sent and a new one begins. */
export const MAX_BATCH = 500;

/**
 * Session checks of one turn of the event loop, asked of PostgreSQL in one statement (`= any($1)`).
 *
 * Why: on PostgreSQL the session check is the one round trip a cached read makes (decision 0011).
 * Under the gallery bench's 32 connections, a third of the server's main thread went to `writev`:
 * each request's own query woke the connection's backend process, and each wake-up between
 * processes costs more on this VM than the query itself (decision 0042). The checks that arrive in
 * the same turn — the requests whose bytes the turn read — now share one query, one wake-up and one
 * snapshot; one request alone still makes exactly one round trip, sent at the end of its turn.
 *
 * Nothing is kept between turns: every check reads what is committed when its batch is sent, so a
 * token revoked or a version moved by any process is seen by every check sent after that commit.
 */
export class BatchedSessionReads<Row> {
  private pending: Map<number, { resolve: (row: Row | undefined) => void; reject: (error: unknown) => void }[]> | undefined;

  constructor(
    /** The rows of these accounts (any order; an account that is gone has none). */
    private readonly readMany: (ids: number[]) => Promise<Row[]>,
    private readonly idOf: (row: Row) => number,
  ) {}

  read(id: number): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      let batch = this.pending;
      if (!batch) {
        batch = this.pending = new Map();
        // After every request read in this turn has asked (check phase), not before the next one's bytes.
        setImmediate(() => this.send(batch as NonNullable<typeof batch>));
      }
      const waiting = batch.get(id);
      if (waiting) waiting.push({ resolve, reject });
      else batch.set(id, [{ resolve, reject }]);
      if (batch.size >= MAX_BATCH) this.send(batch);
    });
  }

  private send(batch: NonNullable<typeof this.pending>): void {
    if (this.pending === batch) this.pending = undefined;
    if (batch.size === 0) return;
    const ids = [...batch.keys()];
    const waiters = [...batch.values()];
    // Sent once: the setImmediate of a batch sent early (full) finds it empty.
    batch.clear();
    this.readMany(ids).then(
      (rows) => {
        const byId = new Map(rows.map((row) => [this.idOf(row), row]));
        ids.forEach((id, index) => {
          for (const waiter of waiters[index] ?? []) waiter.resolve(byId.get(id));
        });
      },
      (error: unknown) => {
        for (const list of waiters) for (const waiter of list) waiter.reject(error);
      },
    );
  }
}
