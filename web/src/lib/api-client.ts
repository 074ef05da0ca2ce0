import {
  buildPath,
  errorResponse,
  texts,
  type BodyInputOf,
  type CallDef,
  type ErrorResponse,
  type ParamsOf,
  type QueryInputOf,
  type ResponseOf,
} from '@photo/contract';
import { clearToken, getToken } from './auth-token';
import { assignLocation } from './browser';

/** Same origin: the server serves the web app and the API together (DECISIONS §2). */
const BASE_URL = '';

/** Spec §4: a 401/403 from these calls must not end the session. */
const SESSION_EXEMPT_URL_PARTS = ['sharedWithMe', 'breadcrumbs'];

/** A failed call: the HTTP status (0 when the server could not be reached) and the server's JSON. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly body: ErrorResponse | null,
    readonly url: string,
    /** From a 429/503's Retry-After: how long the server asked to wait before trying again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(body?.message ?? (status === 0 ? 'The server could not be reached.' : `Request failed with status ${status}`));
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Endpoints of later issues answer 404 today; screens treat that as "nothing here yet". */
export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** An aborted request (the screen went away) is neither a failure to report nor one to paper over. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The server's `msg` (spec §8 forgot/reset), if the error carries one. */
export function serverMsg(error: unknown): string | undefined {
  return isApiError(error) ? error.body?.msg : undefined;
}

/** The server's `message`, if the error carries one. */
export function serverMessage(error: unknown): string | undefined {
  return isApiError(error) ? error.body?.message : undefined;
}

let onSessionExpired: () => void = () => assignLocation('/signin');

/** The app replaces the full-page fallback with a router navigation once the router exists. */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

/** Any call of the contract; each use is narrowed by inference. */
type AnyCall = CallDef;

type BodyOption<C> = [BodyInputOf<C>] extends [undefined]
  ? { body?: FormData } // multipart calls (bulk upload, profile image) declare no JSON body
  : { body: BodyInputOf<C> };
type QueryOption<C> = [QueryInputOf<C>] extends [undefined] ? { query?: never } : { query?: QueryInputOf<C> };
type ParamsOption<C> = [ParamsOf<C>] extends [undefined] ? { params?: never } : { params: ParamsOf<C> };

export type CallOptions<C> = BodyOption<C> & QueryOption<C> & ParamsOption<C> & { signal?: AbortSignal };

/** The options argument may be left out when none of its keys is required. */
type OptionsArgs<O> = {} extends O ? [options?: O] : [options: O];

/** The call's URL: path parameters filled in, the query string added. */
export function buildUrl(call: AnyCall, params?: unknown, query?: unknown): string {
  const path = buildPath(call.path, params as Record<string, string | number> | undefined);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const queryString = search.toString();
  return `${BASE_URL}${path}${queryString ? `?${queryString}` : ''}`;
}

/** A response body as JSON: `{}` when empty, undefined when it is not JSON. */
export function parseJsonText(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function handleSessionExpiry(url: string, sentToken: string | null): void {
  if (SESSION_EXEMPT_URL_PARTS.some((part) => url.includes(part))) return;
  // Only a token we sent can have expired, and only the first of several failing calls acts.
  if (!sentToken || getToken() !== sentToken) return;
  clearToken();
  console.log(texts.SESSION_EXPIRED);
  onSessionExpired();
}

/**
 * Calls one API call of the contract: `callApi(calls.signin, { body: { email, password } })`.
 * Fills path parameters, adds the query string and the bearer token, sends JSON (or the given
 * FormData), and checks the answer against the call's response schema.
 */
export async function callApi<C extends AnyCall>(
  call: C,
  ...[options]: OptionsArgs<CallOptions<C>>
): Promise<ResponseOf<C>> {
  const opts = (options ?? {}) as { body?: unknown; query?: unknown; params?: unknown; signal?: AbortSignal };
  const url = buildUrl(call, opts.params, opts.query);
  const token = getToken();
  const headers = new Headers({ Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) {
    body = opts.body; // the browser sets the multipart boundary itself
  } else if (opts.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(opts.body);
  }

  let response: Response;
  try {
    response = await fetch(url, { method: call.method, headers, body, signal: opts.signal });
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError(0, null, url);
  }

  return settleAnswer(call, url, response.status, parseJsonText(await response.text()), token);
}

/**
 * The call's answer from a status and a JSON body, checked against the contract; or an ApiError,
 * after applying the session-expiry rule. Shared by `callApi` and the resumable upload (tus).
 */
export function settleAnswer<C extends AnyCall>(call: C, url: string, status: number, json: unknown, sentToken: string | null): ResponseOf<C> {
  if (status < 200 || status >= 300) {
    if (status === 401 || status === 403) handleSessionExpiry(url, sentToken);
    const parsed = errorResponse.safeParse(json);
    throw new ApiError(status, parsed.success ? parsed.data : null, url);
  }

  const parsed = call.response.safeParse(json);
  if (!parsed.success) {
    console.error(`Unexpected response from ${call.method} ${url}:`, parsed.error);
    throw new ApiError(status, { message: 'The server sent an unexpected answer.' }, url);
  }
  return parsed.data as ResponseOf<C>;
}
