import { createHash } from 'node:crypto';
import net from 'node:net';
import Bowser from 'bowser';

/**
 * What a session remembers of where it was started (docs/decisions/097-account-sessions-and-email-change.md):
 * the browser's User-Agent, cut short, and a coarse network prefix, never the full address.
 */
export const USER_AGENT_MAX_LENGTH = 300;

export interface SessionDevice {
  userAgent: string | null;
  ipPrefix: string | null;
}

/** The IPv4 /24 ("203.0.113.0/24") or IPv6 /48 ("2001:db8:85a3::/48") an address belongs to; null if it is none. */
export function ipPrefix(ip: string | undefined): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  if (net.isIPv4(address)) {
    const [a, b, c] = address.split('.');
    return `${a}.${b}.${c}.0/24`;
  }
  if (!net.isIPv6(address)) return null;
  const groups = expandIpv6(address);
  if (!groups) return null;
  const head = groups.slice(0, 3).map((g) => parseInt(g, 16).toString(16));
  return `${head.join(':')}::/48`;
}

/** The eight groups of an IPv6 address (a zone or an embedded IPv4 tail is handled); null when malformed. */
function expandIpv6(address: string): string[] | null {
  let text = address.split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const parts = v4[1]!.split('.').map(Number);
    text =
      text.slice(0, -v4[1]!.length) +
      `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [left, right] = text.split('::');
  const head = left ? left.split(':') : [];
  const tail = right ? right.split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (text.includes('::') ? missing < 1 : missing !== 0) return null;
  return [...head, ...Array<string>(text.includes('::') ? missing : 0).fill('0'), ...tail];
}

export function sessionDevice(userAgent: string | string[] | undefined, ip: string | undefined): SessionDevice {
  const agent = typeof userAgent === 'string' && userAgent.trim() ? userAgent.trim() : null;
  return {
    userAgent: agent ? Array.from(agent).slice(0, USER_AGENT_MAX_LENGTH).join('') : null,
    ipPrefix: ipPrefix(ip),
  };
}

/** "Firefox 128 on Windows 10", "Safari 17 on iOS 17.5", or "Unknown browser" when the agent says nothing we know. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name
    ? [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ')
    : 'Unknown browser';
  const osName = parsed.os.name;
  if (!osName) return browser;
  const osVersion = parsed.os.versionName ?? parsed.os.version;
  return `${browser} on ${osVersion && osName !== 'Linux' ? `${osName} ${osVersion}` : osName}`;
}

/**
 * The id a session is shown by: 22 characters of the SHA-256 of its key (token_hash). The key is
 * itself a hash of the token, so neither it nor the token can be worked back from the id, and
 * knowing the id lets nobody use the session.
 */
export function publicSessionId(tokenHash: string): string {
  return createHash('sha256').update(`session-id:${tokenHash}`).digest('base64url').slice(0, 22);
}
