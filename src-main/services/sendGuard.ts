import { type Address, decodeFunctionData, erc20Abi, isAddressEqual, parseAbi } from 'viem';
import type { ServiceAddresses } from '../chain/connectChain';
import type { SendGuard } from './transactionSender';
import { WalletError } from './walletError';

const permit2Approve = parseAbi([
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
]);

/** The spender an approval call names (ERC-20 approve, or Permit2's), or undefined when `data` is no approval. */
function spenderOf(data: `0x${string}`, abi: typeof erc20Abi | typeof permit2Approve): Address | undefined {
  try {
    const call = decodeFunctionData({ abi, data });
    if (call.functionName !== 'approve') return undefined;
    return (call.args.length === 4 ? call.args[1] : call.args[0]) as Address;
  } catch {
    return undefined;
  }
}

/**
 * Main's last check before the signer, whatever the page sent: the app signs only calls to our contracts, ERC-20
 * approvals to our router, factory or Permit2, and Permit2 approvals to our router or factory. The review screen's
 * full checks ran before this.
 */
export function knownContractsGuard(addresses: ServiceAddresses): SendGuard {
  const ours = [addresses.factory, addresses.router, addresses.referrals].filter((a): a is Address => a !== undefined);
  const isOurs = (target: Address) => ours.some((known) => isAddressEqual(known, target));
  const spenders = [addresses.router, addresses.factory].filter((a): a is Address => a !== undefined);
  const isSpender = (target: Address | undefined) =>
    target !== undefined &&
    (spenders.some((known) => isAddressEqual(known, target)) || isAddressEqual(target, addresses.permit2));
  return (tx) => {
    // Permit2 is shared by every app on the chain: only its approve, and only to our router or factory.
    if (isAddressEqual(tx.to, addresses.permit2)) {
      const spender = spenderOf(tx.data, permit2Approve);
      if (spender && spenders.some((known) => isAddressEqual(known, spender)) && tx.value === 0n) return;
      throw refused(`a Permit2 call other than an approval to this service's router (${tx.to})`);
    }
    if (isOurs(tx.to)) return;
    if (isSpender(spenderOf(tx.data, erc20Abi)) && tx.value === 0n) return;
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
