import createClient, { type Client } from 'openapi-fetch';
import { buildIntent } from './buildIntent';
import { buildLaunch, type LaunchBody, type LaunchBuild } from './buildLaunch';
import { buildBuy, buildSell, type TradeBody, type TradeBuild } from './buildTrade';
import type { AskedBuild } from './checkBuild';
import { unreachable } from './companionError';
import { createIntent, type IntentBody } from './createIntent';
import { type EventsOptions, type EventType, streamEvents } from './events/streamEvents';
import { getIntent } from './getIntent';
import { getQuote, type QuoteQuery } from './getQuote';
import { getSettings, type Settings } from './getSettings';
import { getStatus } from './getStatus';
import { reportSent } from './reportSent';
import { type RateLimitRetry, retryRateLimited } from './retryRateLimited';
import { sameOriginFetch } from './sameOriginFetch';
import type { paths } from './schema';
import { type BroadcastBuild, type SendBuildOptions, type SentBuild, sendBuild } from './sendBuild';
import { recentFeeReads } from './sendFees';
import { type WaitOptions, waitForIntent } from './waitForIntent';

/** The API typed by the service's OpenAPI document: openapi-fetch's client over `paths`. */
export type CompanionApi = Client<paths>;

export type FetchLike = (request: Request) => Promise<Response>;

export interface CompanionOptions {
  /** The API root, version included: `http://127.0.0.1:8787/api/v1`. */
  baseUrl: string;
  /**
   * Sent as `x-api-key` on every request to the base URL's origin, and never to another (a redirect elsewhere goes
   * on without it): makes the key's wallet the default referrer of its builds.
   */
  apiKey?: string;
  /**
   * The wallet that made `apiKey`: the send helpers accept it as the referrer of a build whose request names none
   * (the service offers the key's wallet). Without it, such a build naming any referrer is refused.
   */
  apiKeyWallet?: string;
  /**
   * Quotes and builds answered RATE_LIMITED are sent again after the wait Retry-After asks, up to a bound (3 times,
   * waits up to 60 s), each wait reported (`onWait`, or a line on stderr). False throws RATE_LIMITED at once.
   */
  rateLimitRetry?: RateLimitRetry | false;
  /** Headers sent on every request. */
  headers?: Record<string, string>;
  /**
   * The fetch to send with (globalThis.fetch, looked up per request, by default). events() reads the answer's body
   * as it streams in, so a wrapper must hand the body on unread.
   */
  fetch?: FetchLike;
}

/** The client: the typed `api` itself, and the helpers bound to it. Each helper throws a CompanionError on failure. */
export interface Companion {
  api: CompanionApi;
  /** @example const { chainId, contracts } = await companion.settings(); */
  settings: () => ReturnType<typeof getSettings>;
  /** @example const quote = await companion.quote({ token, side: 'buy', amount: '0.1' }); */
  quote: (query: QuoteQuery) => ReturnType<typeof getQuote>;
  /** @example const build = await companion.buildBuy({ wallet, token, amount: '0.1' }); */
  buildBuy: (body: TradeBody) => ReturnType<typeof buildBuy>;
  /** @example const build = await companion.buildSell({ wallet, token, amount: '1000' }); */
  buildSell: (body: TradeBody) => ReturnType<typeof buildSell>;
  /** @example const build = await companion.buildLaunch({ wallet, name, symbol, marketCapPair: '30', image }); */
  buildLaunch: (body: LaunchBody) => ReturnType<typeof buildLaunch>;
  /** @example const intent = await companion.createIntent({ kind: 'prepare_buy', wallet, token, amount: '0.1' }); */
  createIntent: (body: IntentBody) => ReturnType<typeof createIntent>;
  /** @example const { build } = await companion.buildIntent(id); */
  buildIntent: (id: string) => ReturnType<typeof buildIntent>;
  /** @example const { state } = await companion.getIntent(id); */
  getIntent: (id: string) => ReturnType<typeof getIntent>;
  /** @example const settled = await companion.waitForIntent(id, { signal }); */
  waitForIntent: (id: string, options?: WaitOptions) => ReturnType<typeof waitForIntent>;
  /** @example await companion.reportSent(id, hash); */
  reportSent: (id: string, hash: string) => ReturnType<typeof reportSent>;
  /** @example for await (const launch of companion.events({ types: ['launch'] })) console.log(launch.data.symbol); */
  events: <T extends EventType = EventType>(options?: EventsOptions<T>) => ReturnType<typeof streamEvents<T>>;
  /** @example const { chain } = await companion.status(); */
  status: () => ReturnType<typeof getStatus>;
  /**
   * Builds a buy, checks it against `body` and the service's settings (BUILD_MISMATCH, before anything is signed),
   * signs it with the wallet client and sends it; receipts are polled at the chain's block time.
   *
   * @example const { hash } = await companion.sendBuy({ wallet, token, amount: '0.05' }, { walletClient, publicClient });
   */
  sendBuy: SendHelper<TradeBody, TradeBuild>;
  /** As sendBuy, for a sell: its approval steps are checked and sent first, then the sell built again. */
  sendSell: SendHelper<TradeBody, TradeBuild>;
  /** As sendBuy, for a launch: name, symbol, pair, first buy, its recipients and the royalty's are checked. */
  sendLaunch: SendHelper<LaunchBody, LaunchBuild>;
}

/** How the send helpers sign and send: sendBuild's options, less what the helper fills in itself. */
export type SendWith<B extends TradeBuild | LaunchBuild> = Omit<SendBuildOptions<B>, 'rebuild' | 'expect'>;

export interface SendHelper<Body, B extends TradeBuild | LaunchBuild> {
  (body: Body, send: SendWith<B> & { wait: false }): Promise<BroadcastBuild<B>>;
  (body: Body, send: SendWith<B> & { wait?: true }): Promise<SentBuild<B>>;
  (body: Body, send: SendWith<B>): Promise<SentBuild<B> | BroadcastBuild<B>>;
}

/** Receipts on a devnet that mines each transaction at once are asked for this often. */
const INSTANT_POLLING_MS = 50;
/** And on a chain whose block time is not known yet. */
const UNKNOWN_POLLING_MS = 1_000;

/**
 * The client of one running service. Requests that get no answer at all reject with a CompanionError UNREACHABLE
 * (through `api` too); the helpers turn error answers into CompanionErrors as well.
 *
 * @example const companion = createCompanion({ baseUrl: 'http://127.0.0.1:8787/api/v1' });
 */
export function createCompanion(options: CompanionOptions): Companion {
  const headers = {
    accept: 'application/json',
    ...options.headers,
    ...(options.apiKey === undefined ? {} : { 'x-api-key': options.apiKey }),
  };
  const plain: FetchLike = options.fetch ?? ((request) => fetch(request));
  // Redirects are followed by hand only to keep the key at home; without one, fetch's own handling is left alone.
  const send =
    options.apiKey === undefined
      ? plain
      : sameOriginFetch(new URL(options.baseUrl, globalThis.location?.href).origin, plain);
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    fetch: async (request) => {
      try {
        return await send(request);
      } catch (cause) {
        // fetch rejects with a TypeError when nothing answered; anything else (an abort, a wrapper's own error) is
        // the caller's and goes through as it is.
        throw cause instanceof TypeError ? unreachable(request.url, cause) : cause;
      }
    },
  });
  const { accept: _, ...streamHeaders } = headers;
  const retry = <T>(what: string, call: () => Promise<T>) => retryRateLimited(what, call, options.rateLimitRetry);

  // What the send helpers check builds against and poll receipts at: read once, on their first use.
  let settings: Promise<Settings> | undefined;
  let pollingMs: Promise<number> | undefined;
  const settingsOnce = () => {
    settings ??= getSettings(api).catch((error: unknown) => {
      settings = undefined;
      throw error;
    });
    return settings;
  };
  const pollingOnce = () => {
    pollingMs ??= getStatus(api).then(
      ({ chain }) =>
        chain.devnet?.blockTimeMs === 0
          ? INSTANT_POLLING_MS
          : (chain.devnet?.blockTimeMs ?? chain.blockTimeMs ?? UNKNOWN_POLLING_MS),
      () => {
        pollingMs = undefined;
        return UNKNOWN_POLLING_MS;
      },
    );
    return pollingMs;
  };
  const sendAsked = async <B extends TradeBuild | LaunchBuild>(
    asked: AskedBuild,
    build: () => Promise<B>,
    sendWith: SendWith<B>,
  ) => {
    // The node's fees are read while the service builds (and shared by the sends of this block): a buy is signed as
    // soon as its build comes back. sendBuild reads them itself if this read failed.
    pollingOnce()
      .then((ms) => recentFeeReads(sendWith.publicClient, ms))
      .catch(() => {});
    const [expectSettings, pollingIntervalMs, first] = await Promise.all([settingsOnce(), pollingOnce(), build()]);
    return sendBuild(first, {
      pollingIntervalMs,
      ...sendWith,
      rebuild: build,
      expect: { asked, settings: expectSettings, keyReferrer: options.apiKeyWallet ?? null },
    });
  };
  const buy = (body: TradeBody) => retry('build/buy', () => buildBuy(api, body));
  const sell = (body: TradeBody) => retry('build/sell', () => buildSell(api, body));
  const launch = (body: LaunchBody) => retry('build/launch', () => buildLaunch(api, body));
  return {
    api,
    settings: () => getSettings(api),
    quote: (query) => retry('quote', () => getQuote(api, query)),
    buildBuy: buy,
    buildSell: sell,
    buildLaunch: launch,
    createIntent: (body) => createIntent(api, body),
    buildIntent: (id) => retry('intents/build', () => buildIntent(api, id)),
    getIntent: (id) => getIntent(api, id),
    waitForIntent: (id, wait) => waitForIntent(api, id, wait),
    reportSent: (id, hash) => reportSent(api, id, hash),
    events: (events) => streamEvents({ baseUrl: options.baseUrl, headers: streamHeaders, fetch: send }, events),
    status: () => getStatus(api),
    sendBuy: ((body: TradeBody, sendWith: SendWith<TradeBuild>) =>
      sendAsked({ kind: 'buy', body }, () => buy(body), sendWith)) as SendHelper<TradeBody, TradeBuild>,
    sendSell: ((body: TradeBody, sendWith: SendWith<TradeBuild>) =>
      sendAsked({ kind: 'sell', body }, () => sell(body), sendWith)) as SendHelper<TradeBody, TradeBuild>,
    sendLaunch: ((body: LaunchBody, sendWith: SendWith<LaunchBuild>) =>
      sendAsked({ kind: 'launch', body }, () => launch(body), sendWith)) as SendHelper<LaunchBody, LaunchBuild>,
  };
}
