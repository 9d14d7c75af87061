import { type Address, erc20Abi } from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { chainRead } from './chainRead';
import type { Currency, TokenFacts } from './tokenRegistry';

/** What a wallet holds of a token and of its pair currency, and its BNB for gas. */
export interface WalletBalances {
  wallet: Address;
  bnbWei: bigint;
  token: { currency: Currency; wei: bigint };
  /** For BNB pairs (`native`), the wallet's BNB: the router takes and pays BNB natively, never WBNB. */
  pair: { currency: Currency; wei: bigint; native: boolean };
}

/**
 * Reads the balances a trade panel needs, all at one block so they agree with each other.
 *
 * @example const { token, pair } = await readWalletBalances(chain, wallet, await tokens.get(address))
 */
export async function readWalletBalances(
  chain: ChainContext,
  wallet: Address,
  token: TokenFacts,
): Promise<WalletBalances> {
  const { client } = chain;
  const balanceOf = (address: Address, blockNumber: bigint) =>
    client.readContract({ address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet], blockNumber });
  const [bnbWei, tokenWei, pairWei] = await chainRead('the wallet balances', async () => {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
    return Promise.all([
      client.getBalance({ address: wallet, blockNumber }),
      balanceOf(token.address, blockNumber),
      token.quoteIsBnb ? null : balanceOf(token.pair.address, blockNumber),
    ]);
  });
  const tokenCurrency: Currency = { address: token.address, symbol: token.symbol, decimals: token.decimals };
  return {
    wallet,
    bnbWei,
    token: { currency: tokenCurrency, wei: tokenWei },
    pair: { currency: token.pair, wei: pairWei ?? bnbWei, native: token.quoteIsBnb },
  };
}
