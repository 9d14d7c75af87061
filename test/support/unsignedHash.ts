import { type Address, type Hex, keccak256, type PublicClient, serializeTransaction } from 'viem';

/**
 * keccak256 of a mined EIP-1559 transaction with its signature taken off: the hash a Ledger shows when it signs blind,
 * computed from what the chain holds, to compare with what the review screen showed.
 */
export async function unsignedHashOf(client: PublicClient, hash: Hex): Promise<Hex> {
  const mined = await client.getTransaction({ hash });
  return keccak256(
    serializeTransaction({
      type: 'eip1559',
      chainId: mined.chainId as number,
      nonce: mined.nonce,
      to: mined.to as Address,
      data: mined.input,
      value: mined.value,
      gas: mined.gas,
      maxFeePerGas: mined.maxFeePerGas as bigint,
      maxPriorityFeePerGas: mined.maxPriorityFeePerGas as bigint,
    }),
  );
}
