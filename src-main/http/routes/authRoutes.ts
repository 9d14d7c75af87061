import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { Address } from 'viem';
import {
  ChallengeSchema,
  SessionQuerySchema,
  SessionSchema,
  SignedBodySchema,
  SignedOutSchema,
  SignInChallengeQuerySchema,
} from '../../../src-shared/schema/auth';
import type { ChainContext } from '../../chain/connectChain';
import { ApiError } from '../../core/errors';
import { chainRead } from '../../services/chainRead';
import type { Challenges } from '../../services/challenges';
import { SESSION_COOKIE, SESSION_TTL_MS, type Session, type Sessions } from '../../services/sessions';
import type { AppEnv } from '../env';
import { jsonBody } from '../middleware/jsonBody';
import { ownOrigin } from '../middleware/sameOriginWrites';
import { sessionCookie } from '../middleware/sessionCookie';
import { errorResponses } from '../schemas';
import { validationHook } from '../validationHook';

export const AUTH_BASE = '/api/auth';

/** SMART_WALLET_UNSUPPORTED for an address with code: a contract's signature cannot be checked by recovery. */
async function refuseContracts(chain: ChainContext, address: Address): Promise<void> {
  const code = await chainRead('the wallet', () => chain.client.getCode({ address }));
  if (code && code !== '0x') {
    throw new ApiError('SMART_WALLET_UNSUPPORTED', `${address} is a contract; only a wallet's own key can sign in`, {
      fix: 'Sign in with a plain wallet (an externally owned account).',
    });
  }
}

/**
 * ORIGIN_NOT_ALLOWED unless the request's Origin is this server's own (the page it serves). Stricter than for other
 * writes: sign-in is for a browser, so no Origin is refused too.
 */
function requireOwnOrigin(origin: string | undefined, host: string | undefined): void {
  if (!origin || !host || origin.toLowerCase() !== ownOrigin(host)) {
    throw new ApiError(
      'ORIGIN_NOT_ALLOWED',
      `sign-in is only taken from this server's own page, not from ${origin ?? 'no origin'}`,
      {
        fix: "Sign in from the app's page served by this server.",
      },
    );
  }
}

const sessionJson = (session: Session) => ({
  wallet: session.wallet,
  createdAt: session.createdAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
});

/**
 * SESSION_WALLET_MISMATCH when a request signed in as `wallet` names another wallet (`named`, as its schema read it).
 */
export function signedInAs(wallet: Address, named: Address): void {
  if (named !== wallet) {
    throw new ApiError('SESSION_WALLET_MISMATCH', `signed in as ${wallet}, not as ${named}`, {
      field: 'wallet',
      fix: 'Sign in with the wallet the request names, or name the signed-in wallet.',
    });
  }
}

const servers = [{ url: AUTH_BASE, description: 'browser sign-in lives beside the v1 API, not under it' }];

const challengeRoute = createRoute({
  method: 'get',
  path: '/challenge',
  servers,
  summary: 'Sign-in: a challenge to sign with the wallet (smart-contract wallets are refused)',
  request: { query: SignInChallengeQuerySchema },
  responses: {
    200: { description: 'Challenge', content: { 'application/json': { schema: ChallengeSchema } } },
    ...errorResponses(400, 401, 429, 503),
  },
});

const signInRoute = createRoute({
  method: 'post',
  path: '/session',
  servers,
  summary: "Sign-in: start a 30-day session (HttpOnly, SameSite=Strict cookie); only from this server's own page",
  request: { body: { content: { 'application/json': { schema: SignedBodySchema } }, required: true } },
  responses: {
    200: { description: 'Session', content: { 'application/json': { schema: SessionSchema } } },
    ...errorResponses(400, 401, 403, 413, 503),
  },
});

const sessionRoute = createRoute({
  method: 'get',
  path: '/session',
  servers,
  summary: 'The signed-in session (?wallet= names the wallet meant: SESSION_WALLET_MISMATCH otherwise)',
  request: { query: SessionQuerySchema },
  responses: {
    200: { description: 'Session', content: { 'application/json': { schema: SessionSchema } } },
    ...errorResponses(401, 503),
  },
});

const signOutRoute = createRoute({
  method: 'delete',
  path: '/session',
  servers,
  summary: 'Sign out (needs x-mm-csrf: 1, like every signed-in write)',
  responses: {
    200: {
      description: 'Signed out',
      content: { 'application/json': { schema: SignedOutSchema } },
    },
    ...errorResponses(400, 403, 503),
  },
});

/** The sign-in endpoints for the OpenAPI document (served under /api/auth, hence their own server). */
export const AUTH_ROUTES = [challengeRoute, signInRoute, sessionRoute, signOutRoute];

/**
 * Browser sign-in at /api/auth: a signed challenge starts a 30-day session held in an HttpOnly, SameSite=Strict
 * cookie. `challengeLimit`, when given, limits the challenges an address may ask for.
 */
export function authRoutes(
  chain: ChainContext,
  challenges: Challenges,
  sessions: Sessions,
  challengeLimit?: MiddlewareHandler,
): OpenAPIHono<AppEnv> {
  const auth = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
  auth.use('*', jsonBody());
  auth.use('*', sessionCookie());
  if (challengeLimit) auth.use('/challenge', challengeLimit);
  // Sign-in is taken from this server's own page only, whatever the body: checked before the body is read.
  const ownPage: MiddlewareHandler<AppEnv> = async (c, next) => {
    requireOwnOrigin(c.req.header('origin'), c.req.header('host'));
    await next();
  };
  // The session first (NO_SESSION, SESSION_EXPIRED), then the wallet the request names.
  const session: MiddlewareHandler<AppEnv> = async (c, next) => {
    sessions.get(c.get('sessionSecret'));
    await next();
  };
  // The routes are listed in the v1 document (AUTH_ROUTES), not in a document of their own.
  auth.openapi({ ...challengeRoute, hide: true }, async (c) => {
    const { address } = c.req.valid('query');
    await refuseContracts(chain, address);
    return c.json(challenges.issue('session', address), 200);
  });
  auth.openapi({ ...signInRoute, hide: true, middleware: [ownPage] as const }, async (c) => {
    const { nonce, signature } = c.req.valid('json');
    // The wallet is checked for code before the challenge is used up: a contract's challenge cannot be redeemed anyway.
    await refuseContracts(chain, await challenges.signer('session', nonce, signature));
    const { secret, session } = await challenges.redeem('session', nonce, signature, (wallet) =>
      sessions.start(wallet),
    );
    setCookie(c, SESSION_COOKIE, secret, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: Math.floor(SESSION_TTL_MS / 1000),
    });
    return c.json(sessionJson(session), 200);
  });
  auth.openapi({ ...sessionRoute, hide: true, middleware: [session] as const }, (c) => {
    const current = sessions.get(c.get('sessionSecret'));
    const named = c.req.valid('query').wallet;
    if (named !== undefined) signedInAs(current.wallet, named);
    return c.json(sessionJson(current), 200);
  });
  auth.openapi({ ...signOutRoute, hide: true }, (c) => {
    sessions.endSession(c.get('sessionSecret'));
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ signedOut: true as const }, 200);
  });
  return auth;
}
