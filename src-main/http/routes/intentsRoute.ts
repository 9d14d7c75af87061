import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { ZodType } from 'zod';
import {
  IntentBodySchema,
  IntentIdParamsSchema,
  IntentListSchema,
  IntentRejectBodySchema,
  IntentSchema,
  IntentSentBodySchema,
  IntentsQuerySchema,
} from '../../../src-shared/schema/intents';
import { TradeBodySchema } from '../../../src-shared/schema/trade';
import type { BuildService } from '../../services/buildService';
import { type IntentCaller, sourceOf } from '../../services/intentCaller';
import type { Intents } from '../../services/intents';
import type { LaunchService } from '../../services/launchService';
import { SESSION_COOKIE, type Sessions } from '../../services/sessions';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { APP_TOKEN_HEADER, intentCallerOf } from '../intentCallerOf';
import { errorResponses } from '../schemas';
import { readWith } from '../validationHook';
import { readLaunchBody } from './buildLaunchRoute';
import { buildTradeJson } from './buildTradeRoute';

/** The caller the route's `asking` middleware found. */
function callerOf(c: Context<AppEnv>): IntentCaller {
  const caller = c.get('intentCaller');
  if (!caller) throw new Error('the asking middleware did not run');
  return caller;
}

const intentAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: IntentSchema } },
});
const idParam = { params: IntentIdParamsSchema };
const jsonBody = <S extends ZodType>(schema: S) => ({
  body: { content: { 'application/json': { schema } }, required: true as const },
});
/** A key, or the app's own token; a signed-in browser (cookie with x-mm-csrf: 1) where its wallet's requests are. */
const keyOrApp: Record<string, string[]>[] = [{ apiKey: [] }, { appToken: [] }];
const walletParties: Record<string, string[]>[] = [...keyOrApp, { session: [] }];
const WALLET_PARTIES = "the app, a key of the request's wallet, or that wallet's signed-in browser (with x-mm-csrf: 1)";

const createIntent = createRoute({
  method: 'post',
  path: '/intents',
  summary: 'Create a prepared request for the user to review and sign in the app',
  description:
    'Needs a live API key (or the app itself): requests from an unknown source are refused (API_KEY_REQUIRED) and nothing is stored. The request keeps which key asked (id, label, wallet) and when.',
  security: keyOrApp,
  request: jsonBody(IntentBodySchema),
  responses: { 201: intentAnswer('The request, pending'), ...errorResponses(400, 401, 403, 413, 503) },
});

const listIntents = createRoute({
  method: 'get',
  path: '/intents',
  summary: "A wallet's prepared requests, newest first (the app's review list)",
  description: `For ${WALLET_PARTIES}.`,
  security: walletParties,
  request: { query: IntentsQuerySchema },
  responses: {
    200: {
      description: 'Requests',
      content: { 'application/json': { schema: IntentListSchema } },
    },
    ...errorResponses(400, 401, 403, 503),
  },
});

const readIntent = createRoute({
  method: 'get',
  path: '/intents/{id}',
  summary: 'A prepared request and its state (a sent one is checked against the chain)',
  description: `For ${WALLET_PARTIES}, and for the key that created it.`,
  security: walletParties,
  request: idParam,
  responses: { 200: intentAnswer('The request'), ...errorResponses(401, 403, 404, 503) },
});

const buildIntent = createRoute({
  method: 'post',
  path: '/intents/{id}/build',
  summary: 'Build the request for review, exactly as the matching build endpoint would',
  description: `For ${WALLET_PARTIES}.`,
  security: walletParties,
  request: idParam,
  responses: {
    200: intentAnswer('The request, built'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429, 503),
  },
});

const rejectIntent = createRoute({
  method: 'post',
  path: '/intents/{id}/reject',
  summary: 'The user turns the request down',
  description: `For ${WALLET_PARTIES}.`,
  security: walletParties,
  request: { ...idParam, ...jsonBody(IntentRejectBodySchema) },
  responses: { 200: intentAnswer('The request, failed'), ...errorResponses(400, 401, 403, 404, 409, 413, 503) },
});

const sentIntent = createRoute({
  method: 'post',
  path: '/intents/{id}/sent',
  summary: 'Report the hash of the transaction that fulfilled the request (checked on chain)',
  description: `For ${WALLET_PARTIES}. The transaction must be the one the request asked for: sent by its wallet, the same trade (function, token, exact amount, referrer, a limit no looser than the build's) or the launch of the token the build announced (WRONG_CONTRACT otherwise, saying what differs), and not one that fulfilled another request (ALREADY_SENT, with that request in detail.request).`,
  security: walletParties,
  request: { ...idParam, ...jsonBody(IntentSentBodySchema) },
  responses: {
    200: intentAnswer('The request, sent or settled'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 503),
  },
});

/**
 * Prepared requests. `appToken` is the run's token with which the app's own UI proves it is the app (x-app-token);
 * without one, only keys and signed-in browsers reach them.
 */
export function intentsRoute(
  app: OpenAPIHono<AppEnv>,
  intents: Intents,
  deps: { tokens: TokenRegistry; builds: BuildService; launches: LaunchService; sessions: Sessions; appToken?: string },
): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'appToken', {
    type: 'apiKey',
    in: 'header',
    name: APP_TOKEN_HEADER,
    description: "the run's token, held only by the app's own window",
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'browser sign-in (/api/auth); every request also carries x-mm-csrf: 1',
  });
  const caller = (c: Context<AppEnv>) => intentCallerOf(c, deps.sessions, deps.appToken);
  // Who asks is found before the request's input is read: a wrong app token, a sign-in without x-mm-csrf, and (to
  // create one) a caller that is neither a key nor the app are refused whatever the input; so is an id the caller may
  // not act on.
  const asking: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('intentCaller', caller(c));
    await next();
  };
  const keyOrAppOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
    sourceOf(callerOf(c));
    await next();
  };
  const actingOn: MiddlewareHandler<AppEnv> = async (c, next) => {
    intents.forAction(callerOf(c), c.req.param('id') ?? '');
    await next();
  };
  app.openapi({ ...createIntent, middleware: [asking, keyOrAppOnly] as const }, (c) =>
    c.json(intents.create(callerOf(c), c.req.valid('json')), 201),
  );
  app.openapi({ ...listIntents, middleware: [asking] as const }, (c) => {
    const { wallet, state } = c.req.valid('query');
    return c.json({ intents: intents.list(callerOf(c), wallet, state) }, 200);
  });
  app.openapi(readIntent, async (c) => c.json(await intents.read(caller(c), c.req.valid('param').id), 200));
  app.openapi(buildIntent, async (c) => {
    const intent = intents.forAction(caller(c), c.req.valid('param').id);
    // The stored body is read now, by the build's own schema, as POST /build/launch, /build/buy or /build/sell would.
    const build =
      intent.kind === 'prepare_launch'
        ? await deps.launches.build(readLaunchBody(deps.launches, intent.request))
        : await buildTradeJson(
            deps.tokens,
            deps.builds,
            intent.kind === 'prepare_buy' ? 'buy' : 'sell',
            readWith(TradeBodySchema, intent.request),
            intent.keyWallet ?? undefined,
          );
    return c.json(intents.recordBuild(intent.id, build), 200);
  });
  app.openapi({ ...rejectIntent, middleware: [asking, actingOn] as const }, (c) => {
    const { reason } = c.req.valid('json');
    const why = reason ?? 'no reason given';
    return c.json(intents.reject(callerOf(c), c.req.valid('param').id, `rejected by the user: ${why}`), 200);
  });
  app.openapi({ ...sentIntent, middleware: [asking, actingOn] as const }, async (c) =>
    c.json(await intents.reportSent(callerOf(c), c.req.valid('param').id, c.req.valid('json').hash), 200),
  );
}
