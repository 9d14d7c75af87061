import type { Address } from 'viem';
import { apiBase } from '../api/apiBase';
import { postJson } from '../api/postJson';
import type { BuildAnswer } from '../wallet/sendBuild';

interface Amount {
  amount: string;
  wei: string;
}

/** The spec's Launch build response (the fields the page shows and sendBuild sends). */
export interface LaunchBuildAnswer extends BuildAnswer {
  wallet: Address;
  /** The new token's address, known before sending. */
  token: Address;
  name: string;
  symbol: string;
  supply: Amount;
  pair: { address: Address; decimals: number; symbol: string; priced: boolean; note?: string };
  opening: { marketCapPair: number; marketCapUsd: number | null; driftFromAskedPct: number };
  feeTier: number;
  firstBuy: { spend: Amount; minTokens: Amount } | null;
  launchFee: Amount;
  creatorFeeRecipient: Address;
  royalty: { kind: 'keep' | 'split' | 'holders'; burnPct: number; to: Address; explain: string };
  shape: string;
  firstBuyTo: { wallet: Address; pct: number }[] | null;
  metadata: { uri: string } | null;
  simulation: { ran: boolean; ok: boolean };
  cost: { gasPriceWei: string; maxWei: string; max: string };
}

/** Builds the launch for `wallet` (POST /build/launch); a refusal is thrown as an ApiRequestError with its field. */
export function buildLaunch(wallet: Address, body: Record<string, unknown>): Promise<LaunchBuildAnswer> {
  return postJson(`${apiBase}/build/launch`, { ...body, wallet });
}
