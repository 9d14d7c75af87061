import { type Address, erc20Abi, type PublicClient } from 'viem';

/** What `holder` holds of the ERC-20 `token`, read through `client` (any chain: the devnet, a fork, its source). */
export function tokenBalance(client: Pick<PublicClient, 'readContract'>, token: Address, holder: Address) {
  return client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] });
}
