import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Address } from 'viem';
import type { ZodType } from 'zod';
import {
  AlertFeedSchema,
  AlertKindsBodySchema,
  AlertKindsSchema,
  AlertsQuerySchema,
  WatchedCreatorParamsSchema,
  WatchedTokenParamsSchema,
  WatchlistSchema,
  WatchTokenBodySchema,
} from '../../../src-shared/schema/watchlist';
import { ApiError } from '../../core/errors';
import { formatDecimalAmount, parseDecimalAmount } from '../../core/units/decimalAmount';
import type { Alerts } from '../../services/alerts/alerts';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AlertRule, WatchlistStore } from '../../store/watchlistStore';
import type { AppEnv } from '../env';
import { APP_TOKEN_HEADER, sentByApp } from '../intentCallerOf';
import { errorResponses } from '../schemas';

const APP_ONLY =
  "Only the app's own page changes it (it sends the run's token in x-app-token); anyone else is refused with " +
  'API_KEY_REQUIRED. ';
const appOnly: Record<string, string[]>[] = [{ appToken: [] }];
const jsonBody = <S extends ZodType>(schema: S) => ({
  body: { content: { 'application/json': { schema } }, required: true as const },
});
const watchlistAnswer = (description: string) => ({
  200: { description, content: { 'application/json': { schema: WatchlistSchema } } },
});

const getWatchlist = createRoute({
  method: 'get',
  path: '/watchlist',
  summary: 'The starred tokens (each with its alert rule) and creators',
  description:
    "An addition to the spec. The person's watchlist, kept in the app's data directory (its SQLite database) across " +
    'restarts, oldest star first. Prices are not here: read each token with GET /tokens/{address}/trades.',
  responses: { ...watchlistAnswer('The watchlist'), ...errorResponses() },
});

const putToken = createRoute({
  method: 'put',
  path: '/watchlist/tokens/{address}',
  summary: 'Star a token launched here, with an alert rule or none',
  description:
    'An addition to the spec. Stars the token (UNKNOWN_TOKEN when this service did not launch it) and sets its alert ' +
    'rule, replacing the one before (`alert` null or left out: none). A rule fires a notification once when the ' +
    "token's price or market cap, in dollars or BNB, crosses the figure in the direction asked, checked when the " +
    'index sees its trades; it fires again only after the value has come back past the figure by 1% and crossed ' +
    'again. A rule set while the value is already past its figure waits for it to come back. ' +
    APP_ONLY,
  security: appOnly,
  request: { params: WatchedTokenParamsSchema, ...jsonBody(WatchTokenBodySchema) },
  responses: { ...watchlistAnswer('The watchlist with the token'), ...errorResponses(400, 401) },
});

/** A write of one address on the watchlist: the app's page only, answering the watchlist after it. */
const watchlistWrite = (
  method: 'put' | 'delete',
  path: string,
  params: typeof WatchedTokenParamsSchema | typeof WatchedCreatorParamsSchema,
  summary: string,
  answer: string,
  description: string,
) =>
  createRoute({
    method,
    path,
    summary,
    description: `An addition to the spec. ${description} ${APP_ONLY}`,
    security: appOnly,
    request: { params },
    responses: { ...watchlistAnswer(answer), ...errorResponses(400, 401) },
  });

const deleteToken = watchlistWrite(
  'delete',
  '/watchlist/tokens/{address}',
  WatchedTokenParamsSchema,
  'Unstar a token (and drop its alert rule)',
  'The watchlist without the token',
  'A token not starred is left as it is.',
);

const putCreator = watchlistWrite(
  'put',
  '/watchlist/creators/{address}',
  WatchedCreatorParamsSchema,
  "Star a creator: each of the wallet's launches raises a notification",
  'The watchlist with the creator',
  'Any wallet may be starred, before its first launch too.',
);

const deleteCreator = watchlistWrite(
  'delete',
  '/watchlist/creators/{address}',
  WatchedCreatorParamsSchema,
  'Unstar a creator',
  'The watchlist without the creator',
  'A creator not starred is left as it is.',
);

const getKinds = createRoute({
  method: 'get',
  path: '/alerts/kinds',
  summary: 'Which kinds of notification are on',
  description: 'An addition to the spec. Every kind is on until switched off; kept in the data directory.',
  responses: {
    200: { description: 'The kinds', content: { 'application/json': { schema: AlertKindsSchema } } },
    ...errorResponses(),
  },
});

const putKinds = createRoute({
  method: 'put',
  path: '/alerts/kinds',
  summary: 'Switch kinds of notification on or off',
  description: `An addition to the spec. The kinds sent are switched, the others left as they are. ${APP_ONLY}`,
  security: appOnly,
  request: jsonBody(AlertKindsBodySchema),
  responses: {
    200: { description: 'The kinds now', content: { 'application/json': { schema: AlertKindsSchema } } },
    ...errorResponses(400, 401),
  },
});

const getAlerts = createRoute({
  method: 'get',
  path: '/alerts',
  summary: "The app's notifications raised after an id",
  description:
    "An addition to the spec. What the desktop app shows as notifications, for the web UI's own page to show with " +
    "the browser's: a bot's prepared request waiting, a watched creator's launch, a watched token's rule crossed, the " +
    "app's own transaction confirmed or failed; only the kinds switched on. The service decides what deserves one. " +
    "The last 200 are kept in memory, none across a restart. Only for the app's own page (x-app-token): it tells " +
    'of its requests and transactions (API_KEY_REQUIRED otherwise).',
  security: appOnly,
  request: { query: AlertsQuerySchema },
  responses: {
    200: { description: 'Alerts, oldest first', content: { 'application/json': { schema: AlertFeedSchema } } },
    ...errorResponses(400, 401),
  },
});

/** Refuses anyone but the app's own page. */
function requireApp(c: Context, appToken: string | undefined, what: string): void {
  if (sentByApp(c, appToken)) return;
  throw new ApiError('API_KEY_REQUIRED', `only the app's own page may ${what}`, {
    fix: `Use the app's Watchlist and Settings pages, which send the run's token in ${APP_TOKEN_HEADER}.`,
  });
}

/** The watchlist as the API writes it. */
function watchlistJson(watchlist: WatchlistStore) {
  return {
    tokens: watchlist.tokens().map(({ token, addedAt, alert }) => ({
      address: token,
      addedAt: new Date(addedAt).toISOString(),
      alert: alert && {
        metric: alert.metric,
        direction: alert.direction,
        currency: alert.currency,
        figure: formatDecimalAmount(alert.figure, 18),
        state: alert.state,
      },
    })),
    creators: watchlist.creators().map(({ creator, addedAt }) => ({
      address: creator,
      addedAt: new Date(addedAt).toISOString(),
    })),
  };
}

/** The watchlist (GET, PUT, DELETE) and the notifications' kinds and feed; writes from the app's own page only. */
export function watchlistRoute(
  app: OpenAPIHono<AppEnv>,
  deps: { watchlist: WatchlistStore; alerts: Alerts; tokens: TokenRegistry; appToken?: string },
): void {
  const { watchlist, alerts, tokens, appToken } = deps;
  app.openapi(getWatchlist, (c) => c.json(watchlistJson(watchlist), 200));
  app.openapi(putToken, async (c) => {
    requireApp(c, appToken, 'star tokens');
    const token = c.req.valid('param').address as Address;
    const { alert } = c.req.valid('json');
    await tokens.get(token);
    const rule: AlertRule | null = alert
      ? {
          metric: alert.metric as AlertRule['metric'],
          direction: alert.direction as AlertRule['direction'],
          currency: alert.currency as AlertRule['currency'],
          figure: parseDecimalAmount(alert.figure, 18, 'alert.figure'),
        }
      : null;
    const state = rule ? await alerts.firstState(token, rule) : undefined;
    watchlist.putToken(token, rule, state);
    return c.json(watchlistJson(watchlist), 200);
  });
  app.openapi(deleteToken, (c) => {
    requireApp(c, appToken, 'unstar tokens');
    watchlist.dropToken(c.req.valid('param').address as Address);
    return c.json(watchlistJson(watchlist), 200);
  });
  app.openapi(putCreator, (c) => {
    requireApp(c, appToken, 'star creators');
    watchlist.putCreator(c.req.valid('param').address as Address);
    return c.json(watchlistJson(watchlist), 200);
  });
  app.openapi(deleteCreator, (c) => {
    requireApp(c, appToken, 'unstar creators');
    watchlist.dropCreator(c.req.valid('param').address as Address);
    return c.json(watchlistJson(watchlist), 200);
  });
  app.openapi(getKinds, (c) => c.json(alerts.kinds(), 200));
  app.openapi(putKinds, (c) => {
    requireApp(c, appToken, 'switch notifications');
    return c.json(alerts.switchKinds(c.req.valid('json')), 200);
  });
  app.openapi(getAlerts, (c) => {
    requireApp(c, appToken, 'read its notifications');
    const after = c.req.valid('query').after;
    const raised = after === undefined ? [] : alerts.after(Number(after));
    return c.json(
      {
        alerts: raised.map((alert) => ({ ...alert, at: new Date(alert.at).toISOString() })),
        latest: alerts.latest(),
      },
      200,
    );
  });
}
