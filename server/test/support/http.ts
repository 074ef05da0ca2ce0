export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A tiny JSON client over real HTTP (fetch), as a browser or script would call the API. */
export function apiClient(baseUrl: string, defaultHeaders: Record<string, string> = {}) {
  async function request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...defaultHeaders, ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(new URL(path, baseUrl), { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return { status: response.status, headers: response.headers, body: (type.includes('json') ? JSON.parse(text) : text) as T };
  }
  return {
    request,
    get: <T = Record<string, unknown>>(path: string, token?: string) => request<T>('GET', path, token ? { token } : {}),
    post: <T = Record<string, unknown>>(path: string, body: unknown, token?: string) =>
      request<T>('POST', path, token ? { body, token } : { body }),
    put: <T = Record<string, unknown>>(path: string, body: unknown, token?: string) =>
      request<T>('PUT', path, token ? { body, token } : { body }),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

let counter = 0;
/** A unique person for one test, so tests on a shared server never collide. */
export function newPerson(prefix = 'user') {
  counter += 1;
  const id = `${prefix}${counter}${Math.random().toString(36).slice(2, 8)}`;
  return { username: `${prefix} ${counter}`, email: `${id}@example.com`, password: `pw-${id}` };
}

let ipCounter = 0;
/** A distinct client address per test (the server trusts X-Forwarded-For in tests), so per-IP limits do not leak between tests. */
export function nextClientIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}
