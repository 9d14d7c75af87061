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

/** Who asked: the person on this page, or a bot through a prepared request (the wording names the one who did). */
export type Asker = 'person' | 'bot';

const WORDS: Record<Asker, { token: string; typed: string; chose: string }> = {
  person: { token: 'the one on the page', typed: 'you typed', chose: 'you chose' },
  bot: { token: 'the one the bot asked for', typed: 'the bot asked for', chose: 'the bot asked for' },
};

/**
 * Checks the build's own claims against what was asked, on the page or by a bot's prepared request: the build is for
 * the signer's wallet, the token, side, exact side, amount and slippage asked (a trade), the name, symbol and first
 * buy asked (a launch). The decoder then checks the transaction against those claims, so the two together tie what is
 * signed to what was asked. The ids stay the same whoever asked; only the wording changes.
 */
export function requestChecks(
  answer: BuildAnswer,
  request: UserRequest,
  wallet: Address,
  asker: Asker = 'person',
): ReviewCheck[] {
  const words = WORDS[asker];
  const a = answer as unknown as Record<string, unknown>;
  const checks: ReviewCheck[] = [];
  const check = (id: string, ok: boolean, message: string) => checks.push({ id, ok, message });
  if ('wallet' in a) check('request-wallet', same(a.wallet, wallet), `Built for the signer's wallet ${wallet}.`);
  if (request.kind === 'buy' || request.kind === 'sell') {
    const token = (a.token as { address?: unknown } | undefined)?.address;
    check('request-token', same(token, request.token), `The token is ${words.token} (${request.token}).`);
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
      `The ${request.exact === 'in' ? 'amount paid' : 'amount received'} is the ${request.amount} ${words.typed} (built: ${String(built)}).`,
    );
    check(
      'request-slippage',
      a.slippageBps === request.slippageBps,
      `The limit allows the ${request.slippageBps / 100}% slippage ${words.chose} (built: ${String(a.slippageBps)} bps).`,
    );
  } else if (request.kind === 'collect') {
    const token = (a.token as { address?: unknown } | undefined)?.address;
    check('request-token', same(token, request.token), `Collects the fees of ${words.token} (${request.token}).`);
  } else if (request.kind === 'launch') {
    check(
      'request-name',
      a.name === request.name && a.symbol === request.symbol,
      `Launches ${request.name} (${request.symbol})${asker === 'bot' ? ', as the bot asked' : ''}.`,
    );
    const firstBuy = (a.firstBuy as { spend?: { amount?: unknown } } | null | undefined)?.spend?.amount ?? null;
    const asked = request.firstBuy === null ? null : canonicalDecimal(request.firstBuy);
    check(
      'request-first-buy',
      (asked === null && firstBuy === null) || (asked !== null && canonicalDecimal(firstBuy) === asked),
      request.firstBuy === null
        ? 'No first buy.'
        : `A first buy of ${request.firstBuy}${asker === 'bot' ? ', as the bot asked' : ''} (built: ${String(firstBuy)}).`,
    );
  }
  return checks;
}
