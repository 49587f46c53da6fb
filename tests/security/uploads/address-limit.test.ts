/**
 * The per-address limit of anonymous registrations (UP-08) cannot be dodged with proxy headers
 * (HDR-11): each test starts an app of its own with a low limit, over a real socket.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../helpers/test-app.ts';
import { fieldParts, multipart, uniqueCompany } from '../../helpers/upload-requests.ts';

describe('the per-address limit cannot be dodged with proxy headers (UP-08, HDR-11)', () => {
  const SPOOFS: Array<Record<string, string>> = [
    { 'x-forwarded-for': '198.51.100.1' },
    { 'x-forwarded-for': '198.51.100.2, 10.0.0.1' },
    { 'x-real-ip': '198.51.100.3' },
    { 'cf-connecting-ip': '198.51.100.4' },
    { 'true-client-ip': '198.51.100.5' },
    { forwarded: 'for=198.51.100.6;proto=https' },
    { 'x-client-ip': '198.51.100.7', 'x-forwarded-for': '198.51.100.7' },
  ];

  async function postOverSocket(port: number, extraHeaders: Record<string, string>) {
    const { payload, headers } = multipart(fieldParts(uniqueCompany()));
    return new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/companies',
          headers: { ...headers, ...extraHeaders, 'content-length': payload.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  it('counts the sixth registration from one address as over the limit, whatever the headers claim', async () => {
    const limited = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '5' } });
    try {
      await limited.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = limited.app.server.address() as AddressInfo;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await postOverSocket(port, SPOOFS[i % SPOOFS.length]!));
      expect(statuses).toEqual([201, 201, 201, 201, 201]);
      for (const spoof of SPOOFS) expect(await postOverSocket(port, spoof), JSON.stringify(spoof)).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('control: behind a configured proxy (TRUST_PROXY=true) X-Forwarded-For does name the client, so the test can tell', async () => {
    const proxied = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '1', TRUST_PROXY: 'true' } });
    try {
      await proxied.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = proxied.app.server.address() as AddressInfo;
      expect(await postOverSocket(port, { 'x-forwarded-for': '198.51.100.10' })).toBe(201);
      expect(await postOverSocket(port, { 'x-forwarded-for': '198.51.100.10' })).toBe(429);
      expect(await postOverSocket(port, { 'x-forwarded-for': '198.51.100.11' })).toBe(201);
    } finally {
      await proxied.close();
    }
  });
});
