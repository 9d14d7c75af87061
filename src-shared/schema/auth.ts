import type { Hex } from 'viem';
import { z } from 'zod';
import { AddressSchema } from './common';
import { addressField, addressParam, closedBody, patternField } from './requestRules';

/** A challenge to sign (API keys, referrer registration, browser sign-in). */
export const ChallengeSchema = z
  .object({
    nonce: z.string(),
    expires: z.number().int().meta({ description: 'Unix milliseconds, 5 minutes after issue' }),
    message: z.string().meta({ description: 'the exact text to sign with personal_sign (EIP-191)' }),
    next: z.string().meta({ description: 'what to send the signature with' }),
  })
  .meta({ id: 'Challenge' });

/** The query of the v1 challenge endpoints (keys, referrals): the wallet that will sign. */
export const ChallengeQuerySchema = z.object({
  address: addressParam('address').meta({ description: 'the wallet that will sign' }),
});

/** Sign-in's challenge query (/api/auth/challenge), where a missing address is refused as any other non-address. */
export const SignInChallengeQuerySchema = z.object({
  address: addressField('address').meta({ description: 'the wallet that will sign' }),
});

const SIGNATURE_PATTERN = /^0x[0-9a-fA-F]{130}$/;

/**
 * A signed challenge, as each endpoint that redeems one takes it: the nonce, then the signature, each
 * INVALID_SIGNATURE when missing or malformed. Whether the nonce is one of ours, unused and unexpired, and the
 * signature its wallet's, is the challenge store's to say.
 */
export const SignedFields = z.object({
  nonce: z
    .custom<string>((nonce) => typeof nonce === 'string' && nonce !== '', {
      error: 'nonce is missing: send the nonce of the challenge you signed',
      params: { code: 'INVALID_SIGNATURE', field: 'nonce' },
    })
    .meta({ type: 'string', minLength: 1, description: 'the challenge nonce' }),
  signature: patternField(SIGNATURE_PATTERN, (signature) => ({
    code: 'INVALID_SIGNATURE',
    field: 'signature',
    message:
      typeof signature === 'string' && signature !== ''
        ? 'signature is not a 65-byte signature (0x followed by 130 hex digits)'
        : 'signature is missing: sign the challenge message with personal_sign',
  }))
    .transform((signature) => signature as Hex)
    .meta({ description: 'personal_sign of the challenge message, 0x and 130 hex digits' }),
});

/** The body of the endpoints that redeem a challenge alone (referrer registration, browser sign-in). */
export const SignedBodySchema = closedBody(SignedFields);

/** A browser's sign-in (/api/auth/session). */
export const SessionSchema = z
  .object({ wallet: AddressSchema, createdAt: z.string(), expiresAt: z.string() })
  .meta({ id: 'Session' });

/** GET /api/auth/session's query: the wallet the page means, when it names one (SESSION_WALLET_MISMATCH otherwise). */
export const SessionQuerySchema = z.object({
  wallet: addressField('wallet').optional().meta({ description: 'the wallet meant (SESSION_WALLET_MISMATCH)' }),
});

export const SignedOutSchema = z.object({ signedOut: z.literal(true) });
