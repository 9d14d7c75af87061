import { type Address, isAddressEqual } from 'viem';
import { checkChallengeMessage } from '../../src-shared/challengeMessage';
import { formatExact } from '../../src-shared/format/numbers';
import { formatFromNow } from '../../src-shared/format/times';
import { decodeCall } from '../../src-shared/inspect/decodeCall';
import type { UnsignedTxWei } from '../../src-shared/schema/unsignedTx';
import type { ServiceAddresses } from '../chain/connectChain';
import type { BuiltApprovals } from './builtApprovals';
import { knownContractsOf } from './ourContracts';
import type { MessageGuard, SendGuard } from './transactionSender';
import { WalletError } from './walletError';

/**
 * Main's last check before the signer, whatever the page sent. The call is decoded with the review screen's own
 * decoder and judged by its function and arguments, not only its target:
 * - on our contracts, only the functions the service builds (the four trades, launch, claim, collect);
 * - BNB only with a function that pays BNB (a buy or a launch paid natively), and exactly what it pays;
 * - approvals only to our router, factory or Permit2, and only the very approvals a build of this service made for
 *   this wallet (so with the spender and amount the build claimed);
 * - no trade past its deadline.
 */
export function knownContractsGuard(
  chainId: number,
  addresses: ServiceAddresses,
  builtApprovals: BuiltApprovals,
  now: () => number = Date.now,
): SendGuard {
  const known = knownContractsOf(chainId, addresses);
  const among = (list: (Address | null)[], target: Address) =>
    list.some((address) => address !== null && isAddressEqual(address, target));
  return (tx, wallet) => {
    if (!known) throw refused(`a call to ${tx.to}: this network has no router or factory of ours`);
    const { factory, router, referrals, permit2, wbnb } = known;
    const summary = decodeCall({ chainId, to: tx.to, data: tx.data, value: tx.value.toString() }, { known, now: 0 });
    const { call } = summary;
    const where = `${summary.contractLabel} (${tx.to})`;
    switch (call.kind) {
      case 'trade': {
        const { params } = call;
        const buy = call.function.startsWith('buy');
        const native = isAddressEqual(params.pair, wbnb);
        // Exact in pays `amount`; exact out pays at most `limit`, the router returning what it does not use.
        const pays = buy && native ? (call.function === 'buyExactIn' ? params.amount : params.limit) : 0n;
        expectValue(tx, pays, `${call.function} of ${where}`);
        const at = now();
        if (Number(params.deadline) * 1000 <= at) {
          throw refused(
            `a trade whose deadline passed: ${formatFromNow(Number(params.deadline) * 1000, at, { expired: true })}`,
          );
        }
        return;
      }
      case 'launch': {
        const { params } = call;
        // The launch fee rides on top of a native first buy; a first buy in another currency is pulled by approval.
        const least = isAddressEqual(params.pair, wbnb) ? params.firstBuy : 0n;
        if (tx.value < least) {
          throw refused(`a launch sending ${bnb(tx.value)}, less than its native first buy of ${bnb(least)}`);
        }
        return;
      }
      case 'claim':
        expectValue(tx, 0n, `claim of ${where}`);
        return;
      case 'collect':
        expectValue(tx, 0n, `collect of ${where}`);
        return;
      case 'erc20-approve':
      case 'permit2-approve': {
        const spenders = call.kind === 'erc20-approve' ? [router, factory, permit2] : [router, factory];
        if (!among(spenders, call.spender)) {
          throw refused(`an approval for ${call.spender}, which is not this service's router, factory or Permit2`);
        }
        expectValue(tx, 0n, `an approval on ${where}`);
        if (!builtApprovals.has(wallet, tx)) {
          throw refused(
            `an approval of ${call.amount} to ${call.spender} that no build of this service made for ${wallet}`,
          );
        }
        return;
      }
      case 'other':
        throw refused(`${call.function} on ${where}, a function the service never builds`);
      case 'undecoded':
        throw refused(
          among([factory, router, referrals, permit2], tx.to) ? `a call the app cannot decode (${call.reason})` : where,
        );
    }
  };
}

function expectValue(tx: UnsignedTxWei, expected: bigint, what: string): void {
  if (tx.value !== expected) {
    throw refused(`${what} sending ${bnb(tx.value)} where the call pays ${bnb(expected)}`);
  }
}

/** BNB in whole units, every digit: a refusal names the amount exactly, as a person reads it. */
function bnb(wei: bigint): string {
  return `${formatExact(wei, 18)} BNB`;
}

function refused(what: string): WalletError {
  return new WalletError(
    'UNKNOWN_CONTRACT',
    `The app signs only this service's trades, launches, claims and collects, and the approvals its builds ask for; this is ${what}.`,
    'Build the transaction with this app, or inspect it to see what it does.',
  );
}

/**
 * The same last check for messages: one of the service's own challenges (line by line the server's template, for the
 * signer's wallet, this chain, not expired) is 'challenge'; any other message is 'unknown', which the person must
 * confirm to main, shown in full (see SigningConfirmer). A message written like a challenge but for another wallet,
 * chain or time is refused whatever is confirmed.
 */
export function challengeGuard(chainId: number, now: () => number = Date.now): MessageGuard {
  return (message, wallet) => {
    const { fields, checks } = checkChallengeMessage(message, { wallet, chainId, now: now() });
    if (!fields) return 'unknown';
    const failed = checks.filter((check) => !check.ok);
    if (failed.length > 0) {
      throw new WalletError(
        'CHALLENGE_MISMATCH',
        `The challenge does not fit: ${failed.map((check) => check.message).join(' ')}`,
        'Ask the service for a new challenge for this wallet and sign it within five minutes.',
      );
    }
    return 'challenge';
  };
}
