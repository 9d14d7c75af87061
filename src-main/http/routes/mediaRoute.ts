import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { ImageBytesSchema, StoredImageSchema } from '../../../src-shared/schema/media';
import { ApiError } from '../../core/errors';
import { isRawCid } from '../../core/media/cid';
import { IMAGE_TYPES } from '../../core/media/sniffImage';
import type { MediaStore, StoredImage } from '../../services/mediaStore';
import type { AppEnv } from '../env';
import { describeContentType, mediaType } from '../mediaType';
import { rateLimit } from '../middleware/rateLimit';
import { errorResponses } from '../schemas';

/** The upload path under /api/v1. Its body is the image itself, so the JSON body middleware must leave it alone. */
export const MEDIA_UPLOAD_PATH = '/media/image';
/** The spec's limit: 20 image uploads per minute per client. */
export const UPLOADS_PER_MINUTE = 20;

export interface MediaRouteOptions {
  /** Uploads per client per minute (the spec's 20 by default); false switches the limit off. */
  uploadsPerMinute?: number | false;
}

const uploadRoute = createRoute({
  method: 'post',
  path: MEDIA_UPLOAD_PATH,
  summary: 'Store a token logo',
  description:
    'The body is the raw image (PNG, JPEG, GIF or WebP, up to 5 MB) with its Content-Type; no JSON, no form data. ' +
    'The type is read from the bytes; a Content-Type naming another type is refused. The same bytes always give the ' +
    'same CID. 20 uploads per minute per client.',
  request: {
    body: {
      required: true,
      content: Object.fromEntries(
        Object.values(IMAGE_TYPES).map((entry) => [entry.mime, { schema: ImageBytesSchema }]),
      ),
    },
  },
  responses: {
    200: { description: 'The stored image', content: { 'application/json': { schema: StoredImageSchema } } },
    ...errorResponses(413, 415, 429, 503),
  },
});

/**
 * UNSUPPORTED_IMAGE unless the upload declares an image type. A page on another site can make a browser send a body
 * as text/plain or a form, or with no type at all, without asking first; never as an image.
 */
function requireImageType(contentType: string | undefined): void {
  if (mediaType(contentType).startsWith('image/')) return;
  throw new ApiError(
    'UNSUPPORTED_IMAGE',
    `the upload is sent with ${describeContentType(contentType)}, not an image type`,
    {
      fix: "Send the image file itself with its type, for example curl -H 'Content-Type: image/png' --data-binary @logo.png.",
    },
  );
}

/** The answer of an upload. */
function storedImageJson(stored: StoredImage) {
  return { url: stored.url, uri: stored.uri, cid: stored.cid, type: stored.type, bytes: stored.bytes };
}

/** `POST /media/image` on the v1 app: the raw image body, stored by CID. */
export function mediaRoute(app: OpenAPIHono<AppEnv>, media: MediaStore, options: MediaRouteOptions = {}): void {
  const perMinute = options.uploadsPerMinute ?? UPLOADS_PER_MINUTE;
  if (perMinute !== false)
    app.use(MEDIA_UPLOAD_PATH, rateLimit({ perMinute, what: 'image uploads', policy: 'uploads' }));
  // The body is the image itself, read by the store (streamed, capped at 5 MB): no schema validator runs on bytes.
  app.openapi(uploadRoute, async (c) => {
    requireImageType(c.req.header('content-type'));
    const stored = await media.receiveImage(
      c.req.raw.body,
      c.req.header('content-type'),
      c.req.header('content-length'),
    );
    return c.json(storedImageJson(stored), 200);
  });
}

/**
 * `GET /media/:cid` on the root app: stored bytes as they were uploaded (another person's logo the cache removed is
 * fetched again first, while fetching those is on). A CID names its content for ever, so the
 * answer may be cached without end; nosniff and a closed CSP keep a browser from treating it as anything but data.
 */
export function mediaServeRoute(app: Hono, media: MediaStore): void {
  app.get('/media/:cid', async (c) => {
    const cid = c.req.param('cid');
    // Malformed CIDs never reach the store, so no path can be smuggled in.
    const file = isRawCid(cid) ? await media.serve(cid) : null;
    if (!file) throw new ApiError('NOT_FOUND', `no media is stored here as ${cid.slice(0, 80)}`);
    const headers = {
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      ETag: `"${cid}"`,
    };
    if (c.req.header('if-none-match') === `"${cid}"`) return c.body(null, 304, headers);
    return c.body(file.bytes, 200, { ...headers, 'Content-Type': file.mime });
  });
}
