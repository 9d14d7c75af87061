import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ApiError } from '../../core/errors';
import { readAddress } from '../../core/units/readAddress';
import type { BuildService } from '../../services/buildService';
import { INTENT_KINDS, type IntentState, type Intents } from '../../services/intents';
import type { LaunchService } from '../../services/launchService';
import { SESSION_COOKIE, type Sessions } from '../../services/sessions';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { APP_TOKEN_HEADER, intentCallerOf } from '../intentCallerOf';
import { AddressSchema, errorResponses } from '../schemas';
import { buildTradeJson } from './buildTradeRoute';

const STATES: readonly IntentState[] = ['pending', 'built', 'sent', 'confirmed', 'failed'];

const KeySourceSchema = z.object({
  kind: z.literal('key'),
  key: z.object({
    id: z.string().nullable().openapi({ description: 'null on a request stored before sources were kept' }),
    label: z.string().nullable().openapi({ description: "the key's label when it asked (chosen by the key's owner)" }),
    wallet: AddressSchema.openapi({ description: "the key's wallet" }),
  }),
  at: z.string().openapi({ description: 'when it asked, ISO 8601' }),
});

const IntentSourceSchema = z
  .discriminatedUnion('kind', [
    KeySourceSchema,
    z.object({ kind: z.literal('app'), at: z.string() }),
    z.object({ kind: z.literal('unknown'), at: z.string() }),
  ])
  .openapi('IntentSource', {
    description:
      'Who asked for the request: an API key (id, label, wallet) or the app itself, and when; unknown only for a request stored before sources were kept, without a key (closed then)',
  });

const IntentSchema = z
  .object({
    id: z.string().openapi({ description: 'int_ and 24 hex digits' }),
    kind: z.enum(INTENT_KINDS),
    wallet: AddressSchema,
    state: z.enum(['pending', 'built', 'sent', 'confirmed', 'failed']).openapi({
      description:
        'pending: waiting for the user; built: shown for review; sent: hash reported; confirmed or failed on chain',
    }),
    request: z.record(z.string(), z.unknown()).openapi({ description: 'the body of the matching build' }),
    build: z.unknown().nullable().openapi({ description: 'the build answer shown for review, once built' }),
    keyWallet: AddressSchema.nullable().openapi({
      description: "the wallet of the API key the request was created with: its trades' default referrer",
    }),
    source: IntentSourceSchema,
    tx: z.object({ hash: z.string(), block: z.number().int().nullable() }).nullable(),
    reason: z.string().nullable().openapi({ description: 'why it failed (rejected by the user, reverted)' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Intent');

const intentAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: IntentSchema } },
});
const idParam = { params: z.object({ id: z.string() }) };
const jsonBody = (schema: z.ZodTypeAny) => ({ body: { content: { 'application/json': { schema } }, required: true } });
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
    request: jsonBody(
      z
        .object({ kind: z.enum(INTENT_KINDS), wallet: AddressSchema })
        .passthrough()
        .openapi({ description: 'kind, plus the body of POST /build/buy, /build/sell or /build/launch' }),
    ),
    responses: { 201: intentAnswer('The request, pending'), ...errorResponses(400, 401, 403, 503) },
  }),
  createRoute({
    method: 'get',
    path: '/intents',
    summary: "A wallet's prepared requests, newest first (the app's review list)",
    description: `For ${WALLET_PARTIES}.`,
    security: walletParties,
    request: {
      query: z.object({
        wallet: z.string(),
        state: z
          .string()
          .optional()
          .openapi({ description: STATES.join(', ') }),
      }),
    },
    responses: {
      200: {
        description: 'Requests',
        content: { 'application/json': { schema: z.object({ intents: z.array(IntentSchema) }) } },
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
    request: { ...idParam, ...jsonBody(z.object({ reason: z.string().optional() })) },
    responses: { 200: intentAnswer('The request, failed'), ...errorResponses(401, 403, 404, 409, 503) },
  }),
  createRoute({
    method: 'post',
    path: '/intents/{id}/sent',
    summary: 'Report the hash of the transaction that fulfilled the request (checked on chain)',
    description: `For ${WALLET_PARTIES}. The transaction must be the one the request asked for: sent by its wallet, the same trade (function, token, exact amount, referrer, a limit no looser than the build's) or the launch of the token the build announced (WRONG_TRANSACTION otherwise), and not one that fulfilled another request (HASH_ALREADY_USED).`,
    security: walletParties,
    request: { ...idParam, ...jsonBody(z.object({ hash: z.string() })) },
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
    if (state !== undefined && !(STATES as readonly string[]).includes(state)) {
      throw new ApiError('INVALID_BODY', `state must be one of ${STATES.join(', ')}`, { field: 'state' });
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
