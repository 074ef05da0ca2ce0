import type SQLite from 'better-sqlite3';

/** Where the watched tables stand at a moment (LocalChanges.now). */
export interface ChangeStamp {
  /** SQLite's `PRAGMA data_version`: moves when another connection commits a change to the file. */
  readonly data: number;
  /** Writes to each table through this connection (counted by TEMP triggers). */
  readonly users: number;
  readonly library_state: number;
}

/**
 * Tells, on SQLite, whether the tables a session check reads (auth/users.repository.ts) may have
 * changed since a moment: a stamp taken then is compared with one taken now. Changes made through
 * this connection are counted by TEMP triggers (they fire only on this connection's writes, whatever
 * code made them, in or out of a transaction; a write rolled back later is counted too); changes
 * committed by any other connection to the same file (another process, a script) move SQLite's
 * `PRAGMA data_version`, which this connection reads once per turn of the event loop.
 *
 * Why: every signed-in call checked its session with a statement reading the account and the
 * library version (decision 0011). On SQLite that statement cost ~26–38 µs inside the loaded server
 * (9 µs alone), ~15% of the server's time under a crowd browsing the gallery; a stamp costs a
 * pragma once per turn. PostgreSQL keeps the statement: the one round trip a cached read needs (decision 0035).
 */
export class LocalChanges {
  private users = 0;
  private libraryState = 0;
  private dataVersion: SQLite.Statement<[], number> | undefined;
  /** Told the name of every tag this connection writes (tag-prefixes.ts); at most a few, set at start. */
  private readonly tagListeners: ((name: string) => void)[] = [];

  constructor(private readonly sqlite: SQLite.Database) {}

  /** `data_version` as read in this turn of the event loop (undefined: not yet). */
  private dataVersionThisTurn: number | undefined;
  private readonly endTurn = () => {
    this.dataVersionThisTurn = undefined;
  };

  /**
   * `listener` is told the name of each tag this connection inserts, renames (both names), updates
   * or deletes, as the write is made (a TEMP trigger): also for writes rolled back later, so a
   * cache dropping what a name touches drops at least what changed. Other connections' writes are
   * not told: `now().data` moves for those.
   */
  onTagWritten(listener: (name: string) => void): void {
    this.tagListeners.push(listener);
  }

  now(): ChangeStamp {
    return { data: this.dataVersionNow(), users: this.users, library_state: this.libraryState };
  }

  /**
   * Read once per turn of the event loop: the pragma is a statement of its own (~15 µs under a
   * crowd, most of it SQLite taking and leaving its read lock), and a turn serves ~200 requests. So
   * another connection's commit counts from the next turn on (at most one turn, ~50–100 ms under a
   * crowd, later); this connection's own writes count at once (the triggers).
   */
  private dataVersionNow(): number {
    if (this.dataVersionThisTurn === undefined) {
      this.dataVersion ??= this.install();
      this.dataVersionThisTurn = this.dataVersion.get() as number;
      setImmediate(this.endTurn);
    }
    return this.dataVersionThisTurn;
  }

  /** On first use, after the migrations have made the tables. */
  private install(): SQLite.Statement<[], number> {
    const watched = { users: () => (this.users += 1), library_state: () => (this.libraryState += 1) };
    for (const [table, count] of Object.entries(watched)) {
      const note = `photo_${table}_changed`;
      this.sqlite.function(note, { deterministic: false }, () => {
        count();
        return null;
      });
      for (const event of ['insert', 'update', 'delete']) {
        this.sqlite.exec(`create temp trigger if not exists ${note}_on_${event} after ${event} on main.${table} begin select ${note}(); end`);
      }
    }
    this.sqlite.function('photo_tag_written', { deterministic: false }, (name: unknown) => {
      if (typeof name === 'string') for (const listener of this.tagListeners) listener(name);
      return null;
    });
    const written = { insert: ['new'], update: ['old', 'new'], delete: ['old'] };
    for (const [event, rows] of Object.entries(written)) {
      const calls = rows.map((row) => `select photo_tag_written(${row}.name);`).join(' ');
      this.sqlite.exec(`create temp trigger if not exists photo_tags_written_on_${event} after ${event} on main.tags begin ${calls} end`);
    }
    return this.sqlite.prepare<[], number>('pragma data_version').pluck();
  }
}
