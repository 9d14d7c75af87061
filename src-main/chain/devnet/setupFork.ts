import { type Address, createPublicClient, custom, type PublicClient, zeroAddress } from 'viem';
import { type Logger, silentLogger } from '../../log/createLogger';
import { checkExchange, ExchangeCheckError } from '../exchangeCheck';
import { ServiceConfig } from '../generated/contracts';
import { PancakeV3Factory } from '../generated/vendor';
import { type DevnetContracts, deploymentSender, deployOurContracts, WBNB_USDT_FEE } from './deployDevnet';
import type { EdrProvider } from './edrProvider';
import { type ForkAddresses, ForkError } from './forkSource';
import type { TestAccount } from './testAccounts';

/** What a fork starts with: every contract the service uses, and whether ours were deployed into it now. */
export interface ForkContracts {
  contracts: DevnetContracts;
  deployed: boolean;
}

/**
 * Prepares a freshly forked chain: checks the exchange is there, finds our contracts on the source or deploys them
 * into the fork from the operator (test account 0) in blocks at fixed timestamps after the fork block, so every
 * start over the same fork point makes the same blocks.
 */
export async function setupFork(
  provider: EdrProvider,
  accounts: readonly TestAccount[],
  addresses: ForkAddresses,
  forkTimestamp: bigint,
  log: Logger = silentLogger(),
): Promise<ForkContracts> {
  const operator = accounts[0];
  if (!operator) throw new Error('a fork needs the operator account');
  const client = createPublicClient({ transport: custom(provider) }) as PublicClient;
  const hasCode = async (address: Address) => ((await client.getCode({ address })) ?? '0x').length > 2;

  // The exchange must be the PancakeSwap V3 our contracts work with (the published addresses checked on the real state).
  const { tickLens: _notUsed, ...exchangeAddresses } = addresses.exchange;
  try {
    const check = await checkExchange(client, exchangeAddresses);
    for (const line of check.unchecked) log.warn(`fork: not checked: ${line}`);
  } catch (error) {
    if (!(error instanceof ExchangeCheckError)) throw error;
    throw new ForkError(
      `${error.message}\nFork the chain these addresses belong to, or at a block after they were deployed.`,
    );
  }

  const { exchange } = addresses;
  let ours = addresses.ours;
  const found = ours !== undefined && (await Promise.all(Object.values(ours).map(hasCode))).every(Boolean);
  if (!found || !ours) {
    const nonce = await client.getTransactionCount({ address: operator.address, blockTag: 'latest' });
    const sender = deploymentSender(provider, operator.address, { nonce, firstTimestamp: forkTimestamp + 1n });
    ours = await deployOurContracts(sender, operator.address, exchange);
  }
  const [, , , siteFeeRecipient] = await client.readContract({
    address: ours.config,
    abi: ServiceConfig.abi,
    functionName: 'fees',
  });
  const [token0, token1] =
    BigInt(exchange.wbnb) < BigInt(exchange.usdt) ? [exchange.wbnb, exchange.usdt] : [exchange.usdt, exchange.wbnb];
  const wbnbUsdtPool = (await client.readContract({
    address: exchange.pancakeFactory,
    abi: PancakeV3Factory.abi,
    functionName: 'getPool',
    args: [token0, token1, WBNB_USDT_FEE],
  })) as Address;
  return {
    contracts: { ...exchange, ...ours, wbnbUsdtPool: wbnbUsdtPool ?? zeroAddress, siteFeeRecipient },
    deployed: !found,
  };
}
