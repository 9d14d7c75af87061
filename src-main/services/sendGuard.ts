import { type Address, decodeFunctionData, erc20Abi, isAddressEqual } from 'viem';
import type { ServiceAddresses } from '../chain/connectChain';
import type { SendGuard } from './transactionSender';
import { WalletError } from './walletError';

/**
 * Main's last check before the signer, whatever the UI showed: the app signs only calls to our contracts and
 * Permit2, or an ERC-20 approval whose spender is one of them. The review screen's full checks ran before this.
 */
export function knownContractsGuard(addresses: ServiceAddresses): SendGuard {
  const ours = [addresses.factory, addresses.router, addresses.referrals, addresses.permit2].filter(
    (a): a is Address => a !== undefined,
  );
  const isOurs = (target: Address) => ours.some((known) => isAddressEqual(known, target));
  return (tx) => {
    if (isOurs(tx.to)) return;
    let spender: Address | undefined;
    try {
      const call = decodeFunctionData({ abi: erc20Abi, data: tx.data });
      if (call.functionName === 'approve') spender = call.args[0];
    } catch {
      spender = undefined;
    }
    if (spender && isOurs(spender) && tx.value === 0n) return;
    throw new WalletError(
      'UNKNOWN_CONTRACT',
      `The app signs only calls to this service's contracts and Permit2, or approvals to them; this one calls ${tx.to}.`,
      'Build the transaction with this app, or inspect it to see what it does.',
    );
  };
}
