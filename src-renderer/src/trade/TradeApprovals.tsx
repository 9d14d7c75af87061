import type { Side, TokenInfo } from '../api/tokens';

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four'];

/** "3 confirmations: two approvals, then the sale". */
function confirmationsText(steps: number, side: Side): string {
  const approvals = `${COUNT_WORDS[steps] ?? steps} approval${steps === 1 ? '' : 's'}`;
  return `${steps + 1} confirmations: ${approvals}, then the ${side === 'buy' ? 'buy' : 'sale'}`;
}

/**
 * What the approvals allow, in a sentence. A token launched here lets Permit2 move it by itself, so its first sell
 * asks only Permit2's approval of the router, which ends after a while and is asked again then.
 */
function approvalsNote(steps: string[]): string {
  if (steps.includes('approve-permit2')) return "The approvals are unlimited; Permit2's is asked once.";
  return 'The approval lets the router spend it through Permit2 for a limited time.';
}

/**
 * The approval step, before a first trade with a currency: how many confirmations the trade takes and what the
 * approvals allow. Nothing once the approvals are in place.
 */
export function TradeApprovals({ steps, side, token }: { steps: string[]; side: Side; token: TokenInfo }) {
  if (steps.length === 0) return null;
  return (
    <p className="text-xs text-muted" data-testid="trade-confirmations" data-count={steps.length + 1}>
      Your first {side === 'buy' ? 'buy with' : 'sell of'} {side === 'buy' ? token.quote.symbol : token.symbol} takes{' '}
      {confirmationsText(steps.length, side)}. {approvalsNote(steps)}
    </p>
  );
}
