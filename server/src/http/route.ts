import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { BodyOf, CallDef, ParamsOf, QueryOf, ResponseOf } from '@photo/contract';
import { errorResponse } from '@photo/contract';
import type { AuthUser } from '../auth/auth-user.js';
import type { JsonBytes } from '../shared/json-bytes.js';
import { AnswerScratch } from './answer-scratch.js';
import { notFound, unauthorized } from './errors.js';
import { prefersHtml } from './web-app.js';
import { refuseFlawedText } from './text-input.js';

/** Turns a bearer token into the person behind it; provided by the auth domain. */
export type Authenticate = (token: string) => Promise<AuthUser | null>;

type UserFor<C extends CallDef> = C['access'] extends 'public' ? AuthUser | null : AuthUser;

export interface CallContext<C extends CallDef> {
  body: BodyOf<C>;
  query: QueryOf<C>;
  params: ParamsOf<C>;
  user: UserFor<C>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A response already serialized (and checked against the call's schema when it was made): text, or
 * the UTF-8 pieces of an answer of many images (copied into bytes lent for the send: answer-scratch.ts).
 */
export class PreSerialized {
  constructor(readonly json: string | JsonBytes) {}
}

/** One per process: answers made in one turn take turns with the same few scratches. */
const answerScratch = new AnswerScratch();

export interface RouteOptions {
  /** Also a screen (DECISIONS §2): a browser navigation without a token gets the web app. */
  alsoWebScreen?: boolean;
  successStatus?: number;
}

/**
 * Registers one contract call. This is the single place where "who may make this call"
 * (the call's `access`) is enforced, before any handler runs; handlers only see validated input.
 */
export function registerCall<C extends CallDef>(
  app: FastifyInstance,
  authenticate: Authenticate,
  call: C,
  handler: (ctx: CallContext<C>) => Promise<ResponseOf<C> | PreSerialized>,
  options: RouteOptions = {},
): void {
  const status = options.successStatus ?? 200;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: {
      summary: call.summary,
      tags: [call.tag],
      ...(call.access === 'public' ? {} : { security: [{ bearerAuth: [] }] }),
      ...(call.body ? { body: call.body } : {}),
      ...(call.query ? { querystring: call.query } : {}),
      ...(call.params ? { params: call.params } : {}),
      response: { [status]: call.response, '4xx': errorResponse, '5xx': errorResponse },
    },
    onRequest: async (request, reply) => {
      if (options.alsoWebScreen && !request.headers.authorization && prefersHtml(request)) {
        return reply.sendWebApp();
      }
      request.user = await identify(request, authenticate);
      if (call.access === 'public') return;
      if (!request.user) throw unauthorized(request.headers.authorization ? 'Your session has expired. Please sign in again.' : undefined);
      // Admin-only calls look absent to everyone else (DECISIONS §3: 404, so nothing can be probed).
      if (call.access === 'admin' && request.user.role !== 'admin') throw notFound();
    },
    handler: async (request, reply) => {
      refuseFlawedText(request);
      const result = await handler({
        body: request.body as BodyOf<C>,
        query: request.query as QueryOf<C>,
        params: request.params as ParamsOf<C>,
        user: request.user as UserFor<C>,
        request,
        reply,
      });
      if (result instanceof PreSerialized) {
        reply.code(status).type('application/json; charset=utf-8');
        if (typeof result.json === 'string') return reply.send(result.json);
        const kept = result.json.onlyPiece;
        if (kept) return reply.send(kept);
        const lent = answerScratch.lend(result.json.byteLength);
        // Given back only once every byte is with the kernel ('finish'), never on 'close' alone.
        reply.raw.once('finish', lent.giveBack);
        return reply.send(result.json.copyInto(lent.bytes));
      }
      return reply.code(status).send(result);
    },
  });
}

async function identify(request: FastifyRequest, authenticate: Authenticate): Promise<AuthUser | null> {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) return null;
  return authenticate(match[1]);
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}
