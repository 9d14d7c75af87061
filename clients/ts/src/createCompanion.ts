import createClient, { type Client } from 'openapi-fetch';
import { buildIntent } from './buildIntent';
import { buildLaunch, type LaunchBody } from './buildLaunch';
import { buildBuy, buildSell, type TradeBody } from './buildTrade';
import { unreachable } from './companionError';
import { createIntent, type IntentBody } from './createIntent';
import { type EventsOptions, type EventType, streamEvents } from './events/streamEvents';
import { getIntent } from './getIntent';
import { getQuote, type QuoteQuery } from './getQuote';
import { getSettings } from './getSettings';
import { reportSent } from './reportSent';
import type { paths } from './schema';
import { type WaitOptions, waitForIntent } from './waitForIntent';

/** The API typed by the service's OpenAPI document: openapi-fetch's client over `paths`. */
export type CompanionApi = Client<paths>;

export type FetchLike = (request: Request) => Promise<Response>;

export interface CompanionOptions {
  /** The API root, version included: `http://127.0.0.1:8787/api/v1`. */
  baseUrl: string;
  /** Sent as `x-api-key` on every request: makes the key's wallet the default referrer of its builds. */
  apiKey?: string;
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
}

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
  const send: FetchLike = options.fetch ?? ((request) => fetch(request));
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
  return {
    api,
    settings: () => getSettings(api),
    quote: (query) => getQuote(api, query),
    buildBuy: (body) => buildBuy(api, body),
    buildSell: (body) => buildSell(api, body),
    buildLaunch: (body) => buildLaunch(api, body),
    createIntent: (body) => createIntent(api, body),
    buildIntent: (id) => buildIntent(api, id),
    getIntent: (id) => getIntent(api, id),
    waitForIntent: (id, wait) => waitForIntent(api, id, wait),
    reportSent: (id, hash) => reportSent(api, id, hash),
    events: (events) => streamEvents({ baseUrl: options.baseUrl, headers: streamHeaders, fetch: send }, events),
  };
}
