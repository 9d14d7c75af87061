import { ApiError } from '../errors';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal amount in whole units ("0.05") into wei for a currency with `decimals` places, refusing anything
 * that is not a plain positive decimal (no sign, exponent, spaces or separators) or has more places than the currency.
 * `field` names the request field in the error.
 *
 * @example parseDecimalAmount('1.5', 18, 'amount') // 1500000000000000000n
 */
export function parseDecimalAmount(text: unknown, decimals: number, field: string): bigint {
  if (typeof text !== 'string' || !DECIMAL.test(text)) {
    throw new ApiError(
      'INVALID_AMOUNT',
      `${field} must be a positive decimal string such as "0.05", not ${describe(text)}`,
      {
        field,
      },
    );
  }
  const [, whole = '0', fraction = ''] = DECIMAL.exec(text) ?? [];
  if (fraction.length > decimals) {
    throw new ApiError(
      'TOO_MANY_DECIMALS',
      `${field} has ${fraction.length} decimal places; the currency has ${decimals}`,
      {
        field,
        fix: `Round ${field} to at most ${decimals} decimal places.`,
      },
    );
  }
  const wei = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (wei === 0n) throw new ApiError('INVALID_AMOUNT', `${field} must be greater than zero`, { field });
  return wei;
}

/**
 * Formats wei as a decimal string in whole units, without trailing zeros.
 *
 * @example formatDecimalAmount(1500000000000000000n, 18) // "1.5"
 */
export function formatDecimalAmount(wei: bigint, decimals: number): string {
  const negative = wei < 0n;
  const digits = (negative ? -wei : wei).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value === '' ? 'an empty string' : `"${value.slice(0, 40)}"`;
  if (value === undefined) return 'nothing';
  return `a ${value === null ? 'null' : typeof value}`;
}

/**
 * Wei as whole units with the currency's symbol, for messages and explanations.
 *
 * @example formatWithSymbol(1500000000000000000n, { decimals: 18, symbol: 'BNB' }) // "1.5 BNB"
 */
export function formatWithSymbol(wei: bigint, currency: { decimals: number; symbol: string }): string {
  return `${formatDecimalAmount(wei, currency.decimals)} ${currency.symbol}`;
}
