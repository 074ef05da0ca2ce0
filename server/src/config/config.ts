import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting comes from the environment (DECISIONS §1) and is checked once at start,
 * so a typo fails loudly with the variable's name instead of misbehaving later.
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  PUBLIC_URL: optionalText.pipe(z.url({ message: 'must be an absolute URL such as https://photos.example.com' }).optional()),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL (leave it unset for SQLite)' })
      .optional(),
  ),
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalText.pipe(z.url().optional()),
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  SMTP_URL: optionalText.pipe(
    z.string().regex(/^smtps?:\/\//, { message: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  MAIL_FROM: optionalText.default('Photo Library <no-reply@localhost>'),
  JWT_SECRET: optionalText.pipe(z.string().min(32, { message: 'must be at least 32 characters' }).optional()),
  JWT_TTL: z.string().trim().regex(/^\d+[smhd]$/, { message: 'must look like 7d, 12h or 30m' }).default('7d'),
  HIDDEN_TAGS: optionalText,
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (parsed === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be false, a number of proxy hops (1 for one reverse proxy), or proxy addresses/CIDRs separated by commas' });
        return z.NEVER;
      }
      return parsed;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: optionalText,
  MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(4096).default(200),
  // Twice the benchmark's 1 GB single-request upload; the web app sends batches of at most 50 MB or one file.
  MAX_UPLOAD_REQUEST_MB: z.coerce.number().int().min(1).max(1_048_576).default(2048),
  UPLOAD_IDLE_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(60),
  IMAGE_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  // Memory the decodes running side by side may take together; a larger one runs alone (task-pool.ts).
  IMAGE_MEMORY_MB: z.coerce.number().int().min(1).max(65_536).default(100),
  // Where pictures are decoded: a separate process that ends when idle (default), or the server's own.
  IMAGE_DECODER: z.enum(['process', 'inline']).default('process'),
  // One decoder process held to each core when every core has a picture to decode (decision 0050), or one unpinned.
  IMAGE_DECODER_PINNING: z.enum(['auto', 'off']).default('auto'),
  TRASH_DAYS: z.coerce.number().int().min(0).max(36500).default(30),
  // Requests the server sends itself before it listens, so the first people find its code warm (decision 0037); 0: none.
  WARM_UP_REQUESTS: z.coerce.number().int().min(0).max(100_000).default(1000),
  // Fractions allowed (tests use seconds); at most 30 days.
  TUS_EXPIRY_HOURS: z.coerce.number().positive().max(720).default(24),
  TUS_MAX_UNFINISHED_MB: z.coerce.number().int().min(1).max(1_048_576).default(10_240),
  NODE_ENV: optionalText,
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string | undefined;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  s3: { bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string } | undefined;
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  jwt: { secret: string | undefined; ttl: string };
  hiddenTags: string[];
  /**
   * Which X-Forwarded-For entries to believe (for rate limits and logs): `false`, a number of proxy
   * hops (the client address is the one the nearest N proxies report), or the proxies' addresses.
   * Never `true`: the left-most entry is written by the client and would defeat every limit.
   */
  trustProxy: false | number | string[];
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  webDist: string;
  mediaDir: string;
  /** Uploads are streamed here before they are checked and stored; emptied at start. */
  tempDir: string;
  /**
   * Largest single file, largest whole upload request (all its files and multipart overhead), and how
   * long an upload may send nothing (while the server waits for it) before it is stopped.
   */
  uploads: { maxFileBytes: number; maxRequestBytes: number; idleTimeoutMs: number };
  /** Images processed at once (decoding is CPU- and memory-bound): one per core by default. */
  imageWorkers: number;
  /** Bytes the decodes running at once may hold together (a larger decode runs alone). */
  imageMemoryBytes: number;
  /** 'process': decodes run in a decoder process that ends when idle (decoder-process/); 'inline': in the server. */
  imageDecoder: 'process' | 'inline';
  /** 'auto': a decoder process per core, each held to its core, when IMAGE_WORKERS ≥ cores (decoder-lanes.ts); 'off': one process. */
  imageDecoderPinning: 'auto' | 'off';
  /** Days a deleted image stays in the Trash before it is purged; 0: deleted at once. */
  trashDays: number;
  /** Requests sent through the server's own handler before it listens (warm-up/). */
  warmUpRequests: number;
  /**
   * Resumable (tus) uploads: their bytes under `dir` (unless S3 is configured), how long an
   * unfinished one lives, and how many unfinished bytes one person may hold.
   */
  resumableUploads: { dir: string; expiryMs: number; maxUnfinishedBytes: number };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid settings in the environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.S3_BUCKET === undefined && (e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid settings in the environment:\n  S3_BUCKET: is required when other S3_* settings are set');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'photos.sqlite') },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
          region: e.S3_REGION ?? 'us-east-1',
          ...(e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID } : {}),
          ...(e.S3_SECRET_ACCESS_KEY ? { secretAccessKey: e.S3_SECRET_ACCESS_KEY } : {}),
        }
      : undefined,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? 'Photo Library <no-reply@localhost>', outboxDir: path.join(dataDir, 'outbox') },
    jwt: { secret: e.JWT_SECRET, ttl: e.JWT_TTL },
    hiddenTags: (e.HIDDEN_TAGS ?? '')
      .split(',')
      .map((tag) => tag.trim().toLowerCase())
      .filter(Boolean),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : path.resolve(import.meta.dirname, '../../../web/dist'),
    mediaDir: path.join(dataDir, 'media'),
    tempDir: path.join(dataDir, 'tmp'),
    uploads: {
      maxFileBytes: e.MAX_UPLOAD_MB * 1024 * 1024,
      maxRequestBytes: e.MAX_UPLOAD_REQUEST_MB * 1024 * 1024,
      idleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_S * 1000,
    },
    imageWorkers: e.IMAGE_WORKERS ?? os.availableParallelism(),
    imageMemoryBytes: e.IMAGE_MEMORY_MB * 1_000_000,
    imageDecoder: e.IMAGE_DECODER,
    imageDecoderPinning: e.IMAGE_DECODER_PINNING,
    trashDays: e.TRASH_DAYS,
    warmUpRequests: e.WARM_UP_REQUESTS,
    resumableUploads: {
      dir: path.join(dataDir, 'tus'),
      expiryMs: Math.round(e.TUS_EXPIRY_HOURS * 3_600_000),
      maxUnfinishedBytes: e.TUS_MAX_UNFINISHED_MB * 1024 * 1024,
    },
  };
}

/**
 * TRUST_PROXY: the proxies' addresses or CIDRs (best: a client reaching the app directly cannot
 * claim any address), or a hop count (the N nearest hops are proxies; only safe when the app cannot
 * be reached but through them). `true` is read as `loopback` (a proxy on the same machine), never as
 * "trust every entry", which lets a client choose its own address.
 */
export function parseTrustProxy(value: string): false | number | string[] | undefined {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return ['loopback'];
  if (/^\d+$/.test(v)) return Math.min(Number(v), 32);
  const entries = v.split(',').map((entry) => entry.trim()).filter(Boolean);
  const address = /^(?:[0-9.]+|[0-9a-f:.]+|loopback|linklocal|uniquelocal)(?:\/\d{1,3})?$/;
  return entries.length > 0 && entries.every((entry) => address.test(entry)) ? entries : undefined;
}
