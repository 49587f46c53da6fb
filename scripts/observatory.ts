/**
 * A local MDN HTTP Observatory scan (HDR-10), runnable offline on loopback.
 *
 * The Observatory (`@mdn/mdn-http-observatory`, a devDependency) is installed without its install
 * scripts (package.json `allowScripts`), because they download a CA bundle, the HSTS preload list
 * and the TLD list, which cannot be fetched here. The scanner itself needs only the two lists, and
 * empty ones do: `prepareObservatory()` writes them when they are missing, so a fresh `npm ci`
 * is enough. Its `bin` wrapper overwrites NODE_EXTRA_CA_CERTS with the (missing) bundle, so we run
 * `@mdn/mdn-http-observatory/src/scan.js` directly, with our own loopback certificate trusted through NODE_EXTRA_CA_CERTS.
 *
 * The app has no TLS listener of its own (it runs behind a proxy in production), so the scan goes
 * through a small TLS reverse proxy that passes requests and responses through unchanged; the app
 * must be started with PUBLIC_BASE_URL=https://127.0.0.1:<proxy port> so it sends HSTS and Secure
 * cookies as it would in production.
 *
 * From the command line: `node scripts/observatory.ts http://127.0.0.1:3000` proxies TLS to that
 * server and prints the scan as JSON.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const OBSERVATORY_DIR = path.resolve(import.meta.dirname, '..', 'node_modules', '@mdn', 'mdn-http-observatory');

/** Writes the empty HSTS preload and TLD lists the scanner reads, when they are missing. */
export function prepareObservatory(dir = OBSERVATORY_DIR): void {
  if (!fs.existsSync(path.join(dir, 'src', 'scan.js'))) {
    throw new Error(`The MDN HTTP Observatory is not installed (${dir}); run npm ci.`);
  }
  const conf = path.join(dir, 'conf');
  fs.mkdirSync(conf, { recursive: true });
  for (const [name, empty] of [
    ['hsts-preload.json', '{}'],
    ['tld-list.json', '[]'],
  ] as const) {
    const file = path.join(conf, name);
    if (!fs.existsSync(file)) fs.writeFileSync(file, empty);
  }
}

export interface LoopbackCertificate {
  dir: string;
  key: Buffer;
  cert: Buffer;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS. */
  certFile: string;
  remove(): void;
}

/** A throwaway self-signed certificate for 127.0.0.1 and localhost, valid for two days. */
export function makeLoopbackCertificate(): LoopbackCertificate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return {
    dir,
    key: fs.readFileSync(keyFile),
    cert: fs.readFileSync(certFile),
    certFile,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsProxy {
  port: number;
  /** https://127.0.0.1:<port> */
  origin: string;
  /** Where requests go; may be set after the proxy listens (the app needs the proxy's port first). */
  target: URL | null;
  close(): Promise<void>;
}

/** A TLS listener on 127.0.0.1 that forwards every request to `target` and the answer back, headers untouched. */
export async function startTlsProxy(tls: { key: Buffer; cert: Buffer }, target: URL | null = null): Promise<TlsProxy> {
  const proxy: TlsProxy = { port: 0, origin: '', target, close: async () => {} };
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    if (!proxy.target) {
      res.writeHead(503).end();
      return;
    }
    const upstream = http.request(
      { host: proxy.target.hostname, port: proxy.target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  // Plain HTTP sent to this port (the scanner tries http:// first) just fails the handshake.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.origin = `https://127.0.0.1:${proxy.port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

export interface ObservatoryTest {
  pass: boolean;
  result: string;
  scoreModifier: number;
  [key: string]: unknown;
}

export interface ObservatoryScan {
  scan: {
    grade: string;
    score: number;
    testsPassed: number;
    testsFailed: number;
    testsQuantity: number;
    statusCode: number;
  };
  tests: Record<string, ObservatoryTest>;
}

/**
 * Scans `host` (e.g. `127.0.0.1:8443`) over https in a child process that trusts `caFile`.
 * Rejects with the scanner's message when it cannot scan.
 */
export async function runObservatoryScan(
  host: string,
  caFile: string,
  options: { timeoutMs?: number } = {},
): Promise<ObservatoryScan> {
  prepareObservatory();
  const child = spawn(process.execPath, [path.join(OBSERVATORY_DIR, 'src', 'scan.js'), host], {
    cwd: OBSERVATORY_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_EXTRA_CA_CERTS: caFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    throw new Error(`the Observatory scan printed no JSON (exit ${code}):\n${out}\n${err}`);
  }
  if (code !== 0 || (parsed as { error?: unknown }).error) {
    throw new Error(`the Observatory scan failed (exit ${code}): ${JSON.stringify(parsed)}\n${err}`);
  }
  return parsed as ObservatoryScan;
}

if (import.meta.main) {
  const target = process.argv[2];
  if (!target) {
    console.error(
      'usage: node scripts/observatory.ts http://127.0.0.1:<port>   (start the app with PUBLIC_BASE_URL=https://… to get HSTS)',
    );
    process.exit(2);
  }
  const certificate = makeLoopbackCertificate();
  const proxy = await startTlsProxy(certificate, new URL(target));
  try {
    const result = await runObservatoryScan(`127.0.0.1:${proxy.port}`, certificate.certFile);
    console.log(JSON.stringify(result, null, 2));
    console.log(
      `\nObservatory: ${result.scan.grade} (${result.scan.score}), ${result.scan.testsPassed}/${result.scan.testsQuantity} tests passed`,
    );
  } finally {
    await proxy.close();
    certificate.remove();
  }
}
