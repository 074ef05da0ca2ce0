import type { Config } from '../config/config.js';
import { LocalStorage } from './local-storage.js';
import type { MediaStorage } from './storage.js';
import type { UrlSigner } from './url-signer.js';

/**
 * The bucket when S3_BUCKET is set, otherwise files under DATA_DIR/media (DECISIONS §1). The AWS
 * SDK is loaded only when a bucket is configured: it costs ~27 MB of memory for nothing otherwise.
 * Either way the app streams objects to browsers, under URLs `signer` signs (profile pictures).
 */
export async function createStorage(config: Config, signer: UrlSigner): Promise<MediaStorage> {
  if (config.s3) {
    const { S3Storage } = await import('./s3-storage.js');
    return new S3Storage(config.s3, signer);
  }
  return new LocalStorage(config.mediaDir, signer);
}
