import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * All-access link tokens. A token is HMAC-SHA256(server secret, per-record random salt), 256 bits,
 * base64url. The database keeps only the salt and SHA-256(token): a copied database alone cannot
 * be turned into working links. Switching the record off revokes its link; every later grant or
 * switch back on makes a new one (new salt), so a revoked link never works again (decision 0006).
 */
export class ShareLinks {
  constructor(private readonly secret: Uint8Array) {}

  newSalt(): string {
    return randomBytes(16).toString('base64url');
  }

  tokenFor(salt: string): string {
    return createHmac('sha256', this.secret).update(`share-all-link:${salt}`).digest('base64url');
  }

  static hash(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }
}

/** Where recipients open what was shared (DECISIONS §5). */
export const shareLinkUrls = {
  allAccess: (publicUrl: string, token: string) => `${publicUrl}/share-all/${token}`,
  restricted: (publicUrl: string) => `${publicUrl}/sharedMedia`,
};
