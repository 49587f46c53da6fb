import type { Config } from '../config.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { FileStorage } from './storage.ts';

/** The storage the configuration asks for (STORAGE=local|s3). */
export function createStorage(config: Config['storage']): FileStorage {
  if (config.kind === 'local') return createLocalStorage(config.dir);
  return createS3Storage({
    bucket: config.bucket,
    endpoint: config.endpoint,
    region: config.region,
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    forcePathStyle: config.forcePathStyle,
  });
}
