import { describe, expect, it } from 'vitest';
import { describeDevice, ipPrefix, publicSessionId, sessionDevice, USER_AGENT_MAX_LENGTH } from './accounts.device.ts';

describe('ipPrefix', () => {
  it('keeps an IPv4 /24 and an IPv6 /48, never the full address', () => {
    expect(ipPrefix('203.0.113.77')).toBe('203.0.113.0/24');
    expect(ipPrefix('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(ipPrefix('2001:db8:85a3:1234:5678::9')).toBe('2001:db8:85a3::/48');
    expect(ipPrefix('2001:0db8:0000::1')).toBe('2001:db8:0::/48');
    expect(ipPrefix('::1')).toBe('0:0:0::/48');
    expect(ipPrefix('fe80::1%eth0')).toBe('fe80:0:0::/48');
  });

  it('is null for anything that is not an address', () => {
    for (const value of [undefined, '', 'localhost', '999.1.1.1', '1:2:3', '1::2::3'])
      expect(ipPrefix(value)).toBeNull();
  });
});

describe('describeDevice', () => {
  it('names browser, major version and system', () => {
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox 128 on Windows 10',
    );
    expect(
      describeDevice(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 131 on Linux');
  });

  it('says so when it does not know', () => {
    expect(describeDevice(null)).toBe('Unknown browser');
    expect(describeDevice('curl-ish/1')).toBe('Unknown browser');
  });
});

describe('sessionDevice and publicSessionId', () => {
  it('cuts the user agent to its limit in characters, and ignores an empty one', () => {
    expect(sessionDevice('x'.repeat(1000), '10.0.0.1')).toEqual({
      userAgent: 'x'.repeat(USER_AGENT_MAX_LENGTH),
      ipPrefix: '10.0.0.0/24',
    });
    expect(sessionDevice('  ', undefined)).toEqual({ userAgent: null, ipPrefix: null });
    expect(sessionDevice(['a', 'b'], '10.0.0.1').userAgent).toBeNull();
  });

  it('gives a stable 22-character id that is neither the key nor a prefix of it', () => {
    const key = 'a'.repeat(64);
    expect(publicSessionId(key)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(publicSessionId(key)).toBe(publicSessionId(key));
    expect(publicSessionId(key)).not.toBe(publicSessionId('b'.repeat(64)));
    expect(key).not.toContain(publicSessionId(key));
  });
});
