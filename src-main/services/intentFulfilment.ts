import type { Address, Hex } from 'viem';
import { type DecodedCall, decodeCall, type LaunchParams, type TradeParams } from '../../src-shared/inspect/decodeCall';
import type { KnownContracts } from '../../src-shared/inspect/knownContracts';
import { readUnsignedTx } from '../../src-shared/inspect/unsignedTx';
import { ApiError } from '../core/errors';

/** A transaction as the chain reports it, with what the checks read. */
export interface SentTransaction {
  hash: Hex;
  from: Address;
  to: Address | null;
  input: Hex;
  value: bigint;
}

/** What a prepared request is checked against: the request itself and the build made for it, as stored. */
export interface FulfilledRequest {
  kind: 'prepare_buy' | 'prepare_sell' | 'prepare_launch';
  wallet: Address;
  build: unknown | null;
}

export interface FulfilmentContext {
  known: KnownContracts;
  /** The factory's own answer to where a creator's launch with these parameters creates its token. */
  launchedToken(creator: Address, params: LaunchParams): Promise<Address>;
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * WRONG_CONTRACT for a trade or launch of ours that is not the call built for the request: the spec's code for a
 * transaction that is not the request's trade or launch, with what differs (also in `detail.differs`).
 */
const wrong = (hash: Hex, what: 'trade' | 'launch', why: string) =>
  new ApiError(
    'WRONG_CONTRACT',
    `${hash} is a ${what} of this service, but not the one this request asked for: ${why}`,
    {
      field: 'hash',
      detail: { differs: why },
      fix: 'Build the request (POST /intents/{id}/build), sign and send exactly that build, then report its hash.',
    },
  );

/**
 * Refuses a reported transaction unless it is the trade or launch the request asked for: sent by its wallet, to the
 * router (trades) or the factory (launches), and, decoded with the review screen's decoder, the same call as the build
 * made for the request. A trade must have the same function (side and exact side), token, pair, pool tier, exact
 * amount and referrer, and a limit no looser than the build's (the build's quote moved by the request's slippage); a
 * launch must create the token the build announced, with the same first buy (a floor no lower), split and royalty.
 * A request never built has no transaction of its own yet.
 *
 * @example await checkFulfilment(intent, await client.getTransaction({ hash }), context) // throws WRONG_CONTRACT
 */
export async function checkFulfilment(
  request: FulfilledRequest,
  tx: SentTransaction,
  context: FulfilmentContext,
): Promise<void> {
  const { known } = context;
  if (!same(tx.from, request.wallet)) {
    throw new ApiError('WRONG_SENDER', `${tx.hash} was sent by ${tx.from}, not by ${request.wallet}`, {
      field: 'hash',
    });
  }
  const launch = request.kind === 'prepare_launch';
  const what = launch ? 'launch' : 'trade';
  const contract = launch ? known.factory : known.router;
  const notOurs = (why: string) =>
    new ApiError('WRONG_CONTRACT', `${tx.hash} is ${why}, not a ${what} of this service`, { field: 'hash' });
  if (!tx.to || !same(tx.to, contract)) throw notOurs(`a transaction to ${tx.to ?? 'no contract'}`);
  const sent = decodeCall(
    { chainId: known.chainId, to: tx.to, data: tx.input, value: tx.value.toString() },
    { known, now: 0 },
  ).call;
  if (sent.kind !== what) {
    throw notOurs(sent.kind === 'other' ? `a call of ${sent.function}` : `a call that is no ${what}`);
  }
  const built = builtCall(request, known, tx.hash, what);
  if (sent.kind === 'trade' && built.kind === 'trade') {
    const mismatch = tradeMismatch(request.kind, sent.function, sent.params, built.function, built.params);
    if (mismatch) throw wrong(tx.hash, what, mismatch);
    return;
  }
  if (sent.kind === 'launch' && built.kind === 'launch') {
    const announced = (request.build as { token?: unknown }).token;
    const token = await context.launchedToken(tx.from, sent.params);
    if (typeof announced !== 'string' || !same(token, announced)) {
      throw wrong(tx.hash, what, `it launches ${token}, and the build announced ${String(announced)}`);
    }
    const mismatch = launchMismatch(sent.params, built.params);
    if (mismatch) throw wrong(tx.hash, what, mismatch);
    return;
  }
  throw wrong(tx.hash, what, `the build made for the request is no ${what}`);
}

/** The call the service built for the request, decoded the same way. */
function builtCall(request: FulfilledRequest, known: KnownContracts, hash: Hex, what: 'trade' | 'launch'): DecodedCall {
  if (request.build === null) {
    throw new ApiError(
      'WRONG_CONTRACT',
      `${hash} cannot fulfil this request: it was never built, so no transaction is its own yet`,
      {
        field: 'hash',
        fix: `Build the request (POST /intents/{id}/build), sign and send that ${what}, then report its hash.`,
      },
    );
  }
  const read = readUnsignedTx((request.build as { tx?: unknown }).tx, 'build.tx');
  // Our own stored build: a broken one is a fault of ours, never the caller's.
  if ('error' in read) throw new Error(`the stored build of a prepared request is broken: ${read.error}`);
  return decodeCall(read.tx, { known, now: 0 }).call;
}

/** Why a trade is not the one built, or null when it is. */
function tradeMismatch(
  kind: FulfilledRequest['kind'],
  sentFunction: string,
  sent: TradeParams,
  builtFunction: string,
  built: TradeParams,
): string | null {
  const side = kind === 'prepare_buy' ? 'buy' : 'sell';
  if (!sentFunction.startsWith(side)) return `it calls ${sentFunction}, and the request is a ${side}`;
  if (sentFunction !== builtFunction) return `it calls ${sentFunction}, and the build ${builtFunction}`;
  if (!same(sent.token, built.token)) return `it trades ${sent.token}, and the request ${built.token}`;
  if (!same(sent.pair, built.pair) || sent.fee !== built.fee) {
    return `it trades against ${sent.pair} (tier ${sent.fee}), and the build against ${built.pair} (tier ${built.fee})`;
  }
  const exactIn = sentFunction.endsWith('ExactIn');
  if (sent.amount !== built.amount) {
    return `it ${exactIn ? 'spends' : 'receives'} exactly ${sent.amount} wei, and the request ${built.amount} wei`;
  }
  if (exactIn && sent.limit < built.limit) {
    return `it accepts as little as ${sent.limit} wei, below the build's floor of ${built.limit} wei (the request's slippage)`;
  }
  if (!exactIn && sent.limit > built.limit) {
    return `it may spend up to ${sent.limit} wei, above the build's ceiling of ${built.limit} wei (the request's slippage)`;
  }
  if (!same(sent.referrer, built.referrer))
    return `it names the referrer ${sent.referrer}, and the build ${built.referrer}`;
  return null;
}

/** Why a launch of the announced token is not the one built, or null when it is. */
function launchMismatch(sent: LaunchParams, built: LaunchParams): string | null {
  if (sent.firstBuy !== built.firstBuy) {
    return `its first buy spends ${sent.firstBuy} wei, and the build's ${built.firstBuy} wei`;
  }
  if (sent.minTokens < built.minTokens) {
    return `its first buy accepts ${sent.minTokens} tokens (wei), below the build's floor of ${built.minTokens}`;
  }
  const split = (list: LaunchParams['firstBuyTo']) =>
    list.map((recipient) => `${recipient.wallet.toLowerCase()}:${recipient.bps}`).join(',');
  if (split(sent.firstBuyTo) !== split(built.firstBuyTo)) return 'its first buy goes to other wallets than the build';
  if (!same(sent.royaltyTo, built.royaltyTo) || sent.burnBps !== built.burnBps) {
    return `its royalty goes to ${sent.royaltyTo} (burning ${sent.burnBps} bps), and the build's to ${built.royaltyTo} (burning ${built.burnBps} bps)`;
  }
  return null;
}
