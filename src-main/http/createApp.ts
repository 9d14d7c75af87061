import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { ChainContext } from '../chain/connectChain';
import { DEFAULT_PUBLIC_LINK_BASE } from '../core/appPages';
import type { Logger } from '../log/createLogger';
import type { Alerts } from '../services/alerts/alerts';
import type { ApiKeys } from '../services/apiKeys';
import type { AppChannel } from '../services/appChannel';
import type { BuildService } from '../services/buildService';
import type { Challenges } from '../services/challenges';
import type { CollectBuilds } from '../services/collectBuild';
import type { CreatorLaunches } from '../services/creatorLaunches';
import type { Indexer } from '../services/indexer/indexer';
import type { Intents } from '../services/intents';
import type { LaunchService } from '../services/launchService';
import type { LifetimeWeeks } from '../services/lifetimeWeeks';
import type { MediaStore } from '../services/mediaStore';
import type { Positions } from '../services/positions';
import type { QuoteService } from '../services/quoteService';
import type { ReferralRecords } from '../services/referralRecords';
import type { ReferrerRegistry } from '../services/referrerRegistry';
import type { Sessions } from '../services/sessions';
import type { SettingsService } from '../services/settingsService';
import type { TokenMarket } from '../services/tokenMarket';
import type { TokenRegistry } from '../services/tokenRegistry';
import type { IndexStore } from '../store/indexStore';
import type { WatchlistStore } from '../store/watchlistStore';
import { APP_CHANNEL_BASE, appChannelRoute } from './appChannelRoute';
import type { AppEnv } from './env';
import { errorHandler, notFound } from './errorHandler';
import type { EventStream } from './eventStream';
import { leanQuote } from './leanQuote';
import type { LeanRoute } from './leanRoutes';
import { apiKey } from './middleware/apiKey';
import { appPage } from './middleware/appPage';
import { drainUnreadBody } from './middleware/drainUnreadBody';
import { hostCheck } from './middleware/hostCheck';
import { jsonBody } from './middleware/jsonBody';
import { ownPagesOnly } from './middleware/ownPagesOnly';
import { RateLimiter, rateLimit } from './middleware/rateLimit';
import { sameOriginWrites } from './middleware/sameOriginWrites';
import { sessionCookie } from './middleware/sessionCookie';
import { withRateLimitHeaders } from './rateLimitDocument';
import { AUTH_BASE, AUTH_ROUTES, authRoutes } from './routes/authRoutes';
import { balancesRoute } from './routes/balancesRoute';
import { buildLaunchRoute } from './routes/buildLaunchRoute';
import { buildTradeRoute } from './routes/buildTradeRoute';
import { creatorRoutes } from './routes/creatorRoutes';
import { errorsRoute } from './routes/errorsRoute';
import { eventsRoute } from './routes/eventsRoute';
import { intentsRoute } from './routes/intentsRoute';
import { keysRoute } from './routes/keysRoute';
import { launchesRoute } from './routes/launchesRoute';
import { MEDIA_UPLOAD_PATH, mediaRoute, mediaServeRoute } from './routes/mediaRoute';
import { positionsRoute } from './routes/positionsRoute';
import { quoteRoute } from './routes/quoteRoute';
import { referralsRoute } from './routes/referralsRoute';
import { rpcRoute } from './routes/rpcRoute';
import { settingsRoute } from './routes/settingsRoute';
import { statusRoute } from './routes/statusRoute';
import { tokensRoute } from './routes/tokensRoute';
import { tokenTradesRoute } from './routes/tokenTradesRoute';
import { watchlistRoute } from './routes/watchlistRoute';
import { validationHook } from './validationHook';

export const API_BASE = '/api/v1';

export interface RateLimits {
  quotesPerMinute: number;
  buildsPerMinute: number;
  uploadsPerMinute: number;
  /** Signing challenges (keys, referrals, sign-in together); the spec sets no figure, 30 by default. */
  challengesPerMinute?: number;
}

const DEFAULT_CHALLENGES_PER_MINUTE = 30;

/** The spec's limits, and ours for challenges, which each add a stored row. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  quotesPerMinute: 120,
  buildsPerMinute: 60,
  uploadsPerMinute: 20,
  challengesPerMinute: DEFAULT_CHALLENGES_PER_MINUTE,
};

/** One budget of challenges per address, shared by the v1 API's challenge endpoints and sign-in's; none when off. */
function challengeLimit(limits: RateLimits | false, now?: () => number): MiddlewareHandler | undefined {
  if (!limits) return undefined;
  const perMinute = limits.challengesPerMinute ?? DEFAULT_CHALLENGES_PER_MINUTE;
  return rateLimit({ perMinute, what: 'challenges', ...(now ? { now } : {}) });
}

/**
 * The operations the limits count, by their path in the OpenAPI document: quotes, builds (a prepared request's
 * build too), the challenges and the image upload. Their answers carry RateLimit-Policy and RateLimit.
 */
const countedPath = (path: string) =>
  path === '/quote' ||
  path.startsWith('/build/') ||
  path === '/intents/{id}/build' ||
  path.endsWith('/challenge') ||
  path === MEDIA_UPLOAD_PATH;

/**
 * The one quote limiter of a service (its deps), counted by the app's /quote middleware and by the lean route alike;
 * undefined when limits are off.
 */
const quoteLimiters = new WeakMap<AppDeps, RateLimiter>();
function quoteLimiter(deps: AppDeps): RateLimiter | undefined {
  const limits = deps.rateLimits ?? DEFAULT_RATE_LIMITS;
  if (!limits) return undefined;
  let limiter = quoteLimiters.get(deps);
  if (!limiter) {
    limiter = new RateLimiter({ perMinute: limits.quotesPerMinute, what: 'quotes', ...clockOf(deps) });
    quoteLimiters.set(deps, limiter);
  }
  return limiter;
}

const clockOf = (deps: AppDeps) => (deps.clock ? { now: deps.clock } : {});

export interface AppDeps {
  chain: ChainContext;
  settings: SettingsService;
  tokens: TokenRegistry;
  quotes: QuoteService;
  builds: BuildService;
  launches: LaunchService;
  media: MediaStore;
  index: IndexStore;
  indexer: Indexer;
  challenges: Challenges;
  keys: ApiKeys;
  referrers: ReferrerRegistry;
  sessions: Sessions;
  intents: Intents;
  referralRecords: ReferralRecords;
  weeks: LifetimeWeeks;
  /** A token's price and cap from its pool, for the token page. */
  market: TokenMarket;
  /** A wallet's holdings of the tokens launched here, valued, with their cost and profit. */
  positions: Positions;
  /** Collect builds and the creator's dashboard (issue 31). */
  collects: CollectBuilds;
  creators: CreatorLaunches;
  /** GET /events: what the indexer stores, streamed. */
  events: EventStream;
  /** The starred tokens and creators, and the alert rules. */
  watchlist: WatchlistStore;
  /** The app's notifications: what deserves one, the kinds switched on, the feed. */
  alerts: Alerts;
  /** Where shared referral links point (a public site, or the app's own scheme by default); never loopback. */
  publicLinkBase?: string;
  /** Built web UI to serve at `/` (headless mode). */
  webRoot?: string;
  /**
   * The run's token, with which the app's own UI proves it is the app on prepared requests (x-app-token): the headless
   * page has it from the address the app printed, the desktop window from main. Without it only keys and signed-in
   * browsers reach them.
   */
  appToken?: string;
  /** The app's channel to main for the headless web UI, answered only with the run's token. */
  appChannel?: { channel: AppChannel; token: string; origin: () => string };
  /** Per-client limits per minute; false switches them off (e.g. for a trusted local bot). */
  rateLimits?: RateLimits | false;
  /** The clock (Unix ms) of the quote, build and challenge limits; tests hold it still. */
  clock?: () => number;
  log: Logger;
}

/**
 * The v1 API routes alone, mounted under /api/v1 by `createApp`; also the source of the OpenAPI document.
 * `challenges` is the limiter of challenge requests, when sign-in shares it.
 */
export function createApi(
  deps: AppDeps,
  challenges = challengeLimit(deps.rateLimits ?? DEFAULT_RATE_LIMITS, deps.clock),
): OpenAPIHono<AppEnv> {
  const api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
  api.use('*', jsonBody({ skip: [`${API_BASE}${MEDIA_UPLOAD_PATH}`] }));
  api.use('*', apiKey(deps.keys));
  api.use('*', sessionCookie());
  // Before the limits: the app's own page counts in a budget of its own.
  api.use('*', appPage(deps.appToken));
  const limits = deps.rateLimits ?? DEFAULT_RATE_LIMITS;
  if (limits) {
    // A key the app's owner gave a budget counts against its own (the apiKey middleware above read it).
    api.use(
      '/quote',
      rateLimit(quoteLimiter(deps) as RateLimiter, (budget) => budget.quotesPerMinute),
    );
    // Building a prepared request is a build like any other, from the same budget.
    const builds = rateLimit(
      { perMinute: limits.buildsPerMinute, what: 'builds', ...clockOf(deps) },
      (budget) => budget.buildsPerMinute,
    );
    api.use('/build/*', builds);
    api.use('/intents/:id/build', builds);
  }
  if (challenges) for (const path of ['/keys/challenge', '/referrals/challenge']) api.use(path, challenges);
  settingsRoute(api, deps.settings);
  errorsRoute(api);
  statusRoute(api, deps.chain, deps.indexer, deps.weeks);
  launchesRoute(api, deps.index);
  eventsRoute(api, deps.events);
  referralsRoute(
    api,
    deps.challenges,
    deps.referrers,
    deps.referralRecords,
    deps.weeks,
    deps.publicLinkBase ?? DEFAULT_PUBLIC_LINK_BASE,
  );
  keysRoute(api, deps.challenges, deps.keys, deps.sessions, deps.appToken);
  intentsRoute(api, deps.intents, deps);
  tokensRoute(api, deps.tokens, deps.index, deps.indexer, deps.chain.addresses.factory);
  tokenTradesRoute(api, deps.tokens, deps.index, deps.market);
  balancesRoute(api, deps.chain, deps.tokens);
  positionsRoute(api, deps.positions);
  watchlistRoute(api, deps);
  quoteRoute(api, deps.tokens, deps.quotes);
  buildTradeRoute(api, deps.tokens, deps.builds);
  buildLaunchRoute(api, deps.launches);
  creatorRoutes(api, deps.collects, deps.creators);
  mediaRoute(api, deps.media, { uploadsPerMinute: limits ? limits.uploadsPerMinute : false });
  // Sign-in is served under /api/auth; its routes are listed here with a server of their own.
  for (const route of AUTH_ROUTES) api.openAPIRegistry.registerPath(route);
  let document: unknown;
  api.get('/openapi.json', (c) => {
    document ??= openApiDocument(api, limits !== false);
    return c.json(document);
  });
  api.onError(errorHandler(deps.log));
  return api;
}

/** The API's OpenAPI document; with `limited`, the rate-limit fields are documented on the operations they count. */
export function openApiDocument(api: OpenAPIHono<AppEnv>, limited = true) {
  const document = api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Token launch and trading build service',
      version: '1.0.0',
      description:
        'Builds unsigned transactions for launching tokens and for buying and selling them, simulated from the ' +
        "caller's wallet. Errors always use the Error object; GET /errors lists every code. Every operation refuses " +
        'a request that a browser sent for a page of another origin (ORIGIN_NOT_ALLOWED, 403), and the counted ' +
        "ones count the app's own page (the run's token in x-app-token) in a budget of its own.",
    },
    servers: [{ url: API_BASE, description: 'relative to the server this document was read from' }],
  });
  return limited ? withRateLimitHeaders(document, countedPath) : document;
}

/**
 * Whether a path is the service's own (the API, sign-in, the app channel, /rpc, media) rather than a page or file of
 * the web UI; the UI's client-side routes are every other path.
 */
const isServicePath = (path: string) =>
  path.startsWith(`${API_BASE}/`) ||
  path.startsWith(`${AUTH_BASE}/`) ||
  path.startsWith(`${APP_CHANNEL_BASE}/`) ||
  path === '/rpc' ||
  path.startsWith('/media/');

/** The whole HTTP surface: Host check, the v1 API, the devnet's /rpc, and the web UI when one is given. */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const webRoot = deps.webRoot;
  const index =
    webRoot && existsSync(join(webRoot, 'index.html')) ? readFileSync(join(webRoot, 'index.html'), 'utf8') : undefined;
  app.use('*', drainUnreadBody());
  app.use('*', hostCheck());
  // Every route, reads, media, the event stream, /rpc and the UI's files included: nothing is answered to a page of
  // another origin, but a person following a link from one to a page of the UI.
  app.use(
    '*',
    ownPagesOnly((path) => index !== undefined && !isServicePath(path)),
  );
  // Every write of the API, of sign-in and of the app channel; /rpc takes a wallet extension's origin too (rpcRoute).
  app.use('/api/*', sameOriginWrites());
  app.use(`${APP_CHANNEL_BASE}/*`, sameOriginWrites());
  const challenges = challengeLimit(deps.rateLimits ?? DEFAULT_RATE_LIMITS, deps.clock);
  app.route(API_BASE, createApi(deps, challenges));
  const auth = authRoutes(deps.chain, deps.challenges, deps.sessions, challenges);
  auth.onError(errorHandler(deps.log));
  app.route(AUTH_BASE, auth);
  mediaServeRoute(app, deps.media);
  if (deps.chain.devnet) rpcRoute(app, deps.chain.devnet);
  if (deps.appChannel) appChannelRoute(app, deps.appChannel.channel, deps.appChannel.token, deps.appChannel.origin);
  if (webRoot && index !== undefined) {
    // The page's own CSP is a meta tag; framing can be refused only by a header, against clickjacking the review
    // screen. hono's secure headers set that and the rest of their kind (nosniff, no referrer, same-origin opener and
    // resources) on the UI's page and files; the API's answers keep their own.
    const uiHeaders = secureHeaders({ xFrameOptions: 'DENY', contentSecurityPolicy: { frameAncestors: ["'none'"] } });
    app.use('/*', (c, next) => (c.req.path.startsWith(`${API_BASE}/`) ? next() : uiHeaders(c, next)));
    app.use('/*', serveStatic({ root: webRoot }));
    // Client-side routes of the UI answer with its page; API paths keep their NOT_FOUND.
    app.get('*', (c, next) => (isServicePath(c.req.path) ? next() : c.html(index)));
  }
  app.notFound(notFound);
  app.onError(errorHandler(deps.log));
  return app;
}

/**
 * The routes answered before the app (see withLeanRoutes): GET /quote, the one read that bots call in a loop. A lean
 * route takes only requests on which every middleware above does nothing but count: no body (drainUnreadBody,
 * jsonBody), a loopback Host (hostCheck), a read (sameOriginWrites), no Origin or Sec-Fetch-Site (ownPagesOnly), no
 * x-api-key (apiKey), no cookie (sessionCookie), no x-app-token (appPage); with limits on, it counts each quote in the
 * app's own quote limiter.
 */
export function leanRoutes(deps: AppDeps): LeanRoute[] {
  return [leanQuote(`${API_BASE}/quote`, deps.tokens, deps.quotes, deps.log, quoteLimiter(deps))];
}
