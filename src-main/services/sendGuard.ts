import { type Address, isAddressEqual } from 'viem';
import { decodeCall } from '../../src-shared/inspect/decodeCall';
import type { ServiceAddresses } from '../chain/connectChain';
import type { SendGuard } from './transactionSender';
import { WalletError } from './walletError';

/**
 * Main's last check before the signer, whatever the page sent: the app signs only calls to our contracts, ERC-20
 * approvals to our router, factory or Permit2, and Permit2 approvals to our router or factory. The calls are read by
 * the same decoder as the review screen's, whose full checks ran before this.
 */
export function knownContractsGuard(chainId: number, addresses: ServiceAddresses): SendGuard {
  const { factory, router, referrals, permit2, wbnb } = addresses;
  const ours = [factory, router, referrals].filter((a): a is Address => a !== undefined);
  const spenders = [router, factory].filter((a): a is Address => a !== undefined);
  const among = (list: Address[], target: Address) => list.some((known) => isAddressEqual(known, target));
  return (tx) => {
    if (among(ours, tx.to)) return;
    if (!factory || !router) throw refused(`a call to ${tx.to} (this network has no router or factory of ours)`);
    const { call } = decodeCall(
      { chainId, to: tx.to, data: tx.data, value: tx.value.toString() },
      { known: { chainId, factory, router, permit2, referrals: referrals ?? null, wbnb }, now: 0 },
    );
    // Permit2 serves every app on the chain: only its approve, and only to our router or factory.
    if (call.kind === 'permit2-approve' && among(spenders, call.spender) && tx.value === 0n) return;
    if (isAddressEqual(tx.to, permit2)) {
      throw refused(`a Permit2 call other than an approval to this service's router (${tx.to})`);
    }
    if (call.kind === 'erc20-approve' && among([...spenders, permit2], call.spender) && tx.value === 0n) return;
    throw refused(`a call to ${tx.to}`);
  };
}

function refused(what: string): WalletError {
  return new WalletError(
    'UNKNOWN_CONTRACT',
    `The app signs only calls to this service's contracts, approvals to them, and Permit2 approvals to its router; this is ${what}.`,
    'Build the transaction with this app, or inspect it to see what it does.',
  );
}
