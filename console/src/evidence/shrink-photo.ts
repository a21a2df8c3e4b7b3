import { fitted, jpegName } from './photo-size';

/**
 * Photos shrink in the browser before they are uploaded (contract section 15): at most 2,560 px
 * on the long side, JPEG, drawn through a canvas. A phone's 12-megapixel photo of 4-6 MB becomes
 * well under 1 MB; the re-encoding also drops the photo's metadata (its GPS position among it).
 * What the browser cannot decode (HEIC in most browsers) or what would not get smaller is sent
 * as it is.
 */

const QUALITY = 0.85;
const DECODABLE = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** What is uploaded: the file or its shrunk photo, with its name and type. */
export interface Prepared {
  body: Blob;
  name: string;
  contentType: string;
  /** Bytes chosen, bytes that go up, and the time the shrink took. */
  measured?: { bytesIn: number; bytesOut: number; ms: number };
}

/** A file ready to upload: a photo shrunk and made JPEG, anything else as chosen. */
export async function preparePhoto(file: File): Promise<Prepared> {
  const as = { body: file as Blob, name: file.name || 'file', contentType: file.type || 'application/octet-stream' };
  if (!DECODABLE.has(file.type)) return as;
  const started = performance.now();
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return as;
  }
  const original = { width: bitmap.width, height: bitmap.height };
  const { width, height } = fitted(original.width, original.height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return as;
  // JPEG has no transparency: a PNG's clear parts become white, not black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const jpeg = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', QUALITY));
  canvas.width = 0;
  if (!jpeg) return as;
  const shrunk = width < original.width || file.type !== 'image/jpeg';
  if (!shrunk && jpeg.size >= file.size) return as;
  return {
    body: jpeg,
    name: jpegName(as.name),
    contentType: 'image/jpeg',
    measured: { bytesIn: file.size, bytesOut: jpeg.size, ms: Math.round(performance.now() - started) },
  };
}
