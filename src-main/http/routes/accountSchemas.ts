import { z } from '@hono/zod-openapi';

export const ChallengeSchema = z
  .object({
    nonce: z.string(),
    expires: z.number().int().openapi({ description: 'Unix milliseconds, 5 minutes after issue' }),
    message: z.string().openapi({ description: 'the exact text to sign with personal_sign (EIP-191)' }),
    next: z.string().openapi({ description: 'what to send the signature with' }),
  })
  .openapi('Challenge');

export const ChallengeQuerySchema = z.object({
  address: z.string().openapi({ description: 'the wallet that will sign' }),
});

export const SignedBodySchema = z.object({
  nonce: z.string().openapi({ description: 'the challenge nonce' }),
  signature: z.string().openapi({ description: 'personal_sign of the challenge message, 0x and 130 hex digits' }),
});
