import type { Address } from 'viem';
import type { BuildAnswer, UserRequest } from '../wallet/sendBuild';
import type { ReviewCheck } from './reviewStore';

/** A decimal string in one canonical form ("001.500" -> "1.5"), to compare what was typed with what was built. */
export function canonicalDecimal(text: unknown): string | null {
  if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text.trim())) return null;
  const [whole = '0', fraction = ''] = text.trim().split('.');
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  return f ? `${w}.${f}` : w;
}

const same = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * Checks the build's own claims against what the person asked for on the page: the build is for the signer's wallet,
 * the token, side, exact side, amount and slippage they chose (a trade), the name, symbol and first buy they typed (a
 * launch). The decoder then checks the transaction against those claims, so the two together tie what is signed to
 * what was asked.
 */
export function requestChecks(answer: BuildAnswer, request: UserRequest, wallet: Address): ReviewCheck[] {
  const a = answer as unknown as Record<string, unknown>;
  const checks: ReviewCheck[] = [];
  const check = (id: string, ok: boolean, message: string) => checks.push({ id, ok, message });
  if ('wallet' in a) check('request-wallet', same(a.wallet, wallet), `Built for the signer's wallet ${wallet}.`);
  if (request.kind === 'buy' || request.kind === 'sell') {
    const token = (a.token as { address?: unknown } | undefined)?.address;
    check('request-token', same(token, request.token), `The token is the one on the page (${request.token}).`);
    check(
      'request-side',
      a.side === request.kind && a.exact === request.exact,
      `A ${request.kind}, exact ${request.exact}.`,
    );
    const built =
      request.exact === 'in' ? (a.pay as { amount?: unknown })?.amount : (a.receive as { amount?: unknown })?.amount;
    const asked = canonicalDecimal(request.amount);
    check(
      'request-amount',
      asked !== null && canonicalDecimal(built) === asked,
      `The ${request.exact === 'in' ? 'amount paid' : 'amount received'} is the ${request.amount} you typed (built: ${String(built)}).`,
    );
    check(
      'request-slippage',
      a.slippageBps === request.slippageBps,
      `The limit allows the ${request.slippageBps / 100}% slippage you chose (built: ${String(a.slippageBps)} bps).`,
    );
  } else if (request.kind === 'launch') {
    check(
      'request-name',
      a.name === request.name && a.symbol === request.symbol,
      `Launches ${request.name} (${request.symbol}).`,
    );
    const firstBuy = (a.firstBuy as { spend?: { amount?: unknown } } | null | undefined)?.spend?.amount ?? null;
    const asked = request.firstBuy === null ? null : canonicalDecimal(request.firstBuy);
    check(
      'request-first-buy',
      (asked === null && firstBuy === null) || (asked !== null && canonicalDecimal(firstBuy) === asked),
      request.firstBuy === null ? 'No first buy.' : `A first buy of ${request.firstBuy} (built: ${String(firstBuy)}).`,
    );
  }
  return checks;
}
