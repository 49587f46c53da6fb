import { generateKeyPairSync } from 'node:crypto';
import type { DNSResolver } from 'mailauth';

/**
 * A DNS zone of the test's own for the inbound DMARC check: sender domains with an SPF record for
 * 127.0.0.1, a DKIM key and a DMARC policy, so mail signed here passes DMARC exactly as it would on
 * the internet, and mail from anywhere else fails it. The app asks it instead of the system's DNS
 * (these machines have none to ask).
 */
export interface MailZone {
  resolver: DNSResolver;
  /** DKIM signing options for nodemailer, for a domain added with addSender. */
  dkim(domain: string): { domainName: string; keySelector: string; privateKey: string };
  addSender(domain: string, records?: { spf?: string | null; dmarc?: string | null }): void;
  /** From now on every lookup of `name` fails as a DNS server in trouble answers (SERVFAIL): a temporary error. */
  failLookups(name: string): void;
}

const SELECTOR = 'mail2026';

export function createMailZone(): MailZone {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const txt = new Map<string, string[][]>();
  const failing = new Set<string>();
  const split = (value: string) => [value.match(/.{1,250}/g) ?? [value]];
  return {
    resolver: async (name, rrtype) => {
      if (failing.has(name.toLowerCase().replace(/\.$/, '')))
        throw Object.assign(new Error(`queryTxt ESERVFAIL ${name}`), { code: 'ESERVFAIL' });
      const records = rrtype === 'TXT' ? txt.get(name.toLowerCase().replace(/\.$/, '')) : undefined;
      if (!records) throw Object.assign(new Error(`no ${rrtype} record for ${name}`), { code: 'ENOTFOUND' });
      return records;
    },
    dkim: (domain) => ({ domainName: domain, keySelector: SELECTOR, privateKey: pem }),
    addSender(domain, records = {}) {
      const spf = records.spf === undefined ? 'v=spf1 ip4:127.0.0.1 -all' : records.spf;
      const dmarc = records.dmarc === undefined ? 'v=DMARC1; p=reject' : records.dmarc;
      if (spf) txt.set(domain, split(spf));
      if (dmarc) txt.set(`_dmarc.${domain}`, split(dmarc));
      txt.set(`${SELECTOR}._domainkey.${domain}`, split(`v=DKIM1; k=rsa; p=${p}`));
    },
    failLookups(name) {
      failing.add(name.toLowerCase());
    },
  };
}
