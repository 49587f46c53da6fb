import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults: port 3000, ./data, the embedded database, Bagspace', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.database).toEqual({ kind: 'pglite', dir: path.resolve('data', 'db') });
    expect(config.companyName).toBe('Bagspace');
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
    expect(config.rateLimits).toBe(true);
    expect(config.storage.kind).toBe('local');
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://app@db.internal:5432/bagspace' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://app@db.internal:5432/bagspace' });
  });

  it('erases deleted accounts after 30 days by default, or as configured from 0 to 3650', () => {
    expect(loadConfig({}).privacy).toEqual({ eraseAfterDays: 30, eraseCheckMs: 300_000 });
    expect(loadConfig({ ERASE_AFTER_DAYS: '0', ERASE_CHECK_SECONDS: '5' }).privacy).toEqual({
      eraseAfterDays: 0,
      eraseCheckMs: 5000,
    });
    expect(loadConfig({ ERASE_AFTER_DAYS: '3650' }).privacy.eraseAfterDays).toBe(3650);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', COMPANY_NAME: '' }).port).toBe(3000);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// or postgresql:// connection URL'],
    [{ PUBLIC_BASE_URL: 'ftp://example.com' }, 'PUBLIC_BASE_URL must be an http:// or https:// URL'],
    [{ RATE_LIMITS: 'maybe' }, 'RATE_LIMITS must be on or off (got "maybe")'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV must be development, production or test'],
    [{ REGISTRATIONS_PER_IP_PER_HOUR: '0' }, 'REGISTRATIONS_PER_IP_PER_HOUR must be a whole number of at least 1'],
    [{ STORAGE: 's3' }, 'S3_BUCKET must be set when STORAGE=s3'],
    [{ ERASE_AFTER_DAYS: '3651' }, 'ERASE_AFTER_DAYS must be at most 3650 (ten years) (got "3651")'],
    [{ ERASE_AFTER_DAYS: '-1' }, 'ERASE_AFTER_DAYS must be a whole number of at least 0'],
  ])('stops with a message naming the wrong variable: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('sets up the delivery card with its URL and secret together (docs/decisions/151-delivery-card.md)', () => {
    expect(loadConfig({}).deliveryContext).toBeNull();
    const bytes = Buffer.alloc(32, 7);
    const config = loadConfig({
      DELIVERY_CONTEXT_URL: 'https://app.bagspace.example/support/delivery/',
      DELIVERY_CONTEXT_SECRET: `whsec_${bytes.toString('base64')}`,
    });
    expect(config.deliveryContext).toEqual({ url: 'https://app.bagspace.example/support/delivery', secret: bytes });
    const secret = `whsec_${bytes.toString('base64')}`;
    expect(() => loadConfig({ DELIVERY_CONTEXT_URL: 'https://app.example/d' })).toThrow(
      'DELIVERY_CONTEXT_URL and DELIVERY_CONTEXT_SECRET must be set together',
    );
    expect(() => loadConfig({ DELIVERY_CONTEXT_SECRET: secret })).toThrow('must be set together');
    expect(() => loadConfig({ DELIVERY_CONTEXT_URL: 'ftp://app.example/d', DELIVERY_CONTEXT_SECRET: secret })).toThrow(
      'DELIVERY_CONTEXT_URL must be an http:// or https:// URL',
    );
    // Not a Standard Webhooks secret, or too short: refused, and never echoed.
    for (const wrong of ['not-a-secret', `whsec_${Buffer.alloc(8).toString('base64')}`, 'whsec_!!!']) {
      try {
        loadConfig({ DELIVERY_CONTEXT_URL: 'https://app.example/d', DELIVERY_CONTEXT_SECRET: wrong });
        expect.unreachable();
      } catch (error) {
        expect((error as Error).message).toContain('DELIVERY_CONTEXT_SECRET must be whsec_');
        expect((error as Error).message).not.toContain(wrong);
      }
    }
  });

  it('names every wrong variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('PORT');
      expect((error as Error).message).toContain('LOG_LEVEL');
    }
  });
});
