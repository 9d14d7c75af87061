import { type Hex, serializeTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Signer } from '../signer';

/** A Signer over a private key held in main's memory (unsealed from the local key file while unlocked). */
export function createLocalKeySigner(privateKey: Hex): Signer {
  const account = privateKeyToAccount(privateKey);
  return {
    kind: 'local',
    getAddress: async () => account.address,
    signTransaction: (tx) => account.signTransaction(tx, { serializer: serializeTransaction }),
    signMessage: (message) => account.signMessage({ message }),
  };
}
