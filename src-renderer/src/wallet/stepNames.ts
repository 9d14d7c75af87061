import { decodeFunctionData, type Hex, maxUint160, maxUint256 } from 'viem';
import { formatAmount } from '../../../src-shared/format/numbers';
import { formatShortDate } from '../../../src-shared/format/times';
import { allowanceTransferAbi, launchTokenAbi } from '../../../src-shared/generated/abis';

/** The currency an approval lets go of: the token sold, or the pair paid with. */
export interface StepCurrency {
  symbol: string;
  decimals: number;
}

/** An allowance at (or near) the type's ceiling is "all of it": nobody holds 2^160 of anything. */
const UNLIMITED_FROM = maxUint160;

function amountOf(amount: bigint, currency: StepCurrency | null): string {
  const symbol = currency?.symbol ?? 'tokens';
  if (amount >= UNLIMITED_FROM) return `all your ${symbol}`;
  return currency ? `${formatAmount(amount, currency.decimals, { round: 'up' })} ${symbol}` : `${amount} units`;
}

/** The approve call's amount and, for Permit2's, its end date; null when the data is no approval. */
export function decodeApproval(data: string): { amount: bigint; expiration: number | null } | null {
  try {
    const erc20 = decodeFunctionData({ abi: launchTokenAbi, data: data as Hex });
    if (erc20.functionName === 'approve') return { amount: erc20.args[1], expiration: null };
  } catch {
    // Not an ERC-20 call: Permit2's approve is tried next.
  }
  try {
    const permit = decodeFunctionData({ abi: allowanceTransferAbi, data: data as Hex });
    if (permit.functionName === 'approve') return { amount: permit.args[2], expiration: permit.args[3] };
  } catch {
    // Neither: the step is named by its name alone.
  }
  return null;
}

/**
 * What an approval step allows, in a person's words, from the step's name and its decoded call:
 * "Let Permit2 move your OWL", "Let the router spend all your OWL through Permit2 until 25 Dec".
 */
export function approvalName(step: string, data: string | null, currency: StepCurrency | null): string {
  const symbol = currency?.symbol ?? 'tokens';
  const call = data ? decodeApproval(data) : null;
  switch (step) {
    case 'approve-permit2':
      return call && call.amount < maxUint256
        ? `Let Permit2 move up to ${amountOf(call.amount, currency)}`
        : `Let Permit2 move your ${symbol}`;
    case 'approve-router': {
      const allowed = call ? amountOf(call.amount, currency) : `your ${symbol}`;
      const until = call?.expiration ? ` until ${formatShortDate(call.expiration * 1000)}` : '';
      return `Let the router spend ${allowed} through Permit2${until}`;
    }
    case 'approve-factory':
      return call
        ? `Let the launch factory take ${amountOf(call.amount, currency)} for the first buy`
        : `Let the launch factory take your ${symbol} for the first buy`;
    default:
      return step;
  }
}

const ACTION_NAMES: Record<string, string> = {
  buy: 'The buy',
  sell: 'The sale',
  launch: 'The launch',
  claim: 'The claim',
  collect: 'The collect',
};

/** The action's own transaction, named: "The buy", "The sale". */
export function actionName(kind: string): string {
  return ACTION_NAMES[kind] ?? `The ${kind}`;
}

/** "Step 1 of 3 · Let Permit2 move your OWL"; a lone transaction is just its name. */
export function stepLabel(position: number, total: number, name: string): string {
  return total > 1 ? `Step ${position} of ${total} · ${name}` : name;
}
