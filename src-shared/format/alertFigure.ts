import { formatAmount } from './numbers';

/** The currencies an alert rule's figure is set in. */
export type AlertFigureCurrency = 'usd' | 'bnb';

/**
 * An alert rule's figure (or the value it is compared with), wei of 18 decimals of dollars or BNB, as a trader reads
 * it: the notification's text and the Watchlist page write it alike.
 *
 * @example alertFigureText(1_250n * 10n ** 18n, 'usd') // '$1.25K'
 */
export function alertFigureText(wei: bigint, currency: AlertFigureCurrency): string {
  const text = formatAmount(wei, 18, { significant: 4, compact: true });
  return currency === 'usd' ? `$${text}` : `${text} BNB`;
}
