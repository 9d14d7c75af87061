import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Address } from 'viem';
import { ChallengeQuerySchema, ChallengeSchema } from '../../../src-shared/schema/auth';
import {
  CreatedKeySchema,
  CreateKeyBodySchema,
  KeyIdParamsSchema,
  KeyListSchema,
  KeysQuerySchema,
  RevokedKeySchema,
} from '../../../src-shared/schema/keys';
import { ApiError } from '../../core/errors';
import { readAddress } from '../../core/units/readAddress';
import type { ApiKeys } from '../../services/apiKeys';
import type { Challenges } from '../../services/challenges';
import type { Sessions } from '../../services/sessions';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { signedIn } from './authRoutes';

const security = [{ apiKey: [] }];

const routes = {
  challenge: createRoute({
    method: 'get',
    path: '/keys/challenge',
    summary: 'A challenge to sign to create an API key',
    request: { query: ChallengeQuerySchema },
    responses: {
      200: { description: 'Challenge', content: { 'application/json': { schema: ChallengeSchema } } },
      ...errorResponses(400, 503),
    },
  }),
  create: createRoute({
    method: 'post',
    path: '/keys',
    summary: 'Create an API key for the wallet that signed a key challenge; the key is shown this once',
    request: {
      body: {
        content: {
          'application/json': { schema: CreateKeyBodySchema },
        },
        required: true,
      },
    },
    responses: {
      201: {
        description: 'The new key',
        content: {
          'application/json': { schema: CreatedKeySchema },
        },
      },
      ...errorResponses(400, 401, 503),
    },
  }),
  list: createRoute({
    method: 'get',
    path: '/keys',
    summary: "The keys of the calling key's wallet (or the signed-in browser's), revoked ones included",
    security,
    request: { query: KeysQuerySchema },
    responses: {
      200: {
        description: 'Keys',
        content: {
          'application/json': { schema: KeyListSchema },
        },
      },
      ...errorResponses(401, 503),
    },
  }),
  revoke: createRoute({
    method: 'delete',
    path: '/keys/{id}',
    summary: "Revoke one of the calling key's wallet's keys (the calling key itself included)",
    security,
    request: { params: KeyIdParamsSchema },
    responses: {
      200: {
        description: 'The revoked key',
        content: { 'application/json': { schema: RevokedKeySchema } },
      },
      ...errorResponses(400, 401, 404, 503),
    },
  }),
};

/** The wallet whose keys a request may see: its API key's, or else its browser session's. */
function callerWallet(c: Context<AppEnv>, sessions: Sessions): Address {
  const key = c.get('apiKey');
  if (key) return key.wallet;
  const secret = c.get('sessionSecret');
  if (secret !== undefined) return signedIn(sessions, secret, c.req.query('wallet')).wallet;
  throw new ApiError('API_KEY_REQUIRED', 'this endpoint needs an API key in the x-api-key header', {
    fix: 'Send a key of the wallet in x-api-key (create one with GET /keys/challenge, then POST /keys).',
  });
}

export function keysRoute(app: OpenAPIHono<AppEnv>, challenges: Challenges, keys: ApiKeys, sessions: Sessions): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
  });
  app.openapi(routes.challenge, (c) => {
    keys.requireEnabled();
    return c.json(challenges.issue('key', readAddress(c.req.query('address'), 'address')), 200);
  });
  app.openAPIRegistry.registerPath(routes.create);
  app.post('/keys', async (c) => {
    const body = c.get('body');
    keys.requireEnabled();
    // The label is checked first, so a mistyped one does not use up the signed challenge.
    keys.checkLabel(body.label);
    return c.json(
      await challenges.redeem('key', body.nonce, body.signature, (wallet) => keys.create(wallet, body.label)),
      201,
    );
  });
  app.openapi(routes.list, (c) => {
    keys.requireEnabled();
    const wallet = callerWallet(c, sessions);
    return c.json({ wallet, keys: keys.list(wallet) }, 200);
  });
  app.openapi(routes.revoke, (c) => {
    keys.requireEnabled();
    const wallet = callerWallet(c, sessions);
    return c.json({ key: keys.revoke(wallet, c.req.param('id')) }, 200);
  });
}
