import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.js';

/**
 * The JWT signing secret: JWT_SECRET when set, else one generated on first start and kept in
 * DATA_DIR, so sessions survive restarts. Several app processes must share JWT_SECRET.
 */
export async function resolveJwtSecret(config: Config): Promise<Uint8Array> {
  if (config.jwt.secret) return new TextEncoder().encode(config.jwt.secret);
  const file = path.join(config.dataDir, 'jwt-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return new TextEncoder().encode(existing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  // 'wx' so two processes starting together never overwrite each other's secret.
  try {
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' });
    return new TextEncoder().encode(secret);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return new TextEncoder().encode((await readFile(file, 'utf8')).trim());
  }
}
