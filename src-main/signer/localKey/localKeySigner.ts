import { type Hex, serializeTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Signer } from '../signer';

/**
 * A Signer over a private key held in this process's memory: the app's key worker (unsealed there from the local key
 * file while unlocked), and the deploy command.
 */
export function createLocalKeySigner(privateKey: Hex): Signer {
  const account = privateKeyToAccount(privateKey);
  return {
    kind: 'local',
    getAddress: async () => account.address,
    signTransaction: (tx) => account.signTransaction(tx, { serializer: serializeTransaction }),
    signMessage: (message) => account.signMessage({ message }),
  };
}
