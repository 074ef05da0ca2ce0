/**
 * Bytes lent to one answer while it is being sent, then given back for the next one.
 *
 * Why: a gallery page is ~27 KB and a search answer up to ~300 KB of JSON, copied from kept pieces
 * (shared/json-bytes.ts). In a Buffer of its own, each answer is memory outside V8's heap, and V8
 * counts such memory allocated since its last full collection against the old generation's limit:
 * under issue 13's crowd (~40 MB of answers a second) that started a full collection every ~0.6 s,
 * and every turn of the event loop it ran through took 2–3 times as long (80–150 ms instead of
 * ~40), which was most of the soak's p99 (decision 0034). Lent bytes are allocated once and reused.
 *
 * When an answer's bytes can be reused: once its response has emitted 'finish', every byte has been
 * handed to the kernel, so neither Node's socket nor libuv points into them any more. Almost every
 * answer goes out in the same turn it was made (the socket takes it whole) and 'finish' follows on
 * the next tick, before the next request is read, so one or two scratches serve a whole crowd. An
 * answer to a client that reads slowly keeps its scratch until it is sent; one whose connection
 * closes first never gives it back (it is left to the collector: libuv may still hold a write).
 */
export class AnswerScratch {
  private readonly free: Buffer[] = [];

  constructor(
    /** Answers larger than this get bytes of their own (rare: a search is ~300 KB). */
    private readonly maxLentBytes = 1024 * 1024,
    /** Scratches kept for reuse at most; more are lent only while answers wait on slow clients. */
    private readonly maxFree = 4,
  ) {}

  /** `length` bytes to write an answer into, and how to give them back once it has been sent. */
  lend(length: number): { bytes: Buffer; giveBack: () => void } {
    if (length > this.maxLentBytes) return { bytes: Buffer.allocUnsafeSlow(length), giveBack: noop };
    let scratch = this.free.pop();
    if (scratch === undefined || scratch.length < length) scratch = Buffer.allocUnsafeSlow(scratchSizeFor(length, this.maxLentBytes));
    const lent = scratch;
    let given = false;
    return {
      bytes: lent,
      giveBack: () => {
        if (given) return;
        given = true;
        if (this.free.length < this.maxFree) this.free.push(lent);
      },
    };
  }

  /** Scratches waiting to be lent (for tests). */
  get freeCount(): number {
    return this.free.length;
  }
}

/** 64 KB, or the next power of two that holds `length`: few sizes, so a scratch fits most answers. */
function scratchSizeFor(length: number, max: number): number {
  let size = 64 * 1024;
  while (size < length) size *= 2;
  return Math.min(size, max);
}

function noop(): void {}
