import { ATTACHMENT_LIMITS, type AttachmentKind } from '../../../contracts/attachments.ts';

export interface CleanImage {
  /** The photo re-encoded: turned upright, at most 4096 px a side, with no metadata at all. */
  data: Buffer;
  width: number;
  height: number;
  /** A WebP at most 480 px a side. */
  thumbnail: Buffer;
}

export class UnreadableImageError extends Error {
  override name = 'UnreadableImageError';
}

const LOADER = { jpg: 'jpeg', png: 'png', webp: 'webp' } as const;

/** sharp (libvips) is loaded at the first upload, not at every start and command-line run. */
const importSharp = () =>
  import('sharp').then(({ default: sharp }) => {
    // libvips keeps a cache of decoded images for reuse; a server decodes each upload once.
    sharp.cache(false);
    return sharp;
  });
let loaded: ReturnType<typeof importSharp> | undefined;
const loadSharp = () => (loaded ??= importSharp());

/**
 * Re-encodes an uploaded photo so that nothing but its pixels is kept (docs/decisions/095): EXIF
 * (GPS position, camera, time), XMP, IPTC, comments and PNG text chunks are all dropped, because
 * sharp writes no metadata unless asked to. The EXIF orientation is applied first, so a phone photo
 * stays upright once its orientation tag is gone. Bytes that do not decode cleanly (truncated,
 * corrupt: `failOn: 'warning'`) and images declaring more than 50 megapixels (a pixel flood, refused
 * from its header, before decoding) are refused.
 */
export async function cleanImage(input: Buffer, kind: Exclude<AttachmentKind, 'pdf'>): Promise<CleanImage> {
  const sharp = await loadSharp();
  try {
    const source = () =>
      sharp(input, { failOn: 'warning', limitInputPixels: ATTACHMENT_LIMITS.maxInputPixels, animated: false });
    // libvips picks its loader from the bytes too; it must be the one our own check chose, never
    // another (its SVG or PDF loaders must not see user input).
    const { format } = await source().metadata();
    if (format !== LOADER[kind]) throw new Error(`decoded as ${String(format)}, not ${kind}`);
    const upright = source().rotate().resize({
      width: ATTACHMENT_LIMITS.maxImageSide,
      height: ATTACHMENT_LIMITS.maxImageSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
    const encoded =
      kind === 'jpg' ? upright.jpeg({ quality: 85 }) : kind === 'png' ? upright.png() : upright.webp({ quality: 85 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(data)
      .resize({
        width: ATTACHMENT_LIMITS.thumbnailSide,
        height: ATTACHMENT_LIMITS.thumbnailSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 75 })
      .toBuffer();
    return { data, width: info.width, height: info.height, thumbnail };
  } catch (error) {
    throw new UnreadableImageError(error instanceof Error ? error.message : String(error));
  }
}
