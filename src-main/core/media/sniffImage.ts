/**
 * Image types the service accepts (the spec's PNG, JPG, GIF and WebP), told apart by the bytes themselves: a file
 * name or a Content-Type can say anything, the first bytes of a file cannot lie about its format.
 */

export type ImageType = 'png' | 'jpeg' | 'gif' | 'webp';

export interface SniffedImage {
  type: ImageType;
  /** The Content-Type the image is served with. */
  mime: string;
}

/** Per type: the Content-Type it is served with, the file extension it is stored under, and the names it goes by. */
export const IMAGE_TYPES: Readonly<
  Record<ImageType, { mime: string; extension: string; declaredAs: readonly string[] }>
> = {
  png: { mime: 'image/png', extension: 'png', declaredAs: ['image/png', 'image/apng', 'image/x-png'] },
  // image/jpg and image/pjpeg are not registered, but common enough in the wild to accept as declarations.
  jpeg: { mime: 'image/jpeg', extension: 'jpg', declaredAs: ['image/jpeg', 'image/jpg', 'image/pjpeg'] },
  gif: { mime: 'image/gif', extension: 'gif', declaredAs: ['image/gif'] },
  webp: { mime: 'image/webp', extension: 'webp', declaredAs: ['image/webp'] },
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, expected: readonly number[], at = 0): boolean {
  if (bytes.length < at + expected.length) return false;
  return expected.every((byte, i) => bytes[at + i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

/**
 * The image type of `bytes` from its magic number, or null when it is none of PNG, JPEG, GIF or WebP.
 *
 * @example sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])) // { type: 'jpeg', mime: 'image/jpeg' }
 */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  let type: ImageType | null = null;
  if (startsWith(bytes, PNG_SIGNATURE)) type = 'png';
  // SOI marker followed by the first marker's 0xFF: every JFIF, EXIF and raw JPEG starts so.
  else if (startsWith(bytes, [0xff, 0xd8, 0xff])) type = 'jpeg';
  else if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) type = 'gif';
  // A RIFF container (4 bytes of size follow the tag) whose form type is WEBP.
  else if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) type = 'webp';
  return type === null ? null : { type, mime: IMAGE_TYPES[type].mime };
}

/** A Content-Type header reduced to its lower-case media type, without parameters ("Image/PNG; x=1" -> "image/png"). */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The image type a Content-Type declares: one of ours, `'other-image'` for an image type we do not take (SVG, AVIF…),
 * or null when it does not name an image at all (JSON, form data, text).
 *
 * @example declaredImageType('image/jpg') // 'jpeg'
 */
export function declaredImageType(contentType: string): ImageType | 'other-image' | null {
  const mediaType = mediaTypeOf(contentType);
  for (const [type, entry] of Object.entries(IMAGE_TYPES) as [ImageType, (typeof IMAGE_TYPES)[ImageType]][]) {
    if (entry.declaredAs.includes(mediaType)) return type;
  }
  return mediaType.startsWith('image/') ? 'other-image' : null;
}
