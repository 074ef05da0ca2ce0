import type { FastifyBaseLogger } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendToSelf } from './self-requests.js';

/** Loopback connections the warm-up sends on at once: a few, as a few people browsing would. */
const CONNECTIONS = 4;
/** However large the library or slow the machine, the server starts listening within this. */
const MAX_MS = 3_000;

export interface WarmRequestPaths {
  /** The server's own request handler (the HTTP server's 'request' listener); none: nothing is sent. */
  handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /** A session token of the person the requests are sent as, or undefined when there is nobody yet. */
  tokenOf: () => Promise<string | undefined>;
  /** Requests in all (WARM_UP_REQUESTS); 0 sends none. */
  requests: number;
  logger: FastifyBaseLogger;
}

/**
 * Before the server listens, it browses its own library for a moment as its first admin would:
 * gallery pages across the library, timeline months, photo details, searches and tag suggestions
 * for tags it met on the way — reads only, over real loopback sockets (self-requests.ts).
 *
 * Why: a server just started runs every request's code cold — interpreted, then compiled while
 * people wait — and fills what every viewer shares (the JSON pieces of each card, the whole
 * library's search lists and tag answers) on their first requests. Issue 13's soak, 200 people
 * arriving the moment the server answered its health check, was served a third as fast in its first
 * seconds as later. With ~1,000 requests sent first (~0.7 s on a 10,000-photo library on this 2-core
 * VM), the crowd found optimized code and warm shared caches (decision 0037). The server is not
 * listening meanwhile: a person arriving then waits for the connection rather than for answers.
 *
 * Bounded: at most MAX_MS, whatever the library. A failure is logged, never thrown: the server
 * then starts as it would have without it. Nothing is written: only GETs are sent.
 */
export async function warmRequestPaths({ handler, tokenOf, requests, logger }: WarmRequestPaths): Promise<void> {
  if (requests <= 0) return;
  const started = performance.now();
  try {
    if (!handler) {
      logger.warn('warming the request paths skipped: the HTTP server has no request handler to send to');
      return;
    }
    const token = await tokenOf();
    if (!token) return;
    const answered = await sendToSelf({
      handler,
      headers: `Authorization: Bearer ${token}\r\nAccept: application/json\r\n`,
      count: requests,
      until: started + MAX_MS,
      connections: CONNECTIONS,
      nextPath: browsing(),
    });
    logger.info({ requests: answered, ms: Math.round(performance.now() - started) }, 'request paths warmed');
  } catch (err) {
    logger.warn({ err }, 'warming the request paths failed; the first requests run them cold');
  }
}

/** What the warm-up asks for next: mostly gallery pages, and what a person does from them. */
function browsing(): (index: number, lastAnswer: Buffer) => string {
  let pages = 1;
  const ids: string[] = [];
  const tags: string[] = [];
  const months: string[] = [];
  const learn = (answer: Buffer) => {
    // Enough of an answer to find a few ids, tag names and months; the rest is not looked at.
    const text = answer.toString('utf8', 0, Math.min(answer.length, 8192));
    const total = /"totalImages":(\d+)/.exec(text);
    if (total) pages = Math.max(1, Math.ceil(Number(total[1]) / 50));
    for (const [, id] of text.matchAll(/"_id":"(\d+)"/g)) if (ids.length < 200) ids.push(id as string);
    for (const [, list] of text.matchAll(/"tags":\[("[^\]]*")\]/g)) {
      for (const tag of JSON.parse(`[${list}]`) as string[]) if (tags.length < 50 && !tags.includes(tag)) tags.push(tag);
    }
    for (const [, month] of text.matchAll(/"month":"(\d{4}-\d{2})"/g)) if (months.length < 100 && !months.includes(month as string)) months.push(month as string);
  };
  // Each kind of request comes every tenth: the tenth index steps through what was learnt.
  const pick = <T>(list: readonly T[], index: number): T | undefined => list[Math.floor(index / 10) % Math.max(list.length, 1)];
  return (index, lastAnswer) => {
    if (lastAnswer.length > 0) learn(lastAnswer);
    if (index === 0) return '/api/timeline';
    const id = pick(ids, index);
    const tag = pick(tags, index);
    const month = pick(months, index);
    switch (index % 10) {
      case 6:
        if (month) return `/api/timeline/${month}?page=1&limit=100`;
        break;
      case 7:
        if (id) return `/api/images/${id}`;
        break;
      case 8:
        if (tag) return `/search?query=${encodeURIComponent(tag)}`;
        break;
      case 9:
        if (tag) return `/api/search/suggestions?query=${encodeURIComponent(tag.slice(0, 2))}`;
        break;
    }
    // Pages spread over the library (a prime stride), 50 photos each.
    return `/api/gridimages?page=${1 + ((index * 37) % pages)}&limit=50`;
  };
}
