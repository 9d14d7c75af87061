import { type Address, decodeFunctionData, type Hex } from 'viem';
import type { ActivityEntry } from '../../../src-shared/appChannelTypes';
import { launchFactoryAbi, tradeRouterAbi } from '../../../src-shared/generated/abis';

/** One action as the person took it: its own transaction (the trade, the launch) and the approvals sent before it. */
export interface ActivityAction {
  groupId: string;
  /** The action's own entry; for an action stopped in its approvals, the latest of them. */
  head: ActivityEntry;
  /** The other entries of the action, in the order they were sent. */
  steps: ActivityEntry[];
}

/** What a trade's call says it moves: the exact side, and the other side's floor or ceiling. */
export interface TradeMove {
  side: 'buy' | 'sell';
  token: Address;
  pair: Address;
  /** What is paid and what comes back, in wei; `bound` says which of them is a limit rather than exact. */
  pay: bigint;
  receive: bigint;
  bound: 'minReceive' | 'maxPay';
}

/**
 * The activity list (newest first) as actions: the entries of one group together, the action's own entry first and
 * its approval steps after it, oldest first. Actions keep the order of their newest entry.
 */
export function groupActivity(entries: readonly ActivityEntry[]): ActivityAction[] {
  const groups = new Map<string, ActivityEntry[]>();
  for (const entry of entries) {
    const group = groups.get(entry.groupId);
    if (group) group.push(entry);
    else groups.set(entry.groupId, [entry]);
  }
  return [...groups.entries()].map(([groupId, group]) => {
    const head = group.find((entry) => entry.step === 'main') ?? (group[0] as ActivityEntry);
    const steps = group.filter((entry) => entry !== head).sort((a, b) => a.createdAt - b.createdAt);
    return { groupId, head, steps };
  });
}

/** The trade a router call makes, read from its data; null for anything else. */
export function tradeMoveOf(data: string | null): TradeMove | null {
  if (!data) return null;
  try {
    const call = decodeFunctionData({ abi: tradeRouterAbi, data: data as Hex });
    const name = call.functionName;
    if (!['buyExactIn', 'buyExactOut', 'sellExactIn', 'sellExactOut'].includes(name)) return null;
    const params = (call.args as readonly [{ token: Address; pair: Address; amount: bigint; limit: bigint }])[0];
    const side = name.startsWith('buy') ? 'buy' : 'sell';
    const exactIn = name.endsWith('In');
    return {
      side,
      token: params.token,
      pair: params.pair,
      pay: exactIn ? params.amount : params.limit,
      receive: exactIn ? params.limit : params.amount,
      bound: exactIn ? 'minReceive' : 'maxPay',
    };
  } catch {
    return null;
  }
}

/** A launch call's name, symbol and first buy (in the pair); null for anything else. */
export function launchOf(
  data: string | null,
): { name: string; symbol: string; pair: Address; firstBuy: bigint } | null {
  if (!data) return null;
  try {
    const call = decodeFunctionData({ abi: launchFactoryAbi, data: data as Hex });
    if (call.functionName !== 'launch') return null;
    const [params] = call.args;
    return { name: params.name, symbol: params.symbol, pair: params.pair, firstBuy: params.firstBuy };
  } catch {
    return null;
  }
}
