import { vi } from 'vitest';

export type StubResponse = { status?: number; body?: unknown };
type Handler = StubResponse | ((request: { url: string; init: RequestInit | undefined }) => StubResponse);

/** Every page asks for these; tests that care override them. */
const DEFAULT_ROUTES: Record<string, Handler> = { 'GET /breadcrumbs': { body: {} } };

/**
 * Replaces `fetch` with answers keyed by "METHOD /path" (query string ignored). Anything not
 * listed answers 404 like a call that does not exist yet. Returns the mock to inspect calls.
 */
export function stubFetch(overrides: Record<string, Handler> = {}) {
  const routes = { ...DEFAULT_ROUTES, ...overrides };
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.split('?')[0] ?? url;
    const key = `${init?.method ?? 'GET'} ${path}`;
    const handler = routes[key];
    const answer = typeof handler === 'function' ? handler({ url, init }) : (handler ?? { status: 404, body: { message: `Not found: ${key}` } });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The Authorization header of the n-th fetch call. */
export function authorizationOf(mock: ReturnType<typeof stubFetch>, index = 0): string | null {
  const init = mock.mock.calls[index]?.[1];
  return new Headers(init?.headers).get('Authorization');
}

/** A token shaped like the server's: header.payload.signature, payload `{ user, exp }`. */
export function fakeToken(user: { id?: string; role?: 'admin' | 'user'; username?: string } = {}, exp?: number): string {
  const payload = {
    user: { id: user.id ?? 'u1', role: user.role ?? 'user', username: user.username ?? 'alice' },
    exp: exp ?? Math.floor(Date.now() / 1000) + 3600,
  };
  // base64url of the UTF-8 bytes, as a real JWT library writes it
  const encode = (value: object) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}
