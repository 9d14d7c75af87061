import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError } from '../../core/errors';
import { readAddress } from '../../core/units/readAddress';
import type { BuildService } from '../../services/buildService';
import { INTENT_KINDS, type IntentState, type Intents } from '../../services/intents';
import type { LaunchService } from '../../services/launchService';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { AddressSchema, errorResponses } from '../schemas';
import { buildTradeJson } from './buildTradeRoute';

const STATES: readonly IntentState[] = ['pending', 'built', 'sent', 'confirmed', 'failed'];

const IntentSchema = z
  .object({
    id: z.string().openapi({ description: 'int_ and 24 hex digits; whoever holds it can read the request' }),
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

const routes = [
  createRoute({
    method: 'post',
    path: '/intents',
    summary: 'Create a prepared request for the user to review and sign in the app',
    request: jsonBody(
      z
        .object({ kind: z.enum(INTENT_KINDS), wallet: AddressSchema })
        .passthrough()
        .openapi({ description: 'kind, plus the body of POST /build/buy, /build/sell or /build/launch' }),
    ),
    responses: { 201: intentAnswer('The request, pending'), ...errorResponses(400, 503) },
  }),
  createRoute({
    method: 'get',
    path: '/intents',
    summary: "A wallet's prepared requests, newest first (the app's review list)",
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
      ...errorResponses(400, 503),
    },
  }),
  createRoute({
    method: 'get',
    path: '/intents/{id}',
    summary: 'A prepared request and its state (a sent one is checked against the chain)',
    request: idParam,
    responses: { 200: intentAnswer('The request'), ...errorResponses(404, 503) },
  }),
  createRoute({
    method: 'post',
    path: '/intents/{id}/build',
    summary: 'Build the request for review, exactly as the matching build endpoint would',
    request: idParam,
    responses: { 200: intentAnswer('The request, built'), ...errorResponses(400, 404, 409, 422, 503) },
  }),
  createRoute({
    method: 'post',
    path: '/intents/{id}/reject',
    summary: 'The user turns the request down',
    request: { ...idParam, ...jsonBody(z.object({ reason: z.string().optional() })) },
    responses: { 200: intentAnswer('The request, failed'), ...errorResponses(404, 409, 503) },
  }),
  createRoute({
    method: 'post',
    path: '/intents/{id}/sent',
    summary: 'Report the hash of the transaction that fulfilled the request (checked on chain)',
    request: { ...idParam, ...jsonBody(z.object({ hash: z.string() })) },
    responses: { 200: intentAnswer('The request, sent or settled'), ...errorResponses(400, 404, 409, 503) },
  }),
];

export function intentsRoute(
  app: OpenAPIHono<AppEnv>,
  intents: Intents,
  deps: { tokens: TokenRegistry; builds: BuildService; launches: LaunchService },
): void {
  for (const route of routes) app.openAPIRegistry.registerPath(route);
  app.post('/intents', (c) => c.json(intents.create(c.get('body'), c.get('apiKey')?.wallet), 201));
  app.get('/intents', (c) => {
    const wallet = readAddress(c.req.query('wallet'), 'wallet');
    const state = c.req.query('state');
    if (state !== undefined && !(STATES as readonly string[]).includes(state)) {
      throw new ApiError('INVALID_BODY', `state must be one of ${STATES.join(', ')}`, { field: 'state' });
    }
    return c.json({ intents: intents.list(wallet, state as IntentState | undefined) }, 200);
  });
  app.get('/intents/:id', async (c) => c.json(await intents.refresh(c.req.param('id')), 200));
  app.post('/intents/:id/build', async (c) => {
    const intent = intents.get(c.req.param('id'));
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
    return c.json(intents.reject(c.req.param('id'), `rejected by the user: ${why}`), 200);
  });
  app.post('/intents/:id/sent', async (c) =>
    c.json(await intents.reportSent(c.req.param('id'), c.get('body').hash), 200),
  );
}
