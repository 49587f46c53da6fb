import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyMailError, createMailTransport } from './mailer.ts';

describe('classifyMailError', () => {
  it('fails for good on an SMTP 5xx and tries again on 4xx and on connection problems', () => {
    expect(classifyMailError({ responseCode: 550, response: '550 5.1.1 No such mailbox' })).toMatchObject({
      permanent: true,
      message: '550 5.1.1 No such mailbox',
    });
    expect(classifyMailError({ responseCode: 421, response: '421 Try later' }).permanent).toBe(false);
    expect(classifyMailError({ responseCode: 451, response: '451 Local error' }).permanent).toBe(false);
    expect(
      classifyMailError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ESOCKET' })).permanent,
    ).toBe(false);
    expect(
      classifyMailError(Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' })).permanent,
    ).toBe(false);
  });

  it('never keeps an SMTP URL (it may hold a password) in the recorded error', () => {
    const error = classifyMailError(new Error('could not reach smtp://mailer:s3cret@mail.example.com:587'));
    expect(error.message).not.toContain('s3cret');
  });
});

describe('the outbox-folder transport', () => {
  it('writes one .eml per mail, and a retry of the same mail replaces it rather than adding one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-mailer-'));
    try {
      const transport = createMailTransport({ from: 'Bagspace <no-reply@example.nz>', outboxDir: dir });
      const mail = {
        to: 'aroha@example.nz',
        subject: 'Hello',
        text: 'Hi',
        html: '<p>Hi</p>',
        headers: { 'List-Unsubscribe': '<https://example.nz/unsubscribe/x>' },
        messageId: '<fixed-id@example.nz>',
        date: new Date('2026-11-23T00:00:00Z'),
        fileStem: '2026-11-23T00-00-00.000Z-00000001',
      };
      await transport.deliver(mail);
      await transport.deliver(mail);
      const files = fs.readdirSync(dir);
      expect(files).toEqual(['2026-11-23T00-00-00.000Z-00000001.eml']);
      const source = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
      expect(source).toContain('Message-ID: <fixed-id@example.nz>');
      expect(source).toContain('List-Unsubscribe: <https://example.nz/unsubscribe/x>');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
