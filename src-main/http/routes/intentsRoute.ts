import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ZodType } from 'zod';
import {
  INTENT_STATES,
  IntentBodySchema,
  IntentIdParamsSchema,
  IntentListSchema,
  IntentRejectBodySchema,
  IntentSchema,
  IntentSentBodySchema,
  type IntentState,
  IntentsQuerySchema,
} from '../../../src-shared/schema/intents';
import { ApiError } from '../../core/errors';
import { readAddress } from '../../core/units/readAddress';
import type { BuildService } from '../../services/buildService';
import type { Intents } from '../../services/intents';
import type { LaunchService } from '../../services/launchService';
import { SESSION_COOKIE, type Sessions } from '../../services/sessions';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { APP_TOKEN_HEADER, intentCallerOf } from '../intentCallerOf';
import { errorResponses } from '../schemas';
import { buildTradeJson } from './buildTradeRoute';

const intentAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: IntentSchema } },
});
const idParam = { params: IntentIdParamsSchema };
const jsonBody = (schema: ZodType) => ({ body: { content: { 'application/json': { schema } }, required: true } });
/** A key, or the app's own token; a signed-in browser (cookie with x-mm-csrf: 1) where its wallet's requests are. */
const keyOrApp: Record<string, string[]>[] = [{ apiKey: [] }, { appToken: [] }];
const walletParties: Record<string, string[]>[] = [...keyOrApp, { session: [] }];
const WALLET_PARTIES = "the app, a key of the request's wallet, or that wallet's signed-in browser (with x-mm-csrf: 1)";

const routes = [
  createRoute({
    method: 'post',
    path: '/intents',
    summary: 'Create a prepared request for the user to review and sign in the app',
    description:
      'Needs a live API key (or the app itself): requests from an unknown source are refused (API_KEY_REQUIRED) and nothing is stored. The request keeps which key asked (id, label, wallet) and when.',
    security: keyOrApp,
    request: jsonBody(IntentBodySchema),
    responses: { 201: intentAnswer('The request, pending'), ...errorResponses(400, 401, 403, 503) },
  }),
  createRoute({
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
  }),
  createRoute({
    method: 'get',
    path: '/intents/{id}',
    summary: 'A prepared request and its state (a sent one is checked against the chain)',
    description: `For ${WALLET_PARTIES}, and for the key that created it.`,
    security: walletParties,
    request: idParam,
    responses: { 200: intentAnswer('The request'), ...errorResponses(401, 403, 404, 503) },
  }),
  createRoute({
    method: 'post',
    path: '/intents/{id}/build',
    summary: 'Build the request for review, exactly as the matching build endpoint would',
    description: `For ${WALLET_PARTIES}.`,
    security: walletParties,
    request: idParam,
    responses: { 200: intentAnswer('The request, built'), ...errorResponses(400, 401, 403, 404, 409, 422, 503) },
  }),
  createRoute({
    method: 'post',
    path: '/intents/{id}/reject',
    summary: 'The user turns the request down',
    description: `For ${WALLET_PARTIES}.`,
    security: walletParties,
    request: { ...idParam, ...jsonBody(IntentRejectBodySchema) },
    responses: { 200: intentAnswer('The request, failed'), ...errorResponses(401, 403, 404, 409, 503) },
  }),
  createRoute({
    method: 'post',
    path: '/intents/{id}/sent',
    summary: 'Report the hash of the transaction that fulfilled the request (checked on chain)',
    description: `For ${WALLET_PARTIES}. The transaction must be the one the request asked for: sent by its wallet, the same trade (function, token, exact amount, referrer, a limit no looser than the build's) or the launch of the token the build announced (WRONG_TRANSACTION otherwise), and not one that fulfilled another request (HASH_ALREADY_USED).`,
    security: walletParties,
    request: { ...idParam, ...jsonBody(IntentSentBodySchema) },
    responses: { 200: intentAnswer('The request, sent or settled'), ...errorResponses(400, 401, 403, 404, 409, 503) },
  }),
];

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
  for (const route of routes) app.openAPIRegistry.registerPath(route);
  const caller = (c: Context<AppEnv>) => intentCallerOf(c, deps.sessions, deps.appToken);
  app.post('/intents', (c) => c.json(intents.create(caller(c), c.get('body')), 201));
  app.get('/intents', (c) => {
    const who = caller(c);
    const wallet = readAddress(c.req.query('wallet'), 'wallet');
    const state = c.req.query('state');
    if (state !== undefined && !(INTENT_STATES as readonly string[]).includes(state)) {
      throw new ApiError('INVALID_BODY', `state must be one of ${INTENT_STATES.join(', ')}`, { field: 'state' });
    }
    return c.json({ intents: intents.list(who, wallet, state as IntentState | undefined) }, 200);
  });
  app.get('/intents/:id', async (c) => c.json(await intents.read(caller(c), c.req.param('id')), 200));
  app.post('/intents/:id/build', async (c) => {
    const intent = intents.forAction(caller(c), c.req.param('id'));
    const build =
      intent.kind === 'prepare_launch'
        ? await deps.launches.build(intent.request)
        : await buildTradeJson(
            deps.tokens,
            deps.builds,
            intent.kind === 'prepare_buy' ? 'buy' : 'sell',
            intent.request,
            intent.keyWallet ?? undefined,
          );
    return c.json(intents.recordBuild(intent.id, build), 200);
  });
  app.post('/intents/:id/reject', (c) => {
    const reason = c.get('body').reason;
    const why = typeof reason === 'string' && reason.trim() !== '' ? reason.trim().slice(0, 200) : 'no reason given';
    return c.json(intents.reject(caller(c), c.req.param('id'), `rejected by the user: ${why}`), 200);
  });
  app.post('/intents/:id/sent', async (c) =>
    c.json(await intents.reportSent(caller(c), c.req.param('id'), c.get('body').hash), 200),
  );
}
