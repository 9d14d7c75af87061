import type { components } from '../../../clients/ts/src/index';
import type { ApiError } from '../api/apiRequestError';
import { answerOf, api } from '../api/client';

/** The spec's image limits: these types, up to 5 MB. */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The answer of POST /media/image: `uri` (ipfs://<cid>) and `url` are both usable as a launch's `image`. */
export type StoredImage = components['schemas']['StoredImage'];

/**
 * Why a picked file cannot be a logo, as the service's code, checked before sending 5 MB for nothing; null when it
 * may go. The service reads the type from the bytes and has the last word.
 */
export function imageFileProblem(file: { type: string; size: number }): ApiError | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    return {
      code: 'UNSUPPORTED_IMAGE',
      message: `A logo must be a PNG, JPG, GIF or WebP image${file.type ? `, not ${file.type}` : ''}.`,
      fix: 'Pick an image file of one of those types.',
    };
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return {
      code: 'IMAGE_TOO_LARGE',
      message: `The image is ${(file.size / 1024 / 1024).toFixed(1)} MB; at most 5 MB is allowed.`,
      fix: 'Pick a smaller image, or shrink this one.',
    };
  }
  return null;
}

/** Stores the file on the service: the raw bytes with the file's own Content-Type, as the upload route expects. */
export function uploadImage(file: File): Promise<StoredImage> {
  return answerOf(
    api.POST('/media/image', {
      // Typed as a string (binary) by the document; the File goes out as it is, with its own Content-Type.
      body: file as never,
      bodySerializer: () => file,
      headers: { 'content-type': file.type },
    }),
  );
}

/** The file as a data: URL, for the preview (the page's CSP allows data: images, not blob: ones). */
export function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}
