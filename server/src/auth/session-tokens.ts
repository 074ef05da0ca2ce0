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
  constructor(
    private readonly secret: Uint8Array,
    private readonly ttl: string,
  ) {}

  issue(claims: SessionClaims): Promise<string> {
    return new SignJWT({
      user: { id: String(claims.userId), role: claims.role, username: claims.username },
      ver: claims.tokenVersion,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(this.ttl)
      .sign(this.secret);
  }

  /** The claims of a valid, unexpired token, or null for anything else (forged, expired, malformed). */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      const user = payload['user'] as { role?: unknown; username?: unknown } | undefined;
      const ver = payload['ver'];
      if (!Number.isSafeInteger(userId) || typeof ver !== 'number') return null;
      if (user?.role !== 'admin' && user?.role !== 'user') return null;
      return { userId, role: user.role, username: String(user.username ?? ''), tokenVersion: ver };
    } catch {
      return null;
    }
  }
}
