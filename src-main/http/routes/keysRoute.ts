import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
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
import type { ApiKeys } from '../../services/apiKeys';
import type { Challenges } from '../../services/challenges';
import type { Sessions } from '../../services/sessions';
import type { AppEnv } from '../env';
import { APP_TOKEN_HEADER, sentByApp } from '../intentCallerOf';
import { errorResponses } from '../schemas';
import { signedInAs } from './authRoutes';

const security = [{ apiKey: [] }];

const routes = {
  challenge: createRoute({
    method: 'get',
    path: '/keys/challenge',
    summary: 'A challenge to sign to create an API key',
    request: { query: ChallengeQuerySchema },
    responses: {
      200: { description: 'Challenge', content: { 'application/json': { schema: ChallengeSchema } } },
      ...errorResponses(400, 429, 503),
    },
  }),
  create: createRoute({
    method: 'post',
    path: '/keys',
    summary: 'Create an API key for the wallet that signed a key challenge; the key is shown this once',
    description:
      "With the run's token in x-app-token (the app itself), the key may carry a `budget` of its own: its quotes and " +
      "builds then count against it instead of their address's limits. A key made without the token adds nothing to " +
      "its address's allowance.",
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
      ...errorResponses(400, 401, 413, 503),
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

/**
 * The wallet whose keys a request may see, found before the request's input is read: its API key's, or else its
 * browser session's (NO_SESSION, SESSION_EXPIRED); API_KEY_REQUIRED with neither.
 */
function keyOwner(sessions: Sessions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.get('apiKey');
    const secret = c.get('sessionSecret');
    if (key) c.set('keyOwner', { wallet: key.wallet, signedIn: false });
    else if (secret !== undefined) c.set('keyOwner', { wallet: sessions.get(secret).wallet, signedIn: true });
    else {
      throw new ApiError('API_KEY_REQUIRED', 'this endpoint needs an API key in the x-api-key header', {
        fix: 'Send a key of the wallet in x-api-key (create one with GET /keys/challenge, then POST /keys).',
      });
    }
    await next();
  };
}

/** The key owner `keyOwner` found. */
function ownerOf(c: Context<AppEnv>): Address {
  const owner = c.get('keyOwner');
  if (!owner) throw new Error('the keyOwner middleware did not run');
  return owner.wallet;
}

/**
 * A budget is the app owner's to give: a request with one needs the run's token (x-app-token), checked before the
 * signed challenge is used up. Anyone else's key would be a free allowance for one throwaway signature.
 */
function requireOwnerForBudget(c: Context, appToken: string | undefined): void {
  if (sentByApp(c, appToken)) return;
  throw new ApiError('INVALID_BODY', "only the app's owner can give a key a budget of its own", {
    field: 'budget',
    fix: `Leave out budget (the key then shares its address's limits), or create the key on the app's API keys page, which sends the run's token in ${APP_TOKEN_HEADER}.`,
  });
}

/** API keys; `appToken` is the run's token, with which the app itself may give a new key a budget. */
export function keysRoute(
  app: OpenAPIHono<AppEnv>,
  challenges: Challenges,
  keys: ApiKeys,
  sessions: Sessions,
  appToken?: string,
): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
  });
  // Keys switched off answer KEYS_OFF, and a request for keys without a key or a session API_KEY_REQUIRED, whatever
  // its input: both before the input is read.
  const enabled: MiddlewareHandler<AppEnv> = async (_c, next) => {
    keys.requireEnabled();
    await next();
  };
  const owner = keyOwner(sessions);
  app.openapi({ ...routes.challenge, middleware: [enabled] as const }, (c) =>
    c.json(challenges.issue('key', c.req.valid('query').address), 200),
  );
  app.openapi({ ...routes.create, middleware: [enabled] as const }, async (c) => {
    const { label, nonce, signature, budget = null } = c.req.valid('json');
    if (budget !== null) requireOwnerForBudget(c, appToken);
    return c.json(
      await challenges.redeem('key', nonce, signature, (wallet) => keys.create(wallet, label, budget)),
      201,
    );
  });
  app.openapi({ ...routes.list, middleware: [enabled, owner] as const }, (c) => {
    const wallet = ownerOf(c);
    const named = c.req.valid('query').wallet;
    if (c.get('keyOwner')?.signedIn && named !== undefined) signedInAs(wallet, named);
    return c.json({ wallet, keys: keys.list(wallet) }, 200);
  });
  app.openapi({ ...routes.revoke, middleware: [enabled, owner] as const }, (c) =>
    c.json({ key: keys.revoke(ownerOf(c), c.req.valid('param').id) }, 200),
  );
}
