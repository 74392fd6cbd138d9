/**
 * Large photos are scaled down before they are sent (DESIGN.md §9), the original staying in the store: vision
 * encoders downscale anyway, and a 12-megapixel JPEG is ~5 MB of base64 per request. The longest side is
 * bounded, and the EXIF orientation is applied to the pixels, since most vision encoders ignore the tag and
 * would see a phone photo sideways. sharp (libvips) does the work on its own threads, off the event loop; it
 * loads with the first image (a tenth of a second that the app's start does not pay, bench/start).
 */

/** Longest side sent: Anthropic's documented no-resize size, and above what local vision encoders tile to. */
export const MAX_IMAGE_SIDE = 1568;
/** More pixels than any camera makes: a decompression bomb is refused before it is decoded. */
const MAX_INPUT_PIXELS = 120_000_000;

export type FittedImage =
  /** The original can be sent as it is. */
  | { changed: false; width: number; height: number }
  /** A scaled or turned copy to send instead. */
  | { changed: true; bytes: Uint8Array; mime: string; width: number; height: number };

type Sharp = (typeof import('sharp'))['default'];

/**
 * `'damaged'` when the bytes carry an image's signature but their pixels cannot be decoded (a PNG cut short, a
 * half-downloaded JPEG): no model can see it, and sent, it fails the answer (attachments audit #8). Undefined
 * when the image could not be looked at for another reason (sharp not loaded, over the pixel limit): the original
 * is then sent as stored and the server decides.
 */
export async function fitImage(bytes: Uint8Array, mime: string): Promise<FittedImage | 'damaged' | undefined> {
  let sharp: Sharp;
  try {
    sharp = (await import('sharp')).default;
  } catch {
    return undefined;
  }
  try {
    return await fit(sharp, bytes, mime);
  } catch (err) {
    return isPixelLimit(err) ? undefined : 'damaged';
  }
}

async function fit(sharp: Sharp, bytes: Uint8Array, mime: string): Promise<FittedImage | 'damaged'> {
  const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  const meta = await image.metadata();
  if (!meta.width || !meta.height) return 'damaged';
  // Orientations 5-8 swap width and height once applied.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  const rotate = (meta.orientation ?? 1) !== 1;
  if (!rotate && Math.max(width, height) <= MAX_IMAGE_SIDE) {
    // The header can be whole while the pixels after it are not: decoded once, so a cut file is known now.
    await image.clone().raw().toBuffer();
    return { changed: false, width, height };
  }
  const pipeline = image.rotate().resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
  const out = mime === 'image/jpeg'
    ? await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer({ resolveWithObject: true })
    : mime === 'image/webp'
      ? await pipeline.webp({ quality: 85 }).toBuffer({ resolveWithObject: true })
      : await pipeline.png().toBuffer({ resolveWithObject: true });
  const outMime = mime === 'image/jpeg' || mime === 'image/webp' ? mime : 'image/png';
  return { changed: true, bytes: new Uint8Array(out.data), mime: outMime, width: out.info.width, height: out.info.height };
}

/** sharp's refusal of a decompression bomb: not damage, and left to the server as before. */
function isPixelLimit(err: unknown): boolean {
  return err instanceof Error && /pixel limit/i.test(err.message);
}
