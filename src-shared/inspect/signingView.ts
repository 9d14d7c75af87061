import {
  type Address,
  formatUnits,
  getAddress,
  type Hex,
  keccak256,
  maxUint160,
  maxUint256,
  serializeTransaction,
} from 'viem';
import type { PreparedTx } from '../schema/unsignedTx';
import type { TxSummary } from './decodeCall';
import { BNB, currencyAt, formatAmount, formatBps, formatDeadline } from './humanUnits';
import { addressLabel, type KnownContracts, sameAddress, type TokenInfos } from './knownContracts';
import { fieldScreens, type LedgerField, type LedgerModel, modelWords } from './ledgerScreens';

/**
 * When an approval ends, as the decoder showed it against its clock ("in 30 days, 28 Dec 2026"), or against now when
 * the summary has no such argument; a uint48 expiry beyond any date a calendar holds is said to be so.
 */
const untilText = (summary: TxSummary, seconds: number) =>
  summary.args.find((arg) => arg.name === 'expiration')?.display ??
  formatDeadline(BigInt(seconds), Math.floor(Date.now() / 1000));

const unlimited = (amount: bigint) => amount >= maxUint160 || amount === maxUint256;

/**
 * One sentence saying what a transaction does, written from its decoded call and nothing else, so a tampered
 * argument shows as the tampered value (a build's own `explain` text is never used for it).
 *
 * @example headlineOf(summary, known) // 'Buy MCAT: pays exactly 1.5 BNB, receives at least 1234.5 MCAT'
 */
export function headlineOf(summary: TxSummary, known: KnownContracts, tokens: TokenInfos = {}): string {
  const { call } = summary;
  const arg = (name: string) => summary.args.find((a) => a.name === name)?.display ?? '?';
  const named = (address: string) => addressLabel(address, known, tokens) ?? address;
  switch (call.kind) {
    case 'trade': {
      const token = currencyAt(call.params.token, known, tokens)?.symbol ?? call.params.token;
      const side = call.function.startsWith('buy') ? 'Buy' : 'Sell';
      return `${side} ${token}: ${arg('amount')}, ${arg('limit')}`;
    }
    case 'launch': {
      const { params } = call;
      const pair = currencyAt(params.pair, known, tokens);
      const firstBuy = params.firstBuy > 0n ? `, with a first buy of ${formatAmount(params.firstBuy, pair)}` : '';
      return `Launch ${JSON.stringify(params.name)} (${params.symbol})${firstBuy}, sending ${summary.value.display}`;
    }
    case 'claim': {
      const total = call.claims.reduce((sum, claim) => sum + claim.amount, 0n);
      return `Claim ${formatAmount(total, BNB)} of referral weeks, paid to ${named(call.referrer)}`;
    }
    case 'collect':
      return `Collect the trading fees of ${named(call.token)} for its royalty recipient${summary.value.wei === '0' ? '' : `, sending ${summary.value.display}`}`;
    case 'erc20-approve': {
      const currency = currencyAt(call.token, known, tokens);
      const what = unlimited(call.amount)
        ? `any amount of your ${currency?.symbol ?? call.token}, with no end`
        : formatAmount(call.amount, currency);
      return `Let ${named(call.spender)} take ${what}`;
    }
    case 'permit2-approve': {
      const currency = currencyAt(call.token, known, tokens);
      const what = unlimited(call.amount)
        ? `any amount of your ${currency?.symbol ?? call.token}`
        : formatAmount(call.amount, currency);
      return `Let ${named(call.spender)} spend ${what} through Permit2, expiring ${untilText(summary, call.expiration)}`;
    }
    case 'other':
      return `Call ${call.function} on ${summary.contractLabel}, which this app never builds`;
    case 'undecoded':
      return `An unreadable call to ${summary.to}, sending ${summary.value.display}`;
  }
}

/** A warning about the person's own interest: signing stays possible, but only after they tick it. */
export interface InterestWarning {
  id: string;
  message: string;
}

/** What the person chose themselves, against which a transaction is judged whoever asked for it. */
export interface PersonsChoice {
  /** The wallet that signs. */
  signer: Address;
  /** The referrer the person picked (a referral link they followed, or their bound referrer); null for none. */
  referrer: Address | null;
  /** The slippage the person set, or the app's default when they set none, in basis points. */
  slippageBps: number;
}

/**
 * Judges a transaction by the signer's interest, not by whoever asked for it: money or royalties going to another
 * wallet, a referrer the person did not choose, more slippage than theirs, an allowance with no limit. Each is a
 * warning the person must tick before signing.
 */
export function interestWarnings(
  summary: TxSummary,
  choice: PersonsChoice,
  claims: { slippageBps?: number | null },
  known: KnownContracts,
  tokens: TokenInfos = {},
): InterestWarning[] {
  const warnings: InterestWarning[] = [];
  const { call } = summary;
  const named = (address: string) => {
    const label = addressLabel(address, known, tokens);
    return label ? `${address} (${label})` : address;
  };
  if (call.kind === 'trade') {
    const referrer = summary.referrer;
    if (referrer !== null && !sameAddress(referrer, choice.referrer)) {
      warnings.push({
        id: 'referrer-not-chosen',
        message: `The trade pays a referral cut to ${named(referrer)}, a referrer you did not choose${choice.referrer ? ` (you chose ${choice.referrer})` : ''}. Trading through a referrer binds your wallet to it for life.`,
      });
    }
    const slippage = claims.slippageBps;
    if (typeof slippage === 'number' && slippage > choice.slippageBps) {
      warnings.push({
        id: 'slippage-above-yours',
        message: `It accepts ${formatBps(slippage)} slippage, more than your ${formatBps(choice.slippageBps)}: the price may move that far against you.`,
      });
    }
  } else if (call.kind === 'launch') {
    const { params } = call;
    if (params.firstBuy > 0n) {
      const pair = currencyAt(params.pair, known, tokens);
      for (const [i, to] of params.firstBuyTo.entries()) {
        if (sameAddress(to.wallet, choice.signer)) continue;
        warnings.push({
          id: `first-buy-to-${i}`,
          message: `${formatBps(to.bps)} of your first buy of ${formatAmount(params.firstBuy, pair)} goes to ${named(to.wallet)}, not to your wallet.`,
        });
      }
    }
    if (!/^0x0{40}$/i.test(params.royaltyTo) && !sameAddress(params.royaltyTo, choice.signer)) {
      warnings.push({
        id: 'royalty-to-other',
        message: `The token's royalty, for as long as it trades, goes to ${named(params.royaltyTo)}, not to your wallet.`,
      });
    }
  } else if (call.kind === 'claim') {
    if (!sameAddress(call.referrer, choice.signer)) {
      warnings.push({
        id: 'claim-for-other',
        message: `The claim pays ${named(call.referrer)}, not your wallet (you pay its gas).`,
      });
    }
  } else if ((call.kind === 'erc20-approve' || call.kind === 'permit2-approve') && unlimited(call.amount)) {
    warnings.push({
      id: 'unlimited-approval',
      message: `It lets ${named(call.spender)} take any amount of this token from your wallet, not only this trade's${call.kind === 'permit2-approve' ? `, until it expires ${untilText(summary, call.expiration)}` : ', with no end date'}.`,
    });
  }
  return warnings;
}

/** The Ethereum app's names for the networks we run on; it shows any other chain by its number. */
const LEDGER_NETWORKS: Record<number, { name: string; ticker: string }> = { 56: { name: 'BSC', ticker: 'BNB' } };

/** The ticker the Ethereum app writes for a chain it has no name for (our devnet, the fork, BSC testnet). */
export const UNKNOWN_TICKER = '???';

/** What a Ledger's Ethereum app displays for a transaction it signs blind, screen by screen. */
export interface LedgerView {
  /** The signing wallet: the device shows it first, as From. */
  from: Address;
  amount: string;
  /** The raw address the device shows, and the name the app knows it by (shown beside it, not by the device). */
  to: { address: Address; name: string | null };
  maxFees: string;
  network: string;
  /** keccak256 of the unsigned serialized transaction: the device shows it when it signs blind. */
  hash: Hex;
  /**
   * Set where the app knows no ticker for the chain and writes "???" for the currency: the amount and the fees in
   * BNB, which the device does not say.
   */
  unknownTicker: { amount: string; maxFees: string } | null;
  /**
   * The fields as the connected model lays them out (each value broken into the device's lines, a Nano's long values
   * cut into its pages), in the device's order; null when the model is not known.
   */
  screens: { model: LedgerModel; fields: LedgerField[] } | null;
}

/**
 * What the real Ethereum app (1.22) shows before it signs a call it cannot clear-sign: "Blind signing ahead", then
 * From, the amount, To (the raw address), the max fees, the network and the transaction hash. The hash is computed
 * here from the filled transaction, so the person can compare the device with the screen; with the model known, each
 * value is broken into lines (and a Nano's into pages) exactly where that device breaks it.
 */
export function ledgerView(
  tx: PreparedTx,
  known: KnownContracts,
  from: Address,
  model: LedgerModel | null = null,
): LedgerView {
  const network = LEDGER_NETWORKS[tx.chainId];
  const ticker = network?.ticker ?? UNKNOWN_TICKER;
  const serialized = serializeTransaction({
    type: 'eip1559',
    chainId: tx.chainId,
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    gas: BigInt(tx.gas),
    nonce: tx.nonce,
    maxFeePerGas: BigInt(tx.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
  });
  const value = formatUnits(BigInt(tx.value), 18);
  const fees = formatUnits(BigInt(tx.gas) * BigInt(tx.maxFeePerGas), 18);
  const view = {
    from: getAddress(from),
    amount: `${value} ${ticker}`,
    to: { address: tx.to, name: addressLabel(tx.to, known) },
    maxFees: `${fees} ${ticker}`,
    network: network?.name ?? String(tx.chainId),
    hash: keccak256(serialized),
    unknownTicker: network ? null : { amount: `${value} BNB`, maxFees: `${fees} BNB` },
  };
  if (!model) return { ...view, screens: null };
  const { hashTitle } = modelWords(model);
  const fields = [
    ...fieldScreens('From', view.from, model),
    ...fieldScreens('Amount', view.amount, model),
    ...fieldScreens('To', getAddress(view.to.address), model),
    ...fieldScreens('Max fees', view.maxFees, model),
    ...fieldScreens('Network', view.network, model),
    ...fieldScreens(hashTitle, view.hash, model),
  ];
  return { ...view, screens: { model, fields } };
}

interface CallFields {
  chainId: number;
  to: string;
  data: string;
  value: string;
}

/** Whether two transactions make the very same call (same chain, target, data and value). */
export function sameCall(a: CallFields, b: CallFields): boolean {
  return (
    a.chainId === b.chainId &&
    sameAddress(a.to, b.to) &&
    a.data.toLowerCase() === b.data.toLowerCase() &&
    a.value === b.value
  );
}
