import { z } from 'zod';

/** Spec §9: the session token lives in local storage under this key. */
export const TOKEN_STORAGE_KEY = 'token';

export function getToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    // Storage can be disabled (privacy mode); then nobody is signed in.
    return null;
  }
}

export function setToken(token: string): void {
  window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
}

export function clearToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

const tokenPayloadSchema = z.object({
  user: z.object({
    id: z.string(),
    role: z.enum(['admin', 'user']),
    username: z.string(),
  }),
  exp: z.number().optional(),
});
export type DecodedToken = z.infer<typeof tokenPayloadSchema>;

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Reads a JWT's payload without checking its signature: the browser only uses it to decide
 * what to show (spec §6). The server verifies the token on every call.
 */
export function decodeToken(token: string): DecodedToken | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const parsed = tokenPayloadSchema.safeParse(JSON.parse(base64UrlDecode(payload)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The stored token's payload, or null when there is none or it cannot be read. */
export function getTokenPayload(): DecodedToken | null {
  const token = getToken();
  return token ? decodeToken(token) : null;
}

/** True only when the token says it has expired; a token we cannot read is left to the server. */
export function isTokenExpired(token: string, now: number = Date.now()): boolean {
  const exp = decodeToken(token)?.exp;
  return exp !== undefined && exp * 1000 <= now;
}
