import type { Address, Hex, TransactionSerializableEIP1559 } from 'viem';

/** A transaction ready to sign: every field filled (nonce, gas, fees), EIP-1559, for one chain. */
export type SignableTransaction = TransactionSerializableEIP1559 & {
  chainId: number;
  to: Address;
  nonce: number;
  gas: bigint;
};

/** A contract creation ready to sign: no `to`, the init code (creation code and constructor arguments) as `data`. */
export type SignableCreation = Omit<SignableTransaction, 'to'> & { to?: undefined };

/**
 * Something that holds a key: a Ledger on a derivation path, or a local key. Main owns every signer; the renderer
 * never sees a key, only addresses and signatures. Calls go through the one SignerQueue, never side by side.
 */
export interface Signer {
  readonly kind: 'ledger' | 'local';
  /** The address whose key signs. */
  getAddress(): Promise<Address>;
  /**
   * Signs `tx` for its chain id; returns the signed, serialized transaction, ready for eth_sendRawTransaction. A
   * contract creation only comes from the deploy command; the app's own builds always call a contract.
   */
  signTransaction(tx: SignableTransaction | SignableCreation): Promise<Hex>;
  /** Signs UTF-8 `message` the EIP-191 (personal_sign) way; returns the 65-byte signature. */
  signMessage(message: string): Promise<Hex>;
}
