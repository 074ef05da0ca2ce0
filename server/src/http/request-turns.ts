import type { FastifyInstance } from 'fastify';
import { keepOn, type Kept } from '../shared/kept-on.js';

/**
 * How long one turn of the event loop may spend starting requests while connections are waiting
 * to be taken.
 */
export const TURN_BUDGET_MS = 5;
/** Until the first turns are measured. */
const INITIAL_MS_PER_REQUEST = 0.25;

/**
 * Lets a person who connects while a crowd is being served in within about a second, instead of
 * after the crowd.
 *
 * libuv (1.45+, Node 20) takes one new connection per turn of the event loop, and in one turn
 * Node serves every request that has arrived on the open connections. Under a crowd a turn takes
 * 100–200 ms, so forty people connecting at once waited forty turns, up to 8–10 s in the soak,
 * in the kernel's accept queue, where nothing on the server saw them (issue 13).
 *
 * So while connections are being taken (one was in this turn or the last), a turn starts at most
 * TURN_BUDGET_MS of requests; the others wait for a later turn, in arrival order, and each turn
 * takes the next connection. The first request on a new connection has its own queue, served first
 * with at least a quarter of each turn's share kept for the others: it has waited in the accept
 * queue already, yet someone opening connection after connection cannot hold up the others. Once a
 * whole turn has passed without a new connection, the accept queue is empty, and the requests still
 * waiting all start. Without new connections, nothing changes: every request starts in the turn
 * that read it.
 */
export class RequestTurns {
  /** First requests on new connections, in arrival order. */
  private readonly newcomers: (() => void)[] = [];
  /** Every other waiting request, in arrival order. */
  private readonly waiting: (() => void)[] = [];
  private connectionsThisTurn = 0;
  private connectionsLastTurn = 0;
  /** Requests started in this turn, and when the last turn ended (performance.now(); -1: none watched). */
  private startedThisTurn = 0;
  private lastTurnEndedAt = -1;
  /**
   * What one request costs the loop, from the last turns: their length over the requests they
   * started. A request's own synchronous start is no measure: most of its work runs later in the
   * turn (its handler after awaits, writing the answer).
   */
  private msPerRequest = INITIAL_MS_PER_REQUEST;
  private endOfTurnScheduled = false;

  /** `budgetMs`: TURN_BUDGET_MS, smaller in tests to make every turn start one request. */
  constructor(private readonly budgetMs = TURN_BUDGET_MS) {}

  /** A connection was taken ('connection' on the HTTP server). */
  connectionTaken(): void {
    this.connectionsThisTurn += 1;
    this.scheduleEndOfTurn();
  }

  /** Starts a request now (`start()`), or in a later turn; `fresh`: the first on its connection. */
  enter(start: () => void, fresh = false): void {
    const nobodyWaits = this.waitingCount === 0;
    if (!this.takingConnections() && nobodyWaits) {
      start();
      return;
    }
    if (nobodyWaits && this.startedThisTurn < this.perTurn()) {
      this.startedThisTurn += 1;
      start();
      return;
    }
    (fresh ? this.newcomers : this.waiting).push(start);
    this.scheduleEndOfTurn();
  }

  /** Requests waiting for a later turn. */
  get waitingCount(): number {
    return this.newcomers.length + this.waiting.length;
  }

  private perTurn(): number {
    return Math.max(1, Math.floor(this.budgetMs / this.msPerRequest));
  }

  private takingConnections(): boolean {
    return this.connectionsThisTurn > 0 || this.connectionsLastTurn > 0;
  }

  // setImmediate runs in the check phase, after the poll phase that read this turn's requests and
  // took its connection; one scheduled from there runs at the end of the next turn.
  private scheduleEndOfTurn(): void {
    if (this.endOfTurnScheduled) return;
    this.endOfTurnScheduled = true;
    setImmediate(() => this.endOfTurn());
  }

  private endOfTurn(): void {
    this.endOfTurnScheduled = false;
    const now = performance.now();
    if (this.lastTurnEndedAt >= 0 && this.startedThisTurn > 0) {
      const measured = (now - this.lastTurnEndedAt) / this.startedThisTurn;
      this.msPerRequest = 0.7 * this.msPerRequest + 0.3 * measured;
    }
    const taking = this.takingConnections();
    this.connectionsLastTurn = this.connectionsThisTurn;
    this.connectionsThisTurn = 0;
    if (!taking) {
      // A whole turn without a new connection: nobody is left in the accept queue.
      this.startedThisTurn = 0;
      this.lastTurnEndedAt = -1;
      // Should one throw, the next turn starts the rest.
      if (this.waitingCount > 0) this.scheduleEndOfTurn();
      startFirst(this.newcomers, this.newcomers.length);
      startFirst(this.waiting, this.waiting.length);
      return;
    }
    // The next turn's share starts now: newcomers first, with at least a quarter of it kept for the
    // others, and at least one of each queue each turn, so that neither waits for ever.
    const share = Math.min(this.waitingCount, this.perTurn());
    const keptForOthers = Math.min(this.waiting.length, Math.max(1, Math.floor(share / 4)));
    const ofNewcomers = Math.min(this.newcomers.length, Math.max(1, share - keptForOthers));
    const ofOthers = Math.min(this.waiting.length, Math.max(keptForOthers, share - ofNewcomers));
    this.startedThisTurn = ofNewcomers + ofOthers;
    this.lastTurnEndedAt = now;
    this.scheduleEndOfTurn();
    startFirst(this.newcomers, ofNewcomers);
    startFirst(this.waiting, ofOthers);
  }
}

/**
 * Starts the first `count` requests of `queue`; if one throws, the rest stay queued for the next
 * turn (already scheduled).
 */
function startFirst(queue: (() => void)[], count: number): void {
  const batch = queue.splice(0, count);
  for (let i = 0; i < batch.length; i += 1) {
    try {
      (batch[i] as () => void)();
    } catch (error) {
      queue.unshift(...batch.slice(i + 1));
      throw error;
    }
  }
}

/** Marks a connection that has had a request (on the socket: shared/kept-on.ts says why not a WeakSet). */
const SERVED: unique symbol = Symbol('served a request');

/** Registers the turns as the first onRequest hook: call before any other hook. */
export function takeTurns(app: FastifyInstance): RequestTurns {
  const turns = new RequestTurns();
  app.server.on('connection', () => turns.connectionTaken());
  // Callback style: it runs on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    const socket = request.raw.socket;
    const fresh = (socket as Kept<typeof socket, typeof SERVED, true>)[SERVED] === undefined;
    if (fresh) keepOn(socket, SERVED, true);
    turns.enter(done, fresh);
  });
  return turns;
}
