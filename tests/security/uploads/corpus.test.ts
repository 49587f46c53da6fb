/**
 * The commercial-licence upload under attack with hostile files (UP-02..UP-05, UP-07): the
 * hand-crafted corpus (tests/helpers/upload-corpus.ts) and a thousand byte mutations of real JPEG
 * and PNG images, then a look at everything under DATA_DIR. What the design guarantees
 * (docs/decisions/031 and 070):
 * - only bytes that start as a JPEG or PNG are kept, under `commercialLicenses/{server id}.{jpg|png}`,
 *   whatever the name, the declared type or the form says; nothing else is written anywhere;
 * - the file is kept exactly as sent (not re-encoded, decision 070), so a polyglot stays a polyglot:
 *   it is only ever handed to admins, as an attachment that cannot be sniffed, rendered or framed;
 * - the server never decodes an image, so a pixel flood costs it nothing.
 * The multipart limits and slow bodies are in limits.test.ts, the per-address limit in
 * address-limit.test.ts, another company's file in foreign-file.test.ts.
 *
 * One database: what is kept of a hostile file is decided by its bytes before any row is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import { companies } from '../../../src/server/db/schema.ts';
import { storedFiles } from '../../helpers/registration.ts';
import { createUser, signIn, withCookie } from '../../helpers/accounts.ts';
import { recordFigure, runs } from '../../helpers/figures.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import {
  CORPUS,
  type CorpusEntry,
  ESCAPE_NAMES,
  HTML,
  JPEG_EXIF_GPS,
  JPEG_FLOOD,
  JPEG_SEED,
  PHP,
  PNG_FLOOD,
  PNG_SEED,
  PNG_SIGNATURE,
  PNG_TEXT_SCRIPT,
  POLYGLOT_JPEG_HTML,
  SVG,
  ZIP_LOCAL_HEADER,
} from '../../helpers/upload-corpus.ts';
import {
  fileOf,
  licencePart,
  type RawPart,
  send,
  sha256,
  startUploadApp,
  uniqueCompany,
} from '../../helpers/upload-requests.ts';

// What the figure reports, filled in by the tests below.
const startedAt = Date.now();
let floodFigures = { floodMs: -1, floodRssMb: -1 };
let mutated = 0;
let mutatedAccepted = 0;
let acceptedNonImage = 0;
let mutationSeed = 0;
let orphanOrOutside = -1;

let t: TestApp;
let adminCookie: Record<string, string>;
beforeAll(async () => {
  ({ t, adminCookie } = await startUploadApp());
});
afterAll(() => t?.close());

const STORED_NAME =
  /^commercialLicenses\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(jpg|png|pdf)$/;

/** Every file under DATA_DIR, relative to it (the database of this test runs elsewhere). */
function everyFileUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('the hand-crafted corpus (UP-02, UP-03, UP-04)', () => {
  const outcomes: Array<{ entry: CorpusEntry; status: number; id?: string }> = [];

  it(`answers each of ${CORPUS.length} hostile files without a 5xx, keeping only JPEG, PNG and PDF, under the server's name`, async () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    for (const entry of CORPUS) {
      const fields = uniqueCompany();
      const part: RawPart = {
        name: 'commercialLicense',
        filename: entry.filename,
        contentType: entry.contentType,
        body: entry.bytes,
        disposition: entry.disposition,
      };
      const filesBefore = storedFiles(t);
      const res = await send(part, { fields });
      const why = `${entry.label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
      expect(res.statusCode, why).toBeLessThan(500);
      if (entry.expect === 'refused') {
        expect(res.statusCode, why).toBe(400);
        expect(res.json().error.fields, why).toEqual({ commercialLicense: COMPANY_MESSAGES.fileUnsupported });
        expect(storedFiles(t), why).toEqual(filesBefore);
      } else if (entry.expect === 'stored' || res.statusCode === 201) {
        expect(res.statusCode, why).toBe(201);
        const { id, company } = res.json();
        const key = `commercialLicenses/${id}.${entry.ext}`;
        expect(company.commercialLicenseUrl, why).toBe(`/api/admin/companies/${id}/license`);
        expect(storedFiles(t), why).toEqual([...filesBefore, key].sort());
        // Not re-encoded (decision 070): the bytes are kept exactly as sent.
        expect(sha256(fs.readFileSync(fileOf(key))), why).toBe(sha256(entry.bytes));
        outcomes.push({ entry, status: res.statusCode, id });
        continue;
      } else {
        expect([400, 413], why).toContain(res.statusCode);
        expect(storedFiles(t), why).toEqual(filesBefore);
      }
      outcomes.push({ entry, status: res.statusCode });
    }
  });

  it('hands every kept hostile file to admins only, as an attachment that cannot be sniffed, rendered or framed (UP-05)', async () => {
    const kept = outcomes.filter((o) => o.id);
    expect(kept.length).toBeGreaterThanOrEqual(25);
    const member = await createUser(t);
    const memberCookie = withCookie(t, await signIn(t, member.email, member.password));
    for (const { entry, id } of kept) {
      const url = `/api/admin/companies/${id}/license`;
      const file = await t.app.inject({ method: 'GET', url, headers: adminCookie });
      expect(file.statusCode, entry.label).toBe(200);
      expect(file.headers['content-type'], entry.label).toBe(
        { png: 'image/png', jpg: 'image/jpeg', pdf: 'application/pdf' }[entry.ext!],
      );
      expect(file.headers['content-disposition'], entry.label).toBe(
        `attachment; filename="licence-${id}.${entry.ext}"`,
      );
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(file.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(file.headers['cache-control']).toBe('no-store');
      expect(file.rawPayload.equals(entry.bytes), entry.label).toBe(true);
      for (const headers of [{}, memberCookie]) {
        const denied = await t.app.inject({ method: 'GET', url, headers });
        expect([401, 403]).toContain(denied.statusCode);
        expect(denied.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(denied.body).not.toMatch(/<script|<\?php|<html/i);
      }
    }
  });

  it('never serves the storage path itself, on the API or the web side (UP-05)', async () => {
    const { id, entry } = outcomes.find((o) => o.entry.bytes === POLYGLOT_JPEG_HTML)!;
    for (const url of [
      `/commercialLicenses/${id}.${entry.ext}`,
      `/files/commercialLicenses/${id}.${entry.ext}`,
      `/data/files/commercialLicenses/${id}.${entry.ext}`,
      `/api/files/commercialLicenses/${id}.${entry.ext}`,
      `/assets/../files/commercialLicenses/${id}.${entry.ext}`,
      `/assets/%2e%2e/%2e%2e/files/commercialLicenses/${id}.${entry.ext}`,
      '/files/.partial/',
      '/commercialLicenses/',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: adminCookie });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('alert(document.domain)');
      expect(res.headers['content-type'], url).not.toMatch(/^image\//);
    }
  });

  // Decoding 65,500 × 65,500 pixels would need about 17 GB and minutes; storing the file as it came
  // takes milliseconds (floodMs in the figures). The bounds leave room for a busy machine.
  it('keeps a pixel flood as an opaque file: stored at once, no memory growth (the server never decodes it)', async () => {
    const timings: number[] = [];
    let rssDelta = 0;
    for (const bytes of [PNG_FLOOD, JPEG_FLOOD]) {
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const res = await send(licencePart(bytes, 'flood.png'));
      timings.push(performance.now() - started);
      rssDelta = Math.max(rssDelta, process.memoryUsage().rss - rssBefore);
      expect(res.statusCode).toBe(201);
    }
    floodFigures = { floodMs: Math.round(Math.max(...timings)), floodRssMb: Math.round(rssDelta / 1e6) };
    expect(Math.max(...timings)).toBeLessThan(5000);
    expect(rssDelta).toBeLessThan(100 * 1024 * 1024);
  });
});

/**
 * The oracle: what is accepted is exactly a JPEG start (FF D8 FF), the PNG signature, or a PDF's
 * '%PDF-' (decision 130), in a file of at least 8 bytes.
 */
function expectedType(bytes: Uint8Array): 'jpg' | 'png' | 'pdf' | null {
  if (bytes.length < 8) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'png';
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-') return 'pdf';
  return null;
}

describe('byte mutations of real JPEG and PNG images (fast-check)', () => {
  const PAYLOADS = [
    PHP,
    HTML,
    SVG,
    ZIP_LOCAL_HEADER,
    Buffer.from('%PDF-1.7'),
    Buffer.from('GIF89a'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('\r\n--'),
  ];
  const NAMES = [
    'licence.jpg',
    'licence.png',
    '../../x.jpg',
    'x.php%00.jpg',
    'x.jpg.php',
    'a\u202Egpj.php',
    'x'.repeat(300),
    '',
  ];
  const TYPES = ['image/jpeg', 'image/png', 'text/html', 'application/octet-stream', 'image/svg+xml'];

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    // Flips in the first bytes decide the type, so they get their own share.
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat({ max: 11 }), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 32 }),
    }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({
      kind: fc.constant('splice' as const),
      at: fc.nat(),
      payload: fc.integer({ min: 0, max: PAYLOADS.length - 1 }),
    }),
  );

  type Step = { kind: string; at: number; value?: number; bytes?: Uint8Array; length?: number; payload?: number };
  function mutate(seed: Buffer, steps: Step[]): Buffer {
    let bytes = Buffer.from(seed);
    for (const step of steps) {
      const at = bytes.length === 0 ? 0 : step.at % (bytes.length + 1);
      switch (step.kind) {
        case 'flip':
          if (at < bytes.length) bytes[at] = step.value!;
          break;
        case 'insert':
          bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(step.bytes!), bytes.subarray(at)]);
          break;
        case 'delete':
          bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + step.length!)]);
          break;
        case 'truncate':
          bytes = bytes.subarray(0, at);
          break;
        case 'splice':
          bytes = Buffer.concat([bytes.subarray(0, at), PAYLOADS[step.payload!]!, bytes.subarray(at)]);
          break;
      }
    }
    return bytes;
  }

  it(`keeps exactly the mutants that still start as JPEG or PNG, byte for byte, and nothing else (${runs(1000, 10000)} runs)`, async () => {
    mutationSeed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(JPEG_SEED, PNG_SEED, JPEG_EXIF_GPS, PNG_TEXT_SCRIPT),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...NAMES),
        fc.constantFrom(...TYPES),
        async (seed, steps, filename, contentType) => {
          const bytes = mutate(seed, steps);
          mutated += 1;
          const type = expectedType(bytes);
          const res = await send(licencePart(bytes, filename, contentType));
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (bytes.length === 0 && filename === '') {
            // What a browser sends for "no file chosen": a registration without a licence.
            expect(res.statusCode, res.body).toBe(201);
            expect(res.json().company.commercialLicenseUrl).toBeNull();
            return;
          }
          if (type === null) {
            expect(res.statusCode).toBe(400);
            expect(res.json().error.fields).toEqual({ commercialLicense: COMPANY_MESSAGES.fileUnsupported });
            return;
          }
          expect(res.statusCode, res.body).toBe(201);
          mutatedAccepted += 1;
          const { id } = res.json();
          const key = `commercialLicenses/${id}.${type}`;
          const kept = fs.readFileSync(fileOf(key));
          if (!kept.equals(bytes)) throw new Error(`${key} differs from what was sent`);
        },
      ),
      { numRuns: runs(1000, 10000), seed: mutationSeed },
    );
  }, 600_000);
});

describe('the storage holds only what it should (UP-04, UP-07)', () => {
  it('every file under DATA_DIR is commercialLicenses/{id}.{jpg|png|pdf} of a saved company, and no name escaped', async () => {
    const filesRoot = path.join(t.dataDir, 'files');
    const everything = everyFileUnder(t.dataDir).filter((f) => !f.startsWith(`outbox${path.sep}`));
    const misplaced = everything.filter(
      (f) =>
        !f.startsWith(`files${path.sep}`) || !STORED_NAME.test(path.relative('files', f).split(path.sep).join('/')),
    );
    const rows = await t.database.db.select({ id: companies.id, key: companies.commercialLicenseKey }).from(companies);
    const keys = new Set(rows.flatMap((r) => (r.key ? [r.key] : [])));
    const files = storedFiles(t);
    const orphans = files.filter((f) => !keys.has(f));
    const missing = [...keys].filter((k) => !files.includes(k));
    const partial = fs.existsSync(path.join(filesRoot, '.partial'))
      ? fs.readdirSync(path.join(filesRoot, '.partial'))
      : [];
    const escaped = [
      t.dataDir,
      filesRoot,
      path.join(filesRoot, 'commercialLicenses'),
      path.dirname(t.dataDir),
      process.cwd(),
      '/etc',
      '/tmp',
    ].flatMap((dir) =>
      ESCAPE_NAMES.map((name) => path.join(dir, name)).filter((file) => {
        if (!fs.existsSync(file)) return false;
        // /etc/passwd exists on every machine: only a file written during this run would count.
        return fs.statSync(file).mtimeMs > startedAt;
      }),
    );
    // Whatever path led there (corpus, mutations, limits), every kept file starts as a JPEG, PNG or PDF.
    const notImages = files.filter((f) => expectedType(fs.readFileSync(fileOf(f)).subarray(0, 8)) === null);
    acceptedNonImage = notImages.length;
    orphanOrOutside = misplaced.length + orphans.length + partial.length + escaped.length;
    expect(notImages).toEqual([]);
    expect({ misplaced, orphans, missing, partial, escaped }).toEqual({
      misplaced: [],
      orphans: [],
      missing: [],
      partial: [],
      escaped: [],
    });
    expect(files.length).toBeGreaterThan(25);
  });
});

describe('figures', () => {
  it('records the upload corpus', () => {
    recordFigure('upload-corpus', {
      checks: ['UP-01', 'UP-02', 'UP-03', 'UP-04', 'UP-05', 'UP-06', 'UP-07', 'UP-08', 'UP-09'],
      label: 'Upload corpus',
      values: {
        handCrafted: CORPUS.length,
        mutated,
        mutatedAccepted,
        mutationSeed,
        acceptedNonImage,
        orphanOrOutside,
        reencode: false,
        ...floodFigures,
      },
    });
    expect(mutated).toBeGreaterThanOrEqual(runs(1000, 10000));
  });
});
