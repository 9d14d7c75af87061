import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  erc20Abi,
  formatEther,
  type Hash,
  type Hex,
  type PublicClient,
  parseEther,
  parseEventLogs,
  zeroAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { LaunchFactory, Sandwicher } from '../../src-main/chain/generated/contracts';
import { NonfungiblePositionManager, PancakeV3Pool, WETH9 } from '../../src-main/chain/generated/vendor';
import { devnetChain } from '../../src-main/chain/networks';
import { launchGasLimit } from '../../src-main/core/launch/takeoverGas';
import { getSqrtRatioAtTick } from '../../src-main/core/math/tickMath';
import { MAX_TX_GAS } from '../../src-main/services/launchService';
import { type DevnetTestClient, devnetTestClient } from '../support/devnetTestClient';
import { launcher, SPACING } from '../support/launcher';
import { routerDriver } from '../support/routerDriver';

/**
 * Each attack of the second contract review, played as the attacker would play it for profit: their own pool, their
 * own liquidity, their own sandwich contract, their own choice of sizes. Every test measures what the attacker ends
 * with.
 */

let devnet: Devnet;
let client: PublicClient;
let l: ReturnType<typeof launcher>;
let testClient: DevnetTestClient;
let snapshot: Hex | undefined;

const ATTACKER = 7;
/** A launch opening at a cap of about 10 BNB for its billion tokens. */
const OPENING = -184200;
const account = (index: number) => privateKeyToAccount(devnet.accounts[index]?.privateKey ?? '0x');
const wallet = (index: number) =>
  createWalletClient({ account: account(index), chain: devnetChain, transport: custom(devnet.provider) });
const balanceOf = (token: Address, who: Address) =>
  client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
const gasOf = async (hash: Hash) => (await client.getTransactionReceipt({ hash })).gasUsed;

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

describe('pool pre-creation snipe', () => {
  /**
   * The attacker reads the token address from the pending launch, creates its pool one spacing off the opening
   * price and lays WBNB bids between there and the opening price (`inTheWay`), or on the far side (`!inTheWay`),
   * then waits for the launch. Returns the gas the attacker spent and the position to take back.
   */
  async function occupy(token: Address, openingTick: number, tokenIs0: boolean, inTheWay: boolean, bnb: bigint) {
    const attacker = wallet(ATTACKER);
    const { wbnb, positionManager } = devnet.contracts;
    const s = SPACING[10000] ?? 200;
    // Token0's price rises with the tick. Pair-only liquidity sits below the price when the pair is token1, and at
    // or above it when the pair is token0.
    const initTick = tokenIs0 === inTheWay ? openingTick + s : openingTick - s;
    const [tickLower, tickUpper] = tokenIs0
      ? inTheWay
        ? [openingTick, openingTick + s]
        : [initTick - s, initTick]
      : inTheWay
        ? [openingTick - s, openingTick]
        : [initTick, initTick + s];
    const [token0, token1] = tokenIs0 ? [token, wbnb] : [wbnb, token];
    const hashes: Hash[] = [];
    hashes.push(
      await attacker.writeContract({
        address: positionManager,
        abi: NonfungiblePositionManager.abi,
        functionName: 'createAndInitializePoolIfNecessary',
        args: [token0, token1, 10000, getSqrtRatioAtTick(initTick)],
      }),
    );
    hashes.push(await attacker.writeContract({ address: wbnb, abi: WETH9.abi, functionName: 'deposit', value: bnb }));
    hashes.push(
      await attacker.writeContract({
        address: wbnb,
        abi: WETH9.abi,
        functionName: 'approve',
        args: [positionManager, bnb],
      }),
    );
    const mint = await attacker.writeContract({
      address: positionManager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'mint',
      args: [
        {
          token0,
          token1,
          fee: 10000,
          tickLower,
          tickUpper,
          amount0Desired: tokenIs0 ? 0n : bnb,
          amount1Desired: tokenIs0 ? bnb : 0n,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: attacker.account.address,
          deadline: 2n ** 40n,
        },
      ],
    });
    hashes.push(mint);
    const receipt = await client.getTransactionReceipt({ hash: mint });
    const [minted] = parseEventLogs({
      abi: NonfungiblePositionManager.abi,
      logs: receipt.logs,
      eventName: 'IncreaseLiquidity',
    });
    if (!minted) throw new Error('the attacker minted nothing');
    let gas = 0n;
    for (const hash of hashes) gas += await gasOf(hash);
    return { gas, tokenId: minted.args.tokenId, liquidity: minted.args.liquidity };
  }

  /** Takes the attacker's position back out, whatever it holds now. */
  async function withdraw(tokenId: bigint, liquidity: bigint) {
    const attacker = wallet(ATTACKER);
    const { positionManager } = devnet.contracts;
    await attacker.writeContract({
      address: positionManager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'decreaseLiquidity',
      args: [{ tokenId, liquidity, amount0Min: 0n, amount1Min: 0n, deadline: 2n ** 40n }],
    });
    await attacker.writeContract({
      address: positionManager,
      abi: NonfungiblePositionManager.abi,
      functionName: 'collect',
      args: [
        { tokenId, recipient: attacker.account.address, amount0Max: 2n ** 128n - 1n, amount1Max: 2n ** 128n - 1n },
      ],
    });
  }

  /** What `from` paid for gas in the blocks since `fromBlock` (the devnet mines one transaction a block). */
  async function gasPaidSince(from: Address, fromBlock: bigint) {
    let paid = 0n;
    const latest = await client.getBlockNumber({ cacheTime: 0 });
    for (let n = fromBlock; n <= latest; n++) {
      const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) {
        if (tx.from.toLowerCase() !== from.toLowerCase()) continue;
        const receipt = await client.getTransactionReceipt({ hash: tx.hash });
        paid += receipt.gasUsed * receipt.effectiveGasPrice;
      }
    }
    return paid;
  }

  /** The attacker's BNB and WBNB together. */
  const holdings = async () => {
    const who = account(ATTACKER).address;
    return (await balanceOf(devnet.contracts.wbnb, who)) + (await client.getBalance({ address: who }));
  };

  /** The creator's launch as its build made it before the attack (gas from that simulation), sent after it. */
  async function launchAfterAttack(options: Parameters<typeof l.plan>[0]) {
    const planned = await l.plan(options);
    const request = {
      account: planned.creator,
      address: devnet.contracts.factory,
      abi: LaunchFactory.abi,
      functionName: 'launch',
      args: [{ ...planned.params }],
      value: planned.params.firstBuy,
    } as const;
    const gas = launchGasLimit(((await client.estimateContractGas(request)) * 12n) / 10n, 10000, MAX_TX_GAS);
    return { planned, send: () => wallet(2).writeContract({ ...request, gas }) };
  }

  for (const tokenIs0 of [true, false]) {
    const side = (inTheWay: boolean) => (tokenIs0 === inTheWay ? 'dear' : 'cheap');
    for (const bnb of [parseEther('0.0002'), parseEther('5'), parseEther('15')]) {
      it(`token${tokenIs0 ? 0 : 1}, ${formatEther(bnb)} BNB of bids in the way of a pool priced with the token dear: the launch is refused, and blocking it locked that liquidity`, async () => {
        const options = {
          tokenIs0,
          openingTick: OPENING,
          saltSeed: `snipe-${tokenIs0}-${bnb}`,
          firstBuy: parseEther('1'),
          minTokens: 1n,
        };
        const { planned, send } = await launchAfterAttack(options);
        const before = await holdings();
        const position = await occupy(planned.token, planned.params.openingTick, tokenIs0, true, bnb);
        // Simulated now, the launch is refused with its own error, which the build reads to pick a fresh salt.
        expect(await l.launch(options).then((r) => r.result)).toBe('PoolOccupied');
        const receipt = await client.getTransactionReceipt({ hash: await send() });
        expect(receipt.status).toBe('reverted');
        console.log(
          `blocking a launch (token${tokenIs0 ? 0 : 1}) took ${position.gas} gas and ${bnb} wei of bids in the way; the creator lost ${receipt.gasUsed} gas`,
        );
        expect(receipt.gasUsed < position.gas / 2n, `creator ${receipt.gasUsed}, attacker ${position.gas}`).toBe(true);
        await withdraw(position.tokenId, position.liquidity);
        // No supply left for the attacker, and the bids came back whole: nothing gained for the gas.
        const code = await client.getCode({ address: planned.token });
        if (code && code !== '0x') expect(await balanceOf(planned.token, account(ATTACKER).address)).toBe(0n);
        expect((await holdings()) <= before).toBe(true);
      });
    }

    // Bids beside the way, and bids in the way up to the takeover's dust (0.001% of the supply, about 0.0001 BNB at
    // this launch's price): the launch takes the pool over and opens at the asked price. The attacker then plays
    // their best hand: withdraw at once and sell what they hold; what they end with is compared with the gas of
    // making the pool at BSC's lowest price (0.05 gwei), before the gas they paid here.
    for (const [inTheWay, bnb] of [
      [false, parseEther('5')],
      [true, parseEther('0.00009')],
      [true, parseEther('0.00002')],
    ] as const) {
      it(`token${tokenIs0 ? 0 : 1}, pool priced with the token ${side(inTheWay)}, ${formatEther(bnb)} BNB of bids ${inTheWay ? 'in the way' : 'beside it'}: the launch takes the pool over at the asked price and the attacker gains less than their gas`, async () => {
        const options = {
          tokenIs0,
          openingTick: OPENING,
          saltSeed: `takeover-${tokenIs0}-${inTheWay}-${bnb}`,
          firstBuy: parseEther('1'),
          minTokens: 1n,
        };
        const { planned, send } = await launchAfterAttack(options);
        const attackerAddress = account(ATTACKER).address;
        const before = await holdings();
        const fromBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
        const position = await occupy(planned.token, planned.params.openingTick, tokenIs0, inTheWay, bnb);
        const receipt = await client.getTransactionReceipt({ hash: await send() });
        expect(receipt.status).toBe('success');
        const [launched] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'Launched' });
        const [takeover] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'PoolTakenOver' });
        expect(takeover?.args.tokensSold ?? -1n).toBeLessThanOrEqual(planned.params.supply / 100_000n);
        if (!inTheWay) expect(takeover?.args.tokensSold).toBe(0n);
        else expect(takeover?.args.proceeds ?? 0n).toBeGreaterThan(0n);
        // The first buy met the asked opening price: the pool's price before it was the opening price.
        expect(launched?.args.openingTick).toBe(planned.params.openingTick);

        await withdraw(position.tokenId, position.liquidity);
        const tokens = await balanceOf(planned.token, attackerAddress);
        if (tokens > 0n) {
          const d = routerDriver(devnet, client);
          await d.allowRouter(ATTACKER, planned.token);
          const pool = launched?.args.pool as Address;
          await d.trade(
            ATTACKER,
            'sellExactIn',
            d.params({ token: planned.token, pair: devnet.contracts.wbnb, pool }, tokens, 0n),
          );
        }
        const after = await holdings();
        // What the attack itself earned: the change in holdings with the gas paid on this devnet added back.
        const earned = after - before + (await gasPaidSince(attackerAddress, fromBlock));
        const makingThePool = position.gas * 50_000_000n; // at 0.05 gwei
        console.log(
          `takeover (token${tokenIs0 ? 0 : 1}, ${inTheWay ? 'in the way' : 'beside'}, ${bnb} wei): the attacker earned ${earned} wei before gas; making the pool costs ${makingThePool} wei at 0.05 gwei`,
        );
        expect(earned < makingThePool, `earned ${earned}, gas ${makingThePool}`).toBe(true);
      });
    }
  }
});

describe('buy-back sandwich', () => {
  /** Trades a 1% pool back and forth so the creator's positions hold real fees. */
  async function volume(token: Address, pool: Address, rounds: number) {
    const d = routerDriver(devnet, client);
    const p = { token, pair: devnet.contracts.wbnb, pool };
    await d.allowRouter(5, token);
    for (let i = 0; i < rounds; i++) {
      await d.trade(5, 'buyExactIn', d.params(p, parseEther('20'), 0n), parseEther('20'));
      const tokens = await balanceOf(token, account(5).address);
      await d.trade(5, 'sellExactIn', d.params(p, tokens, 0n));
    }
  }

  async function deploySandwicher(): Promise<Address> {
    const hash = await wallet(ATTACKER).deployContract({ abi: Sandwicher.abi, bytecode: Sandwicher.bytecode });
    const address = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!address) throw new Error('not deployed');
    return address;
  }

  for (const tokenIs0 of [true, false]) {
    it(`earns a buy, collect, sell attacker at most dust at the 1% tier (token${tokenIs0 ? 0 : 1})`, async () => {
      const { wbnb, factory } = devnet.contracts;
      const launched = await l.launch({
        creator: 3,
        burnBps: 10000,
        tokenIs0,
        saltSeed: `sandwich-${tokenIs0}`,
      });
      expect(launched.result).toBe('ok');
      const pool = launched.pool as Address;
      await volume(launched.token, pool, 3);
      // Time passes: the pool's observations are old enough to price a buy-back.
      await testClient.increaseTime({ seconds: 600 });
      await testClient.mine({ blocks: 1 });
      const sandwicher = await deploySandwicher();
      const attacker = wallet(ATTACKER);
      const stake = parseEther('200');
      await attacker.writeContract({ address: wbnb, abi: WETH9.abi, functionName: 'deposit', value: stake });
      await attacker.writeContract({
        address: wbnb,
        abi: WETH9.abi,
        functionName: 'transfer',
        args: [sandwicher, stake],
      });

      const start = await testClient.snapshot();
      // What an honest collect burns, for scale.
      const honest = await attacker.writeContract({
        address: sandwicher,
        abi: Sandwicher.abi,
        functionName: 'attack',
        args: [pool, factory, launched.token, wbnb, 0n],
      });
      const [collected] = parseEventLogs({
        abi: LaunchFactory.abi,
        logs: (await client.getTransactionReceipt({ hash: honest })).logs,
        eventName: 'Collected',
      });
      const burnShare = collected?.args.pairFees ?? 0n;
      expect(burnShare > parseEther('0.2'), `burn share ${burnShare}`).toBe(true);
      // The honest buy-back does run: it burns what it bought, and keeps only what the price bound leaves.
      const pending = collected?.args.buybackPending ?? 0n;
      expect(pending < burnShare, `kept ${pending} of ${burnShare}`).toBe(true);
      expect((collected?.args.tokensBurned ?? 0n) > 0n).toBe(true);

      // The attacker's best push, found by trying sizes from a hundredth of a BNB to 50 BNB.
      let best = { push: 0n, profit: -(2n ** 255n) };
      for (const push of ['0.01', '0.03', '0.1', '0.3', '0.5', '1', '2', '5', '10', '20', '50'].map((x) =>
        parseEther(x),
      )) {
        await testClient.revert({ id: start });
        await testClient.snapshot();
        const hash = await attacker.writeContract({
          address: sandwicher,
          abi: Sandwicher.abi,
          functionName: 'attack',
          args: [pool, factory, launched.token, wbnb, push],
        });
        expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
        const profit = (await balanceOf(wbnb, sandwicher)) - stake;
        if (profit > best.profit) best = { push, profit };
      }
      expect(
        best.profit <= parseEther('0.000001'),
        `pushing ${best.push} wei earned ${best.profit} wei of a ${burnShare} wei buy-back`,
      ).toBe(true);
    });
  }
});

describe('referral binding on the router', () => {
  it('refuses a bound wallet naming another referrer, so the cut only ever reaches the bound one', async () => {
    const pool = await l.launch({ saltSeed: 'binding' });
    const p = { token: pool.token, pair: devnet.contracts.wbnb, pool: pool.pool as Address };
    const d = routerDriver(devnet, client);
    const trader = 6;
    const first = account(16).address;
    const other = account(17).address;
    const bnb = parseEther('1');
    expect((await d.trade(trader, 'buyExactIn', d.params(p, bnb, 0n, first), bnb)).result).toBe('ok');
    const otherBefore = await client.getBalance({ address: other });
    expect((await d.trade(trader, 'buyExactIn', d.params(p, bnb, 0n, other), bnb)).result).toBe('AlreadyBound');
    expect(await client.getBalance({ address: other })).toBe(otherBefore);
    // Naming the bound referrer, or nobody, works as before.
    expect((await d.trade(trader, 'buyExactIn', d.params(p, bnb, 0n, first), bnb)).result).toBe('ok');
    expect((await d.trade(trader, 'buyExactIn', d.params(p, bnb, 0n, zeroAddress), bnb)).result).toBe('ok');
  });
});

describe('collect after a range that got no liquidity', () => {
  it('records only the ranges it minted, so collect keeps working', async () => {
    // 9,999 wei of supply: the first range's share is 0 wei, so it gets no liquidity; the last takes it all.
    const launched = await l.launch({
      supply: 9999n,
      openingTick: 0,
      shape: [
        { width: 200, bps: 1 },
        { width: 0, bps: 9999 },
      ],
    });
    expect(launched.result).toBe('ok');
    const record = await client.readContract({
      address: devnet.contracts.factory,
      abi: LaunchFactory.abi,
      functionName: 'launchOf',
      args: [launched.token],
    });
    expect(record.ranges).toHaveLength(1);
    const hash = await wallet(9).writeContract({
      address: devnet.contracts.factory,
      abi: LaunchFactory.abi,
      functionName: 'collect',
      args: [launched.token],
      gas: 1_000_000n,
    });
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
    const slot0 = await client.readContract({
      address: launched.pool as Address,
      abi: PancakeV3Pool.abi,
      functionName: 'slot0',
    });
    expect(slot0[1] === launched.params.openingTick).toBe(true);
  });
});
