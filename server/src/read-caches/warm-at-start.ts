import type { FastifyBaseLogger } from 'fastify';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { prepareCardJson } from '../image-cards/card-json.js';
import type { ImageCards } from '../image-cards/image-cards.js';
import type { VisibleIds } from './visible-ids.js';

export interface WarmUp {
  /** Settles when the warm-up has finished, stopped or failed (it never rejects). */
  done: Promise<void>;
  /** Stops between two chunks and waits for it (the database is closed after). */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles when the read caches are warm (or the warm-up stopped): main.ts compacts the heap after it. */
    readCachesWarmed(): Promise<void>;
    /** Sends the server's own warm-up requests (warm-up/warm-request-paths.ts); main.ts awaits it before listening. */
    warmRequestPaths(): Promise<void>;
  }
}

/** Cards read per turn of the event loop: a few milliseconds of work, so requests are not kept waiting. */
const CHUNK = 250;

/**
 * After a start, the read caches are filled before anyone asks (decision 0030): the list of the
 * whole library (what admins and all-access recipients page through) and the cards of its newest
 * images, as many as the card cache keeps (image-cards/). Without it, the first seconds after a
 * restart are the slowest of all: every page a crowd opens reads its 50 cards with a query of its
 * own (issue 13's soak: 200 people, the first second answered a sixth of a later one's requests,
 * most of it reading cards). The cards' JSON pieces are made as they are read (card-json.ts
 * `prepareCardJson`), so a page built from them only copies. A chunk at a time, with a
 * turn of the event loop between: a request that comes in meanwhile is served between two chunks,
 * and reads the same cards through the same cache (what it finds kept, it does not read again).
 * Bounded by the card cache's capacity whatever the library's size; a failure is logged, not thrown.
 */
export function warmAtStart({ visibleIds, cards, logger }: { visibleIds: VisibleIds; cards: ImageCards; logger: FastifyBaseLogger }): WarmUp {
  let stopped = false;
  const run = async () => {
    const started = performance.now();
    const list = await visibleIds.wholeLibrary();
    const newest = Array.from(list.ids.subarray(0, Math.min(list.ids.length, cards.capacity)));
    await nextTurn();
    await cards.warm(
      newest,
      list.version,
      CHUNK,
      async () => {
        await nextTurn();
        return !stopped;
      },
      prepareCardJson,
    );
    logger.debug({ images: list.ids.length, cards: newest.length, ms: Math.round(performance.now() - started) }, 'read caches warmed');
  };
  const done = run().catch((err: unknown) => {
    if (!stopped) logger.warn({ err }, 'warming the read caches failed; they fill as pages are asked for');
  });
  return {
    done,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}
