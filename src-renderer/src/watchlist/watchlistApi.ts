import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../clients/ts/src/index';
import { answerOf, api } from '../api/client';
import { queryClient } from '../api/queryClient';

type Schemas = components['schemas'];
/** The starred tokens (with their alert rules) and creators. */
export type Watchlist = Schemas['Watchlist'];
export type AlertRule = NonNullable<Schemas['AlertRule']>;
/** A rule as the page sends it (its state is the service's). */
export type AlertRuleInput = Omit<AlertRule, 'state'>;
export type AlertKinds = Schemas['AlertKinds'];
export type AlertKind = keyof AlertKinds;
export type AlertFeed = Schemas['AlertFeed'];

const WATCHLIST_KEY = ['watchlist'] as const;
const KINDS_KEY = ['alert-kinds'] as const;

export function fetchWatchlist(): Promise<Watchlist> {
  return answerOf(api.GET('/watchlist'));
}

/** The watchlist, shared by the stars on every page and the Watchlist page. */
export function useWatchlist() {
  return useQuery({ queryKey: WATCHLIST_KEY, queryFn: fetchWatchlist, staleTime: 10_000 });
}

/** Stores what the service answered to a change, so every star shows it at once. */
async function changed(call: Promise<Watchlist>): Promise<Watchlist> {
  const watchlist = await call;
  queryClient.setQueryData(WATCHLIST_KEY, watchlist);
  return watchlist;
}

/** Stars a token with its rule (null: none; a rule set before is replaced). */
export function watchToken(address: string, alert: AlertRuleInput | null): Promise<Watchlist> {
  return changed(answerOf(api.PUT('/watchlist/tokens/{address}', { params: { path: { address } }, body: { alert } })));
}

export function unwatchToken(address: string): Promise<Watchlist> {
  return changed(answerOf(api.DELETE('/watchlist/tokens/{address}', { params: { path: { address } } })));
}

export function watchCreator(address: string): Promise<Watchlist> {
  return changed(answerOf(api.PUT('/watchlist/creators/{address}', { params: { path: { address } } })));
}

export function unwatchCreator(address: string): Promise<Watchlist> {
  return changed(answerOf(api.DELETE('/watchlist/creators/{address}', { params: { path: { address } } })));
}

/** Which kinds of notification are on. */
export function useAlertKinds() {
  return useQuery({ queryKey: KINDS_KEY, queryFn: () => answerOf(api.GET('/alerts/kinds')) });
}

export async function switchAlertKinds(kinds: Partial<AlertKinds>): Promise<AlertKinds> {
  const answer = await answerOf(api.PUT('/alerts/kinds', { body: kinds }));
  queryClient.setQueryData(KINDS_KEY, answer);
  return answer;
}

/** The notifications raised after `after` (none without it: only where the feed stands). */
export function fetchAlerts(after?: number): Promise<AlertFeed> {
  return answerOf(api.GET('/alerts', { params: { query: after === undefined ? {} : { after: String(after) } } }));
}
