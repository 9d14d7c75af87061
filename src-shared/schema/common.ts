import { z } from 'zod';
import { ERROR_CODES } from './errorCodes';

/*
 * The wire's building blocks. Written with plain zod so the renderer and the inspector can use them without hono; the
 * OpenAPI facts sit in `.meta()`, which @hono/zod-openapi reads: `id` names the component, `description` and
 * `example` go into the document as they are.
 */

/** A 0x address: 0x and 40 hex digits, either case (checksums are not checked here). */
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

export const AddressSchema = z
  .string()
  .regex(ADDRESS_PATTERN, 'an address is 0x and 40 hex digits')
  .meta({ description: '0x followed by 40 hex digits', example: '0x000000000022D473030F116dDEE9F6B43aC78BA3' });

/** A string's size as the spec counts it: UTF-8 bytes. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

export const WeiSchema = z.string().regex(/^\d+$/).meta({ description: 'amount in wei, digits only', example: '0' });

export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).meta({ description: 'stable; what clients act on' }),
      message: z.string().meta({ description: 'what was wrong' }),
      fix: z.string().optional().meta({ description: 'what to do about it' }),
      field: z.string().optional().meta({ description: 'the request field that was wrong' }),
      detail: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ErrorListSchema = z
  .object({
    errors: z.array(
      z.object({
        code: z.string(),
        status: z.number().int(),
        meaning: z.string(),
        cause: z.string().optional(),
        fix: z.string(),
        retry: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'ErrorList' });

/** Cost of a build in BNB: the gas price, and the most the gas can cost. */
export const CostSchema = z.object({ gasPriceWei: z.string(), maxWei: z.string(), max: z.string() });
