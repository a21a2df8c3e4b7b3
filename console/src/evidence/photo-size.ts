/** How big a shrunk photo is and what it is called, pure (no DOM), so it is tested without a browser. */

/** The long side a photo is shrunk to, at most (contract section 15). */
export const LONG_SIDE = 2560;

/** The size that fits `long` on the long side, or the size itself when it already does. */
export function fitted(width: number, height: number, long = LONG_SIDE): { width: number; height: number } {
  const scale = Math.min(1, long / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The file's name with a `.jpg` ending. */
export const jpegName = (name: string) => `${name.replace(/\.[^./\\]{1,5}$/, '') || 'photo'}.jpg`;
