import { z } from 'zod';

/** The body of POST /media/image: the image file itself, with its own Content-Type (no JSON, no form data). */
export const ImageBytesSchema = z.string().meta({ format: 'binary', description: 'the image file itself' });

/** The answer of POST /media/image: where the stored logo is served, and what it is. */
export const StoredImageSchema = z
  .object({
    url: z.string().meta({
      description: 'where this server serves the image (GET /media/{cid}); usable as a launch image',
      example: 'http://127.0.0.1:8787/media/bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    }),
    uri: z.string().meta({
      description: 'ipfs://<cid>: the same for the same bytes anywhere; usable as a launch image',
      example: 'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    }),
    cid: z.string().meta({ description: 'CIDv1, raw codec, sha2-256, base32' }),
    type: z.enum(['png', 'jpeg', 'gif', 'webp']).meta({ description: 'the image type, read from the bytes' }),
    bytes: z.number().int().meta({ description: 'size in bytes' }),
  })
  .meta({ id: 'StoredImage' });
