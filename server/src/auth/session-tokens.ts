import { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Role } from '@photo/contract';

export interface SessionClaims {
  userId: number;
  role: Role;
  username: string;
  tokenVersion: number;
}

/** Signs and checks session JWTs (HS256). The payload carries `user.role` for the web app (spec §3). */
export class SessionTokens {
  /** Imported once: jose would otherwise import the raw key bytes again on every request. */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * Tokens already verified, with their expiry: a browser sends the same token with every call, and
   * its signature cannot change. Only the signature check is saved; the account is still checked
   * (token version) on every request by the caller.
   */
  private readonly verified = new Map<string, { claims: SessionClaims; expiresAt: number }>();

  constructor(
    secret: Uint8Array,
    private readonly ttl: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  async issue(claims: SessionClaims): Promise<string> {
    return new SignJWT({
      user: { id: String(claims.userId), role: claims.role, username: claims.username },
      ver: claims.tokenVersion,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(this.ttl)
      .sign(await this.key);
  }

  /** The claims of a valid, unexpired token, or null for anything else (forged, expired, malformed). */
  async verify(token: string): Promise<SessionClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > this.now()) return known.claims;
      this.verified.delete(token);
    }
    const claims = await this.check(token);
    if (claims) {
      if (this.verified.size >= 10_000) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, claims);
      return claims.claims;
    }
    return null;
  }

  private async check(token: string): Promise<{ claims: SessionClaims; expiresAt: number } | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'], currentDate: new Date(this.now()) });
      const userId = Number(payload.sub);
      const user = payload['user'] as { role?: unknown; username?: unknown } | undefined;
      const ver = payload['ver'];
      if (!Number.isSafeInteger(userId) || typeof ver !== 'number') return null;
      if (user?.role !== 'admin' && user?.role !== 'user') return null;
      if (typeof payload.exp !== 'number') return null;
      return {
        claims: { userId, role: user.role, username: String(user.username ?? ''), tokenVersion: ver },
        expiresAt: payload.exp * 1000,
      };
    } catch {
      return null;
    }
  }
}
