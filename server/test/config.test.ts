import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';

describe('configuration from the environment', () => {
  it('has embedded defaults: SQLite and files under ./data, port 3000, outbox mail', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('./data/photos.sqlite') });
    expect(config.mediaDir).toBe(path.resolve('./data/media'));
    expect(config.mail).toMatchObject({ smtpUrl: undefined, outboxDir: path.resolve('./data/outbox') });
    expect(config.s3).toBeUndefined();
    expect(config.hiddenTags).toEqual([]);
  });

  it('switches to PostgreSQL, S3 and SMTP when their settings are given', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/photos',
      S3_BUCKET: 'photos',
      S3_ENDPOINT: 'http://127.0.0.1:4568',
      SMTP_URL: 'smtp://mail:25',
      HIDDEN_TAGS: ' Secret , private,,',
      PUBLIC_URL: 'https://photos.example.com/',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/photos' });
    expect(config.s3).toMatchObject({ bucket: 'photos', endpoint: 'http://127.0.0.1:4568', region: 'us-east-1' });
    expect(config.mail.smtpUrl).toBe('smtp://mail:25');
    expect(config.hiddenTags).toEqual(['secret', 'private']);
    expect(config.publicUrl).toBe('https://photos.example.com');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'photos.example.com' }, 'PUBLIC_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ JWT_TTL: 'forever' }, 'JWT_TTL'],
    [{ S3_ENDPOINT: 'http://s3.local' }, 'S3_BUCKET'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('refuses %j with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });

  it('reads TRUST_PROXY as Fastify takes it: off, a hop count, or the proxies\' addresses; never "trust every entry"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
  });

  it('decodes pictures in a decoder process unless IMAGE_DECODER=inline', () => {
    expect(loadConfig({}).imageDecoder).toBe('process');
    expect(loadConfig({ IMAGE_DECODER: 'inline' }).imageDecoder).toBe('inline');
    expect(() => loadConfig({ IMAGE_DECODER: 'elsewhere' })).toThrow(/IMAGE_DECODER/);
  });
});
