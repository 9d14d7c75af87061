import {
  type Abi,
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  custom,
  encodeDeployData,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  publicActions,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from './devnet/startDevnet';
import { checkExchange, ExchangeCheckError, type ExchangeProblem } from './exchangeCheck';
import { PoolDeployer } from './generated/contracts';
import { NonfungiblePositionManager, PancakeV3Factory, PancakeV3Pool, QuoterV2, SwapRouter } from './generated/vendor';
import { devnetChain, type ExchangeAddresses } from './networks';

let devnet: Devnet;
let client: PublicClient;
let exchange: ExchangeAddresses;

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  const { pancakeFactory, poolDeployer, quoter, swapRouter, positionManager, wbnb, usdt, permit2 } = devnet.contracts;
  exchange = { pancakeFactory, poolDeployer, quoter, swapRouter, positionManager, wbnb, usdt, permit2 };
});

/** The problems checkExchange throws for `addresses`, or fails the test when it passes them. */
async function problemsOf(addresses: ExchangeAddresses): Promise<readonly ExchangeProblem[]> {
  const error = await checkExchange(client, addresses).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ExchangeCheckError)) throw new Error(`expected an ExchangeCheckError, got ${String(error)}`);
  expect(error.code).toBe('EXCHANGE_MISMATCH');
  for (const problem of error.problems) expect(error.message).toContain(problem.address);
  return error.problems;
}

/**
 * A second PancakeSwap V3 on the devnet, deployed by test account 7: a pool deployer over `poolCode`, its factory and
 * the periphery pointing at them, and the WBNB/USDT 0.05% pool when `withPool`.
 */
async function anotherExchange(poolCode: Hex, withPool: boolean): Promise<ExchangeAddresses> {
  const account = privateKeyToAccount(devnet.accounts[7]?.privateKey as Hex);
  const wallet = createWalletClient({ account, chain: devnetChain, transport: custom(devnet.provider) }).extend(
    publicActions,
  );
  const send = async (to: Address | null, data: Hex): Promise<Address | null> => {
    const hash = await wallet.sendTransaction({ to, data } as never);
    const receipt = await wallet.getTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error('a setup transaction reverted');
    return receipt.contractAddress ?? null;
  };
  const deploy = async (artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) =>
    (await send(null, encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never))) as Address;
  const { wbnb, usdt, permit2 } = exchange;
  const poolDeployer = await deploy(PoolDeployer, [poolCode]);
  const pancakeFactory = await deploy(PancakeV3Factory, [poolDeployer]);
  await send(
    poolDeployer,
    encodeFunctionData({ abi: PoolDeployer.abi, functionName: 'setFactoryAddress', args: [pancakeFactory] }),
  );
  const periphery = [poolDeployer, pancakeFactory, wbnb];
  const swapRouter = await deploy(SwapRouter, periphery);
  const quoter = await deploy(QuoterV2, periphery);
  const positionManager = await deploy(NonfungiblePositionManager, [...periphery, permit2]);
  if (withPool) {
    await send(
      pancakeFactory,
      encodeFunctionData({ abi: PancakeV3Factory.abi, functionName: 'createPool', args: [wbnb, usdt, 500] }),
    );
  }
  return { pancakeFactory, poolDeployer, quoter, swapRouter, positionManager, wbnb, usdt, permit2 };
}

describe('checkExchange', () => {
  it("passes the devnet's exchange, comparing the init code hash on its WBNB/USDT pool", async () => {
    const check = await checkExchange(client, exchange);
    expect(check.chainId).toBe(31337);
    expect(check.unchecked).toEqual([]);
    expect(check.checked.join('\n')).toContain(devnet.contracts.wbnbUsdtPool);
  });

  it('names an account with no code, wherever it is put', async () => {
    const account = devnet.accounts[3]?.address as Address;
    const problems = await problemsOf({ ...exchange, usdt: account, permit2: account });
    expect(problems.map((p) => p.role).sort()).toEqual(['permit2', 'usdt']);
    expect(problems.every((p) => p.address === account && /no contract/.test(p.reason))).toBe(true);
  });

  it('names a contract that is not the one its place needs, and periphery pointing elsewhere', async () => {
    // WBNB where the factory should be: it answers none of a factory's getters.
    const asFactory = await problemsOf({ ...exchange, pancakeFactory: exchange.wbnb });
    expect(asFactory.map((p) => p.role)).toContain('pancakeFactory');
    // The quoter, swap router and position manager each point at the real factory, not at this one.
    expect(asFactory.filter((p) => p.role !== 'pancakeFactory' && p.role !== 'poolDeployer').length).toBe(3);
  });

  it('refuses a factory whose pools come from other code (another init code hash), naming the factory', async () => {
    // The published pool code with one byte more: the same pool, deployed from an init code with another hash.
    const other = await anotherExchange(concat([PancakeV3Pool.bytecode, '0x00']), true);
    const problems = await problemsOf(other);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.role).toBe('pancakeFactory');
    expect(problems[0]?.address).toBe(other.pancakeFactory);
    expect(problems[0]?.reason).toMatch(/init code hash/);
  });

  it('says the init code hash could not be compared when the factory has no WBNB/USDT pool', async () => {
    const other = await anotherExchange(PancakeV3Pool.bytecode, false);
    const check = await checkExchange(client, other);
    expect(check.unchecked).toHaveLength(1);
    expect(check.unchecked[0]).toMatch(/no WBNB\/USDT pool/);
  });
});
