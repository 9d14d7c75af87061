import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  parseEther,
  parseEventLogs,
  toFunctionSelector,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import {
  DevStablecoin,
  FalseToken,
  LaunchFactory,
  PoolDeployer,
  ReentrantToken,
  ServiceConfig,
} from '../../src-main/chain/generated/contracts';
import { PancakeV3Factory, PancakeV3Pool } from '../../src-main/chain/generated/vendor';
import { devnetChain } from '../../src-main/chain/networks';
import { launchGasLimit } from '../../src-main/core/launch/takeoverGas';
import { getSqrtRatioAtTick, MAX_TICK } from '../../src-main/core/math/tickMath';
import { MAX_TX_GAS } from '../../src-main/services/launchService';
import { type DevnetTestClient, devnetTestClient } from '../support/devnetTestClient';
import { launcher, SPACING } from '../support/launcher';
import { revertName } from '../support/revertName';
import { routerDriver } from '../support/routerDriver';

const DEAD = '0x000000000000000000000000000000000000dEaD';

let devnet: Devnet;
let client: PublicClient;
let testClient: DevnetTestClient;
let l: ReturnType<typeof launcher>;
let snapshot: Hex | undefined;

const account = (index: number) => privateKeyToAccount(devnet.accounts[index]?.privateKey ?? '0x');
const wallet = (index: number) =>
  createWalletClient({ account: account(index), chain: devnetChain, transport: custom(devnet.provider) });
const balanceOf = (token: Address, who: Address) =>
  client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
const slot0 = (pool: Address) => client.readContract({ address: pool, abi: PancakeV3Pool.abi, functionName: 'slot0' });

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  testClient = devnetTestClient(devnet);
  l = launcher(devnet, client);
});
beforeEach(async () => {
  if (snapshot) await testClient.revert({ id: snapshot });
  snapshot = await testClient.snapshot();
});

describe('LaunchFactory.launch', () => {
  for (const tokenIs0 of [true, false]) {
    it(`creates the token where announced and opens the pool at the asked tick (token${tokenIs0 ? 0 : 1})`, async () => {
      const launched = await l.launch({ tokenIs0 });
      expect(launched.result).toBe('ok');
      const { token, params, pool } = launched;
      if (!pool) throw new Error('no pool');
      expect(await client.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' })).toBe(
        params.supply,
      );
      const [sqrtPriceX96, tick] = await slot0(pool);
      expect(sqrtPriceX96).toBe(getSqrtRatioAtTick(params.openingTick));
      expect(tick).toBe(params.openingTick);
      // The whole supply sits in the pool, but for dust below one unit of liquidity, which is burned.
      const inPool = await balanceOf(token, pool);
      const burned = await balanceOf(token, DEAD);
      expect(inPool + burned).toBe(params.supply);
      expect(burned < parseEther('0.000001')).toBe(true);
      expect(await balanceOf(token, devnet.contracts.factory)).toBe(0n);
      const record = await client.readContract({
        address: devnet.contracts.factory,
        abi: LaunchFactory.abi,
        functionName: 'launchOf',
        args: [token],
      });
      expect(record.creator).toBe(launched.creator.address);
      expect(record.pool).toBe(pool);
    });
  }

  it('lays the supply across 4 ranges by their bps, the last one to the top', async () => {
    const launched = await l.launch({
      shape: [
        { width: 4000, bps: 1000 },
        { width: 8000, bps: 2000 },
        { width: 16000, bps: 3000 },
        { width: 0, bps: 4000 },
      ],
    });
    expect(launched.result).toBe('ok');
    const { pool, params, top } = launched;
    if (!pool) throw new Error('no pool');
    expect(params.ranges).toHaveLength(4);
    expect(launched.tokenIs0 ? params.ranges[3]?.tickUpper : -(params.ranges[3]?.tickLower ?? 0)).toBe(top);
    for (const range of params.ranges) {
      const key = keccak256(
        encodePacked(['address', 'int24', 'int24'], [devnet.contracts.factory, range.tickLower, range.tickUpper]),
      );
      const [liquidity] = await client.readContract({
        address: pool,
        abi: PancakeV3Pool.abi,
        functionName: 'positions',
        args: [key],
      });
      expect(liquidity > 0n, `range ${range.tickLower}..${range.tickUpper}`).toBe(true);
    }
  });

  it('makes the first buy in the same transaction and splits it, burning the dead share', async () => {
    const alice = account(8).address;
    const bob = account(9).address;
    const firstBuy = parseEther('2');
    const launched = await l.launch({
      firstBuy,
      minTokens: 1n,
      firstBuyTo: [
        { wallet: alice, bps: 5000 },
        { wallet: bob, bps: 3000 },
        { wallet: DEAD, bps: 2000 },
      ],
    });
    expect(launched.result).toBe('ok');
    if (!launched.hash) throw new Error('no hash');
    const receipt = await client.getTransactionReceipt({ hash: launched.hash });
    const [buy] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'FirstBuy' });
    const tokens = buy?.args.tokens ?? 0n;
    expect(buy?.args.spent).toBe(firstBuy);
    expect(await balanceOf(launched.token, alice)).toBe((tokens * 5000n) / 10000n);
    expect(await balanceOf(launched.token, bob)).toBe((tokens * 3000n) / 10000n);
    const deadShare = tokens - (tokens * 5000n) / 10000n - (tokens * 3000n) / 10000n;
    expect((await balanceOf(launched.token, DEAD)) >= deadShare).toBe(true);
    expect(await client.getBalance({ address: devnet.contracts.factory })).toBe(0n);
    expect(await balanceOf(devnet.contracts.wbnb, devnet.contracts.factory)).toBe(0n);
  });

  it('refuses a first buy below its floor', async () => {
    const planned = await l.launch({ firstBuy: parseEther('1'), minTokens: parseEther('1000000000') });
    expect(planned.result).toBe('FirstBuyTooSmall');
  });

  it('pays a BEP-20 first buy from the creator through its allowance to the factory', async () => {
    const creator = account(2);
    const { usdt, factory } = devnet.contracts;
    await wallet(2).writeContract({
      address: usdt,
      abi: DevStablecoin.abi,
      functionName: 'approve',
      args: [factory, parseEther('100')],
    });
    const before = await balanceOf(usdt, creator.address);
    const launched = await l.launch({ pair: usdt, firstBuy: parseEther('100'), openingTick: -200000 });
    expect(launched.result).toBe('ok');
    expect(before - (await balanceOf(usdt, creator.address))).toBe(parseEther('100'));
    expect((await balanceOf(launched.token, creator.address)) > 0n).toBe(true);
  });

  it('refuses a BEP-20 pair that re-enters the factory while the first buy pulls it', async () => {
    const creator = wallet(2);
    const hash = await creator.deployContract({
      abi: ReentrantToken.abi,
      bytecode: ReentrantToken.bytecode,
      args: [parseEther('1000000')],
    });
    const deployed = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!deployed) throw new Error('not deployed');
    const hostile = getAddress(deployed);
    const { factory } = devnet.contracts;
    await creator.writeContract({
      address: hostile,
      abi: ReentrantToken.abi,
      functionName: 'approve',
      args: [factory, parseEther('10')],
    });
    const inner = await l.plan({ pair: hostile, saltSeed: 'inner', openingTick: -100000 });
    await creator.writeContract({
      address: hostile,
      abi: ReentrantToken.abi,
      functionName: 'arm',
      args: [factory, encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'launch', args: [inner.params] })],
    });
    const launched = await l.launch({ pair: hostile, firstBuy: parseEther('10'), openingTick: -100000 });
    expect(launched.result).toBe('ok');
    expect(await client.readContract({ address: hostile, abi: ReentrantToken.abi, functionName: 'lastSelector' })).toBe(
      toFunctionSelector('Reentered()'),
    );
  });

  it('refuses a first buy the pool cannot take whole, and a pair token whose transfer returns false', async () => {
    // 1,000 wei of supply funds no liquidity at all: the first buy finds nothing to buy.
    expect((await l.launch({ supply: 1000n, firstBuy: parseEther('1') })).result).toBe('FirstBuyNotFilled');
    const creator = wallet(2);
    const hash = await creator.deployContract({
      abi: FalseToken.abi,
      bytecode: FalseToken.bytecode,
      args: [parseEther('1000')],
    });
    const deployed = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!deployed) throw new Error('not deployed');
    const falsy = getAddress(deployed);
    await creator.writeContract({
      address: falsy,
      abi: FalseToken.abi,
      functionName: 'approve',
      args: [devnet.contracts.factory, parseEther('10')],
    });
    await creator.writeContract({
      address: falsy,
      abi: FalseToken.abi,
      functionName: 'refuseTransfersFrom',
      args: [creator.account.address],
    });
    expect((await l.launch({ pair: falsy, firstBuy: parseEther('10'), openingTick: -100000 })).result).toBe(
      'TokenTransferFailed',
    );
  });

  it('lets the pool deployer be wired once, by its owner, and deploy only for its factory', async () => {
    const { poolDeployer, pancakeFactory, wbnb, usdt } = devnet.contracts;
    const call = (index: number, functionName: 'setFactoryAddress' | 'deploy', args: readonly unknown[]) =>
      revertName(
        client.simulateContract({
          account: account(index),
          address: poolDeployer,
          abi: PoolDeployer.abi,
          functionName,
          args,
        } as never),
      );
    expect(await call(0, 'setFactoryAddress', [pancakeFactory])).toBe('FactoryAlreadySet');
    expect(await call(5, 'setFactoryAddress', [pancakeFactory])).toBe('NotOwner');
    expect(await call(5, 'deploy', [pancakeFactory, wbnb, usdt, 500, 10])).toBe('NotFactory');
  });

  it('takes the launch fee to the fee recipient, and refuses any other value', async () => {
    const operator = wallet(0);
    await operator.writeContract({
      address: devnet.contracts.config,
      abi: ServiceConfig.abi,
      functionName: 'setLaunchFee',
      args: [parseEther('0.05')],
    });
    expect((await l.launch({ value: 0n })).result).toBe('WrongValue');
    expect((await l.launch({ value: parseEther('0.06') })).result).toBe('WrongValue');
    const recipient = devnet.contracts.siteFeeRecipient;
    const before = await client.getBalance({ address: recipient });
    expect((await l.launch({ value: parseEther('0.05'), creator: 3 })).result).toBe('ok');
    expect((await client.getBalance({ address: recipient })) - before).toBe(parseEther('0.05'));
  });

  it("pays the launch fee and the first buy's site fee in WBNB when the fee recipient refuses BNB", async () => {
    const operator = wallet(0);
    const { config, wbnb, factory } = devnet.contracts;
    await operator.writeContract({ address: config, abi: ServiceConfig.abi, functionName: 'setLaunchFee', args: [1n] });
    // The config contract itself has no way to receive BNB.
    await operator.writeContract({
      address: config,
      abi: ServiceConfig.abi,
      functionName: 'setFeeRecipient',
      args: [config],
    });
    const firstBuy = parseEther('1');
    expect((await l.launch({ value: 1n + firstBuy, firstBuy })).result).toBe('ok');
    expect(await balanceOf(wbnb, config)).toBe(1n + parseEther('0.01'));
    expect(await client.getBalance({ address: factory })).toBe(0n);
    expect(await balanceOf(wbnb, factory)).toBe(0n);
  });

  it('charges the first buy the site fee, as a router buy of the same size, and buys with the rest', async () => {
    const recipient = devnet.contracts.siteFeeRecipient;
    const before = await client.getBalance({ address: recipient });
    const firstBuy = parseEther('2') + 1n;
    const launched = await l.launch({ firstBuy, minTokens: 1n });
    expect(launched.result).toBe('ok');
    if (!launched.hash) throw new Error('no hash');
    // Rounded up, in the service's favour, as the router rounds an exact-in buy's fee.
    const fee = (firstBuy * 100n + 9999n) / 10000n;
    expect((await client.getBalance({ address: recipient })) - before).toBe(fee);
    const receipt = await client.getTransactionReceipt({ hash: launched.hash });
    const [buy] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'FirstBuy' });
    expect(buy?.args.spent).toBe(firstBuy);
    expect(buy?.args.siteFee).toBe(fee);
    const swapped = parseEventLogs({ abi: PancakeV3Pool.abi, logs: receipt.logs, eventName: 'Swap' });
    const paid =
      swapped[0]?.args.amount0 && swapped[0].args.amount0 > 0n ? swapped[0].args.amount0 : swapped[0]?.args.amount1;
    expect(paid).toBe(firstBuy - fee);
  });

  it('refuses launches while paused', async () => {
    await wallet(0).writeContract({
      address: devnet.contracts.config,
      abi: ServiceConfig.abi,
      functionName: 'setLaunchesPaused',
      args: [true],
    });
    expect((await l.launch()).result).toBe('LaunchesPaused');
  });

  it('refuses every malformed launch with its own error', async () => {
    const r = async (o: Parameters<typeof l.launch>[0]) => (await l.launch(o)).result;
    expect(await r({ supply: 0n })).toBe('InvalidSupply');
    expect(await r({ supply: 10n ** 30n + 1n })).toBe('InvalidSupply');
    expect(await r({ fee: 3000 })).toBe('InvalidFeeTier');
    expect(await r({ openingTick: -207201 })).toBe('InvalidTick');
    expect(
      await r({
        shape: [
          { width: 400, bps: 5000 },
          { width: 0, bps: 4000 },
        ],
      }),
    ).toBe('InvalidRanges');
    expect(
      await r({
        shape: [
          { width: 200, bps: 2000 },
          { width: 200, bps: 2000 },
          { width: 200, bps: 2000 },
          { width: 200, bps: 2000 },
          { width: 0, bps: 2000 },
        ],
      }),
    ).toBe('InvalidRanges');
    expect(await r({ tokenIs0: true, ranges: [{ tickLower: -207400, tickUpper: 887200, bps: 10000 }] })).toBe(
      'InvalidRanges',
    );
    expect(await r({ tokenIs0: true, ranges: [{ tickLower: -207200, tickUpper: 800000, bps: 10000 }] })).toBe(
      'InvalidRanges',
    );
    const alice = account(8).address;
    expect(
      await r({
        firstBuy: 1n,
        firstBuyTo: [
          { wallet: alice, bps: 5000 },
          { wallet: alice, bps: 5000 },
        ],
      }),
    ).toBe('InvalidSplit');
    expect(await r({ firstBuy: 1n, firstBuyTo: [{ wallet: alice, bps: 9000 }] })).toBe('InvalidSplit');
    expect(await r({ firstBuyTo: [{ wallet: alice, bps: 10000 }] })).toBe('InvalidSplit');
    expect(await r({ burnBps: 50 })).toBe('InvalidBurn');
    expect(await r({ burnBps: 10001 })).toBe('InvalidBurn');
    expect(await r({ burnBps: 100, royaltyTo: alice })).toBe('ConflictingRoyalty');
    expect(await r({ burnBps: 9999 })).toBe('ok');
  });

  it('refuses pool callbacks from anyone but the pool it is working on', async () => {
    const call = client.simulateContract({
      account: account(8),
      address: devnet.contracts.factory,
      abi: LaunchFactory.abi,
      functionName: 'pancakeV3MintCallback',
      args: [1n, 0n, '0x'],
    });
    expect(await revertName(call)).toBe('NotPool');
  });

  it('has no way to take liquidity out: only launch and collect change anything', () => {
    const writers = LaunchFactory.abi
      .filter(
        (item) =>
          item.type === 'function' && (item.stateMutability === 'nonpayable' || item.stateMutability === 'payable'),
      )
      .map((item) => ('name' in item ? item.name : ''))
      .sort();
    expect(writers).toEqual(['collect', 'launch', 'pancakeV3MintCallback', 'pancakeV3SwapCallback']);
  });
});

describe('LaunchFactory against a front-run pool', () => {
  it('uses a pool someone created but did not price, opening it at the asked tick', async () => {
    const planned = await l.plan({ tokenIs0: true });
    const { pancakeFactory, wbnb } = devnet.contracts;
    await wallet(7).writeContract({
      address: pancakeFactory,
      abi: PancakeV3Factory.abi,
      functionName: 'createPool',
      args: [planned.token, wbnb, 10000],
    });
    const launched = await l.launch({ tokenIs0: true });
    expect(launched.result).toBe('ok');
    if (!launched.pool) throw new Error('no pool');
    const [sqrtPriceX96] = await slot0(launched.pool);
    expect(sqrtPriceX96).toBe(getSqrtRatioAtTick(planned.params.openingTick));
  });

  /** Creates the token's pool from another account and prices it at `tick` (in pool ticks), as a front-runner does. */
  async function priceFirst(planned: Awaited<ReturnType<typeof l.plan>>, tick: number) {
    const { pancakeFactory } = devnet.contracts;
    const attacker = wallet(7);
    const { pair, fee } = planned.params;
    const hashes = [
      await attacker.writeContract({
        address: pancakeFactory,
        abi: PancakeV3Factory.abi,
        functionName: 'createPool',
        args: [planned.token, pair, fee],
      }),
    ];
    const pool = (await client.readContract({
      address: pancakeFactory,
      abi: PancakeV3Factory.abi,
      functionName: 'getPool',
      args: [planned.token, pair, fee],
    })) as Address;
    hashes.push(
      await attacker.writeContract({
        address: pool,
        abi: PancakeV3Pool.abi,
        functionName: 'initialize',
        args: [getSqrtRatioAtTick(tick)],
      }),
    );
    let gas = 0n;
    for (const hash of hashes) gas += (await client.getTransactionReceipt({ hash })).gasUsed;
    return { pool, gas };
  }

  for (const tokenIs0 of [true, false]) {
    for (const direction of ['dear', 'cheap', 'at'] as const) {
      it(`takes over an empty pool someone priced with the token ${direction === 'at' ? 'at its opening price' : direction} (token${tokenIs0 ? 0 : 1}), opening at the asked tick`, async () => {
        const planned = await l.plan({ tokenIs0, firstBuy: parseEther('0.5') });
        // In pool ticks the token's price rises with the tick when it is token0.
        const dearer = direction === 'dear' ? 100000 : direction === 'cheap' ? -100000 : 0;
        const { pool } = await priceFirst(planned, planned.params.openingTick + (tokenIs0 ? dearer : -dearer));
        const alone = await l.plan({ tokenIs0, firstBuy: parseEther('0.5'), saltSeed: 'alone' });
        const launched = await l.launch({ tokenIs0, firstBuy: parseEther('0.5') });
        expect(launched.result).toBe('ok');
        expect(launched.pool).toBe(pool);
        const receipt = await client.getTransactionReceipt({ hash: launched.hash ?? '0x' });
        const takeovers = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'PoolTakenOver' });
        expect(takeovers.map((e) => [e.args.tokensSold, e.args.proceeds])).toEqual(
          direction === 'at' ? [] : [[0n, 0n]],
        );
        // The first buy met the launch's own supply at the asked price: as many tokens as the same launch on a new pool.
        const [firstBuy] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'FirstBuy' });
        const control = await l.launch({ tokenIs0, firstBuy: parseEther('0.5'), saltSeed: 'alone' });
        expect(control.token).toBe(alone.token);
        const controlReceipt = await client.getTransactionReceipt({ hash: control.hash ?? '0x' });
        const [controlBuy] = parseEventLogs({
          abi: LaunchFactory.abi,
          logs: controlReceipt.logs,
          eventName: 'FirstBuy',
        });
        expect(firstBuy?.args.tokens).toBe(controlBuy?.args.tokens);
        expect(await balanceOf(planned.token, devnet.contracts.factory)).toBe(0n);
      });
    }
  }

  it('takes over a pool priced first for a supply too small to sell a wei of it (under 100,000 wei)', async () => {
    const planned = await l.plan({ tokenIs0: true, supply: 50_000n, saltSeed: 'tiny' });
    await priceFirst(planned, planned.params.openingTick + 100000);
    const launched = await l.launch({ tokenIs0: true, supply: 50_000n, saltSeed: 'tiny' });
    expect(launched.result).toBe('ok');
    const [sqrtPriceX96] = await slot0(launched.pool ?? '0x');
    expect(sqrtPriceX96).toBe(getSqrtRatioAtTick(planned.params.openingTick));
  });

  // The far end of the tick range is the griefer's best move against the takeover: every word of the tick bitmap
  // between there and the opening price is read on the way. The launch, with the gas limit its build gave it before
  // the griefer acted (launchGasLimit), still lands. At the 0.01% tier the transaction cap bounds the walk: about
  // 300,000 ticks of the 1.77 million.
  for (const fee of [10000, 2500, 500, 100]) {
    it(`takes over a ${fee / 10000}% pool priced ${fee === 100 ? '300,000 ticks away' : 'at the far end of the range'}, within the gas its build set`, async () => {
      const planned = await l.plan({ tokenIs0: true, fee });
      const spacing = SPACING[fee] ?? 1;
      const far = fee === 100 ? planned.params.openingTick + 300_000 : Math.floor((MAX_TICK - 1) / spacing) * spacing;
      const request = {
        account: planned.creator,
        address: devnet.contracts.factory,
        abi: LaunchFactory.abi,
        functionName: 'launch',
        args: [planned.params],
      } as const;
      const estimated = await client.estimateContractGas(request);
      const gas = launchGasLimit((estimated * 12n) / 10n, fee, MAX_TX_GAS);
      await priceFirst(planned, far);
      const hash = await createWalletClient({
        account: planned.creator,
        chain: devnetChain,
        transport: custom(devnet.provider),
      }).writeContract({ ...request, gas });
      const receipt = await client.getTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      const [event] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'Launched' });
      const [sqrtPriceX96] = await slot0(event?.args.pool ?? '0x');
      expect(sqrtPriceX96).toBe(getSqrtRatioAtTick(planned.params.openingTick));
      console.log(
        `takeover from tick ${far} at fee ${fee}: ${receipt.gasUsed} gas used of the ${gas} its build set (the launch alone, making its own pool: ${estimated})`,
      );
    });
  }
});

describe('LaunchFactory.collect', () => {
  async function collectOnce(token: Address) {
    const hash = await wallet(9).writeContract({
      address: devnet.contracts.factory,
      abi: LaunchFactory.abi,
      functionName: 'collect',
      args: [token],
    });
    const [event] = parseEventLogs({
      abi: LaunchFactory.abi,
      logs: (await client.getTransactionReceipt({ hash })).logs,
      eventName: 'Collected',
    });
    if (!event) throw new Error('no Collected event');
    return event.args;
  }

  async function tradeAround(token: Address, pool: Address) {
    const d = routerDriver(devnet, client);
    const p = { token, pair: devnet.contracts.wbnb, pool };
    await d.trade(5, 'buyExactIn', d.params(p, parseEther('5'), 0n), parseEther('5'));
    await d.allowRouter(5, token);
    const tokens = await balanceOf(token, account(5).address);
    await d.trade(5, 'sellExactIn', d.params(p, tokens / 2n, 0n));
  }

  it('pays the whole royalty to the creator with burnBps 0', async () => {
    const launched = await l.launch({ creator: 3 });
    if (!launched.pool) throw new Error('no pool');
    await tradeAround(launched.token, launched.pool);
    const creator = launched.creator.address;
    const bnbBefore = await client.getBalance({ address: creator });
    const tokensBefore = await balanceOf(launched.token, creator);
    const hash = await wallet(9).writeContract({
      address: devnet.contracts.factory,
      abi: LaunchFactory.abi,
      functionName: 'collect',
      args: [launched.token],
    });
    const [event] = parseEventLogs({
      abi: LaunchFactory.abi,
      logs: (await client.getTransactionReceipt({ hash })).logs,
      eventName: 'Collected',
    });
    if (!event) throw new Error('no Collected event');
    expect(event.args.pairFees > 0n).toBe(true);
    expect(event.args.tokenFees > 0n).toBe(true);
    expect((await client.getBalance({ address: creator })) - bnbBefore).toBe(event.args.pairFees);
    expect((await balanceOf(launched.token, creator)) - tokensBefore).toBe(event.args.tokenFees);
    expect(event.args.tokensBurned).toBe(0n);
  });

  it('keeps the buy-back while the pool has under 30 seconds of history, then buys back and burns at a fair price', async () => {
    const { wbnb, factory } = devnet.contracts;
    const launched = await l.launch({ creator: 3, burnBps: 5000 });
    if (!launched.pool) throw new Error('no pool');
    await tradeAround(launched.token, launched.pool);
    const deadBefore = await balanceOf(launched.token, DEAD);
    const first = await collectOnce(launched.token);
    const { pairFees, tokenFees, pairToRoyalty, tokenToRoyalty, tokensBurned, buybackPending } = first;
    expect(pairToRoyalty).toBe(pairFees - pairFees / 2n);
    expect(tokenToRoyalty).toBe(tokenFees - tokenFees / 2n);
    // Seconds after the launch the pool cannot vouch for a price: the pair's burn share waits, held here.
    expect(buybackPending).toBe(pairFees / 2n);
    expect(tokensBurned).toBe(tokenFees / 2n);
    expect(await balanceOf(wbnb, factory)).toBe(buybackPending);
    expect(
      await client.readContract({
        address: factory,
        abi: LaunchFactory.abi,
        functionName: 'buybackPending',
        args: [launched.token],
      }),
    ).toBe(buybackPending);

    await testClient.increaseTime({ seconds: 120 });
    await testClient.mine({ blocks: 1 });
    const [, tickBefore] = await slot0(launched.pool);
    const second = await collectOnce(launched.token);
    // It bought: what it spent left the factory, and no more than half a spacing of price moved.
    expect(second.buybackPending < buybackPending).toBe(true);
    expect(second.tokensBurned > 0n).toBe(true);
    expect(await balanceOf(wbnb, factory)).toBe(second.buybackPending);
    const [, tickAfter] = await slot0(launched.pool);
    expect(Math.abs(tickAfter - tickBefore)).toBeLessThanOrEqual(100);
    expect((await balanceOf(launched.token, DEAD)) - deadBefore).toBe(tokensBurned + second.tokensBurned);
    expect(await balanceOf(launched.token, factory)).toBe(0n);
  });

  it('pays the royalty in WBNB when the recipient refuses BNB, so collect never stops', async () => {
    const { config, wbnb } = devnet.contracts;
    // The config contract has no receive function: as the royalty recipient, it refuses BNB.
    const launched = await l.launch({ creator: 3, royaltyTo: config });
    if (!launched.pool) throw new Error('no pool');
    await tradeAround(launched.token, launched.pool);
    const before = await balanceOf(wbnb, config);
    const event = await collectOnce(launched.token);
    expect(event.pairFees > 0n).toBe(true);
    expect((await balanceOf(wbnb, config)) - before).toBe(event.pairToRoyalty);
  });

  it('refuses tokens it did not launch', async () => {
    const call = client.simulateContract({
      account: account(9),
      address: devnet.contracts.factory,
      abi: LaunchFactory.abi,
      functionName: 'collect',
      args: [devnet.contracts.usdt],
    });
    expect(await revertName(call)).toBe('UnknownToken');
  });
});
