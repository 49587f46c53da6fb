import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { DeadlineRetryStrategy } from './deadline-retry-strategy.ts';
import { clampListPageSize, clampPartSize, STORAGE_LIMITS } from './limits.ts';
import { assertStorageKey, assertStoragePrefix, type FileStorage } from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Overrides for tests; production uses STORAGE_LIMITS (docs/product.md §9). */
  operationRetryMs?: number;
  uploadRetryMs?: number;
  partBytes?: number;
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

/**
 * Any S3-compatible store. Two clients share one configuration but not one retry budget: reads,
 * deletes and listings retry for up to 120 s, upload requests for up to 600 s (docs/product.md §9). Uploads go
 * through lib-storage in parts of at most 32 MiB; a failed upload is aborted, so no partial object
 * is left behind.
 */
export function createS3Storage(options: S3StorageOptions): FileStorage {
  const base: S3ClientConfig = {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    requestHandler: {
      connectionTimeout: STORAGE_LIMITS.connectTimeoutMs,
      requestTimeout: STORAGE_LIMITS.socketTimeoutMs,
    },
  };
  const operations = new S3Client({
    ...base,
    retryStrategy: new DeadlineRetryStrategy({
      deadlineMs: options.operationRetryMs ?? STORAGE_LIMITS.operationRetryMs,
    }),
  });
  const uploads = new S3Client({
    ...base,
    retryStrategy: new DeadlineRetryStrategy({ deadlineMs: options.uploadRetryMs ?? STORAGE_LIMITS.uploadRetryMs }),
  });
  const Bucket = options.bucket;
  const partSize = clampPartSize(options.partBytes);

  return {
    kind: 's3',

    async put(key, body, { contentType }) {
      assertStorageKey(key);
      const upload = new Upload({
        client: uploads,
        params: { Bucket, Key: key, Body: body, ContentType: contentType },
        partSize,
        // One part in memory at a time: a licence is at most 10 MB, and memory stays bounded.
        queueSize: 1,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // A stream that failed before the first part was sent leaves nothing; one that failed later
        // was aborted by lib-storage. A single-part PutObject that errored is atomic either way.
        body.destroy();
        throw error;
      }
    },

    async get(key) {
      assertStorageKey(key);
      try {
        const result = await operations.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!(result.Body instanceof Readable)) throw new Error('S3 returned a body that is not a Node stream');
        return { body: result.Body, size: result.ContentLength };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async exists(key) {
      assertStorageKey(key);
      try {
        await operations.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    async delete(key) {
      assertStorageKey(key);
      await operations.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async list(prefix, listOptions = {}) {
      assertStoragePrefix(prefix);
      // The cursor is the last key of the previous page ("list after this key"), as on local disk.
      // ListObjects (v1) with Marker takes it directly and is understood by every S3-compatible
      // store; v2's opaque continuation tokens are not portable between backends.
      const result = await operations.send(
        new ListObjectsCommand({
          Bucket,
          Prefix: prefix,
          MaxKeys: clampListPageSize(listOptions.pageSize),
          Marker: listOptions.cursor ?? undefined,
        }),
      );
      const keys = (result.Contents ?? []).flatMap((item) => (item.Key ? [item.Key] : []));
      const last = keys.at(-1);
      return { keys, nextCursor: result.IsTruncated && last !== undefined ? last : null };
    },

    async close() {
      operations.destroy();
      uploads.destroy();
    },
  };
}
