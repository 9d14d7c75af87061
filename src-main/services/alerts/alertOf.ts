import type { Address } from 'viem';
import type { ActivityEntry } from '../../../src-shared/appChannelTypes';
import { alertFigureText as figureText } from '../../../src-shared/format/alertFigure';
import type { AlertCurrency, AlertKind, AlertMetric } from '../../store/watchlistStore';
import type { Intent } from '../intents';

/** A notification as both surfaces show it: the desktop's Notification from main, and the web page's. */
export interface AlertNote {
  kind: AlertKind;
  title: string;
  body: string;
  /** The app's page it is about, opened when the notification is clicked. */
  path: string;
}

const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/*
 * What deserves a notification, decided here once for the desktop and the web page alike. Each returns null for an
 * event that does not.
 */

/** A prepared request a bot made, waiting for the person's signature; the app's own requests are the person's doing. */
export function requestAlert(intent: Intent): AlertNote | null {
  if (intent.source.kind === 'app' || intent.state !== 'pending') return null;
  const who =
    intent.source.kind === 'key'
      ? `A bot (key ${intent.source.key.label ?? short(intent.source.key.wallet)})`
      : 'A bot';
  // prepare_buy → "buy": what the person is asked to sign, in their words.
  const what = intent.kind.replace(/^prepare_/, '');
  return {
    kind: 'request',
    title: `A ${what} request waits for your signature`,
    body: `${who} prepared a ${what} for ${short(intent.wallet)}. Review it on the Requests page.`,
    path: '/requests',
  };
}

/** A launch by a creator the person watches. */
export function launchAlert(
  launch: { token: Address; symbol: string; name: string; creator: Address },
  watched: ReadonlySet<Address>,
): AlertNote | null {
  if (!watched.has(launch.creator)) return null;
  return {
    kind: 'launch',
    title: `${short(launch.creator)} launched ${launch.symbol}`,
    body: `${launch.name} (${launch.symbol}), by a creator you watch.`,
    path: `/token/${launch.token}`,
  };
}

/** A watched token's price or cap crossing the person's figure (the crossing rule decided it fires). */
export function crossingAlert(
  token: { address: Address; symbol: string },
  rule: { metric: AlertMetric; direction: 'above' | 'below'; currency: AlertCurrency; figure: bigint },
  now: bigint,
): AlertNote {
  const what = rule.metric === 'price' ? 'price' : 'market cap';
  return {
    kind: 'crossing',
    title: `${token.symbol} ${what} ${rule.direction === 'above' ? 'rose above' : 'fell below'} ${figureText(rule.figure, rule.currency)}`,
    body: `Its ${what} is ${figureText(now, rule.currency)} now.`,
    path: `/token/${token.address}`,
  };
}

/**
 * The person's own transaction settled: confirmed, reverted, or failed after it was sent (a failure before it left,
 * such as a rejection on the Ledger, is what the person just did on the page, not news). Messages are not notified.
 */
export function transactionAlert(entry: ActivityEntry): AlertNote | null {
  if (entry.message !== null || entry.hash === null) return null;
  if (entry.status === 'confirmed') {
    return { kind: 'transaction', title: 'Transaction confirmed', body: entry.title, path: '/activity' };
  }
  if (entry.status === 'reverted' || entry.status === 'failed') {
    return {
      kind: 'transaction',
      title: 'Transaction failed',
      body: entry.error ? `${entry.title}: ${entry.error}` : entry.title,
      path: '/activity',
    };
  }
  return null;
}
