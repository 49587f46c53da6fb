import fs from 'node:fs';
import path from 'node:path';

/**
 * Packages that render HTML, PDF or images on a server (osTicket CVE-2026-22200: ticket HTML fed to
 * mPDF read server files; catalogue HDR-13). None may ship in production without a decision record.
 */
export const SERVER_RENDERERS: ReadonlySet<string> = new Set([
  'puppeteer',
  'puppeteer-core',
  'playwright',
  'playwright-core',
  'wkhtmltopdf',
  'wkhtmltoimage',
  'html-pdf',
  'html-pdf-node',
  'pdfkit',
  'pdfmake',
  'jspdf',
  'mpdf',
  'dompdf',
  'pdf-lib',
  '@react-pdf/renderer',
  'phantomjs',
  'phantomjs-prebuilt',
  'html2canvas',
  'html-to-image',
  'node-html-to-image',
  'canvas',
  'sharp',
  'jimp',
  'gm',
  'satori',
  '@resvg/resvg-js',
  'chrome-aws-lambda',
  '@sparticuz/chromium',
  'electron',
  'mathjax-node',
  'svg2img',
]);

/**
 * Renderers reviewed and allowed in production, each with the decision record that says why and
 * how its input is bounded. sharp decodes only bytes already recognised as JPEG, PNG or WebP (its
 * SVG, PDF and other loaders never see user input) to strip a photo's metadata (decision 095).
 */
export const REVIEWED_RENDERERS: ReadonlyMap<string, string> = new Map([
  ['sharp', 'docs/decisions/095-chat-attachments.md'],
]);

/** Production packages that render and have not been reviewed (must be none). */
export function unreviewedRenderers(root = path.resolve(import.meta.dirname, '..', '..')): string[] {
  for (const record of REVIEWED_RENDERERS.values())
    if (!fs.existsSync(path.join(root, record))) throw new Error(`${record} is missing`);
  return productionPackages(root).filter((name) => SERVER_RENDERERS.has(name) && !REVIEWED_RENDERERS.has(name));
}

/** What production installs: package.json dependencies and every lockfile package not marked dev. */
export function productionPackages(root = path.resolve(import.meta.dirname, '..', '..')): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const installed = Object.entries(lock.packages)
    .filter(([key, meta]) => key.includes('node_modules/') && !meta.dev)
    .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
  return [...new Set([...Object.keys(pkg.dependencies ?? {}), ...installed])];
}
