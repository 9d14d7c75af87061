import type { Address, Hex } from 'viem';

/**
 * What the user asked for, that a transaction is checked against. Amounts are wei. Built from a build answer's own
 * claims by `inspectBuild`, or by the review screen from what the user typed.
 */
export type Expectation =
  | TradeExpectation
  | LaunchExpectation
  | ClaimExpectation
  | CollectExpectation
  | StepExpectation
  | UnsignedExpectation;

export interface TradeExpectation {
  kind: 'trade';
  side: 'buy' | 'sell';
  exact: 'in' | 'out';
  wallet: Address;
  token: Address;
  /** The pair currency of the token's pool (WBNB for BNB). */
  pair: Address;
  /** The pool's fee tier, when known. */
  feeTier?: number;
  /** What is spent and what comes back at the quoted price. */
  pay: bigint;
  receive: bigint;
  /** The worst fill the user accepted: the least received (exact in) or the most paid (exact out). */
  limit: { kind: 'minReceive' | 'maxPay'; wei: bigint };
  referrer: Address | null;
  /** BNB paid or received natively: a buy then sends BNB as the transaction's value. */
  nativeBnb: boolean;
  /** The deadline the build announced (Unix seconds), when it did. */
  deadline?: number;
  /** The latest deadline accepted, in seconds from now. */
  deadlineMaxSeconds: number;
}

export interface LaunchExpectation {
  kind: 'launch';
  wallet: Address;
  name: string;
  symbol: string;
  supply: bigint;
  pair: Address;
  nativeBnb: boolean;
  /** Null without a first buy. */
  firstBuy: bigint | null;
  /** The fewest tokens the first buy may return, when known. */
  minTokens?: bigint | null;
  launchFeeWei: bigint;
  feeTier?: number;
  /** Who shares the first buy's tokens (bps of 10,000); null: the creator gets them all. */
  firstBuyTo?: readonly { wallet: Address; bps: number }[] | null;
  /** Where the royalty goes once the burn share is taken. */
  royalty?: { to: Address; burnBps: number };
  salt?: Hex;
  metadataURI?: string;
}

export interface ClaimExpectation {
  kind: 'claim';
  wallet: Address;
  /** Who the vault pays; the wallet itself unless it claims for someone else. */
  referrer: Address;
  weeks?: readonly { week: number; amount: bigint }[];
}

/** A collect of a launch's fees: anyone may send it, for the launch's royalty recipient. */
export interface CollectExpectation {
  kind: 'collect';
  wallet: Address;
  token: Address;
}

export type StepName = 'approve-permit2' | 'approve-router' | 'approve-factory';

export interface StepExpectation {
  kind: 'step';
  step: StepName;
  wallet: Address;
  /** The token approved: the trade's pay token, or the launch's pair. */
  token: Address;
  /** The latest Permit2 expiry accepted, in seconds from now. */
  permitMaxSeconds: number;
  /** The exact amount an approval of the launch factory must be for: the first buy, never more. */
  amount?: bigint;
}

/** A bare transaction with no claims beside it: only what the call itself implies can be checked. */
export interface UnsignedExpectation {
  kind: 'unsigned';
  deadlineMaxSeconds: number;
  permitMaxSeconds: number;
}
