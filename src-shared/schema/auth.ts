import { z } from 'zod';
import { AddressSchema } from './common';

/** A challenge to sign (API keys, referrer registration, browser sign-in). */
export const ChallengeSchema = z
  .object({
    nonce: z.string(),
    expires: z.number().int().meta({ description: 'Unix milliseconds, 5 minutes after issue' }),
    message: z.string().meta({ description: 'the exact text to sign with personal_sign (EIP-191)' }),
    next: z.string().meta({ description: 'what to send the signature with' }),
  })
  .meta({ id: 'Challenge' });

export const ChallengeQuerySchema = z.object({
  address: z.string().meta({ description: 'the wallet that will sign' }),
});

/** A signed challenge, as each endpoint that redeems one takes it. */
export const SignedBodySchema = z.object({
  nonce: z.string().meta({ description: 'the challenge nonce' }),
  signature: z.string().meta({ description: 'personal_sign of the challenge message, 0x and 130 hex digits' }),
});

/** A browser's sign-in (/api/auth/session). */
export const SessionSchema = z
  .object({ wallet: AddressSchema, createdAt: z.string(), expiresAt: z.string() })
  .meta({ id: 'Session' });

export const SessionQuerySchema = z.object({ wallet: z.string().optional() });

export const SignedOutSchema = z.object({ signedOut: z.literal(true) });
