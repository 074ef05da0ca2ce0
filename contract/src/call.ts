import { z } from 'zod';

/** Who may make a call. The server enforces it; the web app only uses it to decide what to show. */
export type CallAccess = 'public' | 'user' | 'admin';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One call of the public API (spec §7): method, path and the shapes on the wire.
 * The server registers routes from these, the web client calls through them, and the
 * OpenAPI document is generated from them — so the three can never disagree.
 */
export interface CallDef<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Fastify-style path: `/images/:id/like`. */
  path: string;
  summary: string;
  tag: string;
  access: CallAccess;
  body?: Body;
  query?: Query;
  params?: Params;
  /** Multipart calls declare their fields in prose: the body is a stream, not JSON. */
  multipart?: { fields: string; };
  response: Response;
}

export function defineCall<
  Body extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Params extends z.ZodType | undefined = undefined,
  Response extends z.ZodType = z.ZodType,
>(def: CallDef<Body, Query, Params, Response>): CallDef<Body, Query, Params, Response> {
  return def;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type Input<T> = T extends z.ZodType ? z.input<T> : undefined;

export type BodyOf<C> = C extends CallDef<infer B, z.ZodType | undefined, z.ZodType | undefined, z.ZodType> ? Infer<B> : never;
export type BodyInputOf<C> = C extends CallDef<infer B, z.ZodType | undefined, z.ZodType | undefined, z.ZodType> ? Input<B> : never;
export type QueryOf<C> = C extends CallDef<z.ZodType | undefined, infer Q, z.ZodType | undefined, z.ZodType> ? Infer<Q> : never;
export type QueryInputOf<C> = C extends CallDef<z.ZodType | undefined, infer Q, z.ZodType | undefined, z.ZodType> ? Input<Q> : never;
export type ParamsOf<C> = C extends CallDef<z.ZodType | undefined, z.ZodType | undefined, infer P, z.ZodType> ? Infer<P> : never;
export type ResponseOf<C> = C extends CallDef<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, infer R> ? z.infer<R> : never;

/** Fills `:name` segments of a call's path, encoding each value. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
