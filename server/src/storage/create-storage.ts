import type { Config } from '../config/config.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { MediaStorage } from './storage.js';
import type { UrlSigner } from './url-signer.js';

/** The bucket when S3_BUCKET is set, otherwise files under DATA_DIR/media (DECISIONS §1). */
export function createStorage(config: Config, signer: UrlSigner): MediaStorage {
  if (config.s3) return new S3Storage(config.s3);
  return new LocalStorage(config.mediaDir, signer);
}
