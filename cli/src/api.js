// @ts-check

/**
 * @typedef {object} Outcome
 * @property {string} fileName
 * @property {'kept' | 'duplicate' | 'refused'} status
 * @property {string} [reason]
 * @property {string} [imageId]
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {Headers} [headers]
   */
  constructor(status, message, headers) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/** The few calls of the Photo Library API the importer makes (the JSON side; files go over tus). */
export class Api {
  /**
   * @param {string} server
   * @param {string} [token]
   */
  constructor(server, token) {
    this.server = server;
    this.token = token;
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<any>}
   */
  async call(method, path, body) {
    /** @type {Record<string, string>} */
    const headers = { accept: 'application/json' };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await fetch(`${this.server}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch (error) {
      throw new ApiError(0, `Cannot reach ${this.server}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
    }
    const text = await response.text();
    let json;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = {};
    }
    if (!response.ok) throw new ApiError(response.status, json.message ?? `${method} ${path} answered ${response.status}`, response.headers);
    return json;
  }

  /**
   * POST /signin; remembers the token.
   * @param {string} email
   * @param {string} password
   */
  async signIn(email, password) {
    const { token } = await this.call('POST', '/signin', { email, password });
    this.token = token;
    return /** @type {string} */ (token);
  }

  /**
   * Which of these contents the account already has (POST /api/uploads/check, 1,000 at a time).
   * @param {{ sha256: string, size: number }[]} files
   * @returns {Promise<Map<string, string>>} image id by SHA-256
   */
  async known(files) {
    /** @type {Map<string, string>} */
    const known = new Map();
    for (let start = 0; start < files.length; start += 1000) {
      const batch = files.slice(start, start + 1000);
      const answer = await this.call('POST', '/api/uploads/check', { files: batch });
      for (const { sha256, imageId } of answer.known) known.set(sha256, imageId);
    }
    return known;
  }

  /**
   * The outcome of a finished upload, waiting while the server processes it.
   * @param {string} uploadUrl
   * @param {AbortSignal} signal
   * @returns {Promise<Outcome>}
   */
  async outcome(uploadUrl, signal) {
    const id = new URL(uploadUrl).pathname.split('/').pop();
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.call('GET', `/api/uploads/${id}/outcome`);
      } catch (error) {
        const retryAfter = error instanceof ApiError ? Number(error.headers?.get('retry-after') ?? NaN) : NaN;
        // 409 with Retry-After: being processed. Anything else but a network hiccup is final.
        const waiting = error instanceof ApiError && ((error.status === 409 && retryAfter > 0) || error.status === 0 || error.status >= 500);
        if (!waiting || attempt >= 300) throw error;
        await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 2000, signal);
      }
    }
  }
}

/** The account id in a session token (its payload: `{ user: { id } }`), which names the state file. */
/** @param {string} token */
export function accountOf(token) {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return String(payload?.user?.id ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/**
 * @param {number} ms
 * @param {AbortSignal} signal
 */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
