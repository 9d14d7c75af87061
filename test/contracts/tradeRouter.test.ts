import {
  type Address,
  createPublicClient,
  custom,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  type PublicClient,
  parseEther,
  toFunctionSelector,
} from 'viem';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { FalseToken, ReentrantToken, ServiceConfig, TradeRouter } from '../../src-main/chain/generated/contracts';
import { devnetChain } from '../../src-main/chain/networks';
import { type DevnetTestClient, devnetTestClient } from '../support/devnetTestClient';
import { revertName } from '../support/revertName';
import { type RouterDriver, routerAbi, routerDriver } from '../support/routerDriver';
import { createTokenPool, type TokenPool } from '../support/tokenPool';

let devnet: Devnet;
let client: PublicClient;
let bnbPool: TokenPool;
let usdtPool: TokenPool;
let testClient: DevnetTestClient;
let snapshot: Hex | undefined;

const TRADER = 5;
const REFERRER = 6;
let d: RouterDriver;
const abi = routerAbi;

async function expectRouterEmpty() {
  const { router, wbnb, usdt } = devnet.contracts;
  expect(await client.getBalance({ address: router })).toBe(0n);
  for (const token of [wbnb, usdt, bnbPool.token, usdtPool.token]) expect(await d.balanceOf(token, router)).toBe(0n);
}

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  testClient = devnetTestClient(devnet);
  d = routerDriver(devnet, client);
  bnbPool = await createTokenPool(devnet, client, devnet.contracts.wbnb);
  usdtPool = await createTokenPool(devnet, client, devnet.contracts.usdt, { pairLiquidity: parseEther('60000') });
});
beforeEach(async () => {
  if (snapshot) await testClient.revert({ id: snapshot });
  snapshot = await testClient.snapshot();
});

describe('TradeRouter', () => {
  const feeRecipient = () => devnet.contracts.siteFeeRecipient;

  it('buys exact in with BNB: the quoter amount, 1% fee, 0.2% of it to the referrer, the wallet bound', async () => {
    const trader = d.account(TRADER).address;
    const referrer = d.account(REFERRER).address;
    const gross = parseEther('1');
    const fee = parseEther('0.01');
    const cut = parseEther('0.002');
    const quoted = await d.quoteExactIn(devnet.contracts.wbnb, bnbPool.token, gross - fee);
    const before = {
      trader: await client.getBalance({ address: trader }),
      recipient: await client.getBalance({ address: feeRecipient() }),
      referrer: await client.getBalance({ address: referrer }),
    };
    const { result, hash } = await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, gross, quoted, referrer), gross);
    expect(result).toBe('ok');
    if (!hash) throw new Error('no hash');
    expect(await d.balanceOf(bnbPool.token, trader)).toBe(quoted);
    expect(before.trader - (await client.getBalance({ address: trader }))).toBe(gross + (await d.gasCost(hash)));
    expect((await client.getBalance({ address: feeRecipient() })) - before.recipient).toBe(fee - cut);
    expect((await client.getBalance({ address: referrer })) - before.referrer).toBe(cut);
    expect(await d.tradeEvent(hash)).toEqual({
      wallet: trader,
      token: bnbPool.token,
      referrer,
      pair: devnet.contracts.wbnb,
      isBuy: true,
      pairAmount: gross,
      tokenAmount: quoted,
      siteFee: fee,
      referrerCut: cut,
    });
    expect(
      await client.readContract({ address: devnet.contracts.router, abi, functionName: 'referrerOf', args: [trader] }),
    ).toBe(referrer);
    await expectRouterEmpty();
  });

  it('sells exact in through Permit2 for BNB, net of the fee', async () => {
    const trader = d.account(TRADER).address;
    await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, parseEther('2'), 0n), parseEther('2'));
    const tokens = await d.balanceOf(bnbPool.token, trader);
    await d.allowRouter(TRADER, bnbPool.token);
    const gross = await d.quoteExactIn(bnbPool.token, devnet.contracts.wbnb, tokens);
    const fee = (gross * 100n + 9999n) / 10000n;
    const before = await client.getBalance({ address: trader });
    const recipientBefore = await client.getBalance({ address: feeRecipient() });
    const { result, hash } = await d.trade(TRADER, 'sellExactIn', d.params(bnbPool, tokens, gross - fee));
    expect(result).toBe('ok');
    if (!hash) throw new Error('no hash');
    expect(await d.balanceOf(bnbPool.token, trader)).toBe(0n);
    expect((await client.getBalance({ address: trader })) - before + (await d.gasCost(hash))).toBe(gross - fee);
    expect((await client.getBalance({ address: feeRecipient() })) - recipientBefore).toBe(fee);
    await expectRouterEmpty();
  });

  it('buys exact out and refunds the BNB it did not need', async () => {
    const trader = d.account(TRADER).address;
    const want = parseEther('1000000');
    const before = await client.getBalance({ address: trader });
    const { result, hash } = await d.trade(
      TRADER,
      'buyExactOut',
      d.params(bnbPool, want, parseEther('5')),
      parseEther('5'),
    );
    expect(result).toBe('ok');
    if (!hash) throw new Error('no hash');
    const event = await d.tradeEvent(hash);
    expect(await d.balanceOf(bnbPool.token, trader)).toBe(want);
    expect(before - (await client.getBalance({ address: trader }))).toBe(event.pairAmount + (await d.gasCost(hash)));
    expect(event.pairAmount < parseEther('5')).toBe(true);
    await expectRouterEmpty();
  });

  it('sells exact out: the wallet receives exactly the amount asked, after the fee', async () => {
    const trader = d.account(TRADER).address;
    await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, parseEther('3'), 0n), parseEther('3'));
    await d.allowRouter(TRADER, bnbPool.token);
    const want = parseEther('1');
    const tokensBefore = await d.balanceOf(bnbPool.token, trader);
    const before = await client.getBalance({ address: trader });
    const { result, hash } = await d.trade(TRADER, 'sellExactOut', d.params(bnbPool, want, tokensBefore));
    expect(result).toBe('ok');
    if (!hash) throw new Error('no hash');
    expect((await client.getBalance({ address: trader })) - before + (await d.gasCost(hash))).toBe(want);
    const event = await d.tradeEvent(hash);
    expect(tokensBefore - (await d.balanceOf(bnbPool.token, trader))).toBe(event.tokenAmount);
    expect(event.pairAmount - event.siteFee).toBe(want);
    await expectRouterEmpty();
  });

  it('trades against a BEP-20 pair, paying and receiving it through Permit2', async () => {
    const trader = d.account(TRADER).address;
    const referrer = d.account(REFERRER).address;
    const { usdt } = devnet.contracts;
    await d.allowRouter(TRADER, usdt);
    const gross = parseEther('500');
    const before = { trader: await d.balanceOf(usdt, trader), recipient: await d.balanceOf(usdt, feeRecipient()) };
    const refBefore = await d.balanceOf(usdt, referrer);
    expect((await d.trade(TRADER, 'buyExactIn', d.params(usdtPool, gross, 1n, referrer))).result).toBe('ok');
    expect(before.trader - (await d.balanceOf(usdt, trader))).toBe(gross);
    expect((await d.balanceOf(usdt, feeRecipient())) - before.recipient).toBe(parseEther('4'));
    expect((await d.balanceOf(usdt, referrer)) - refBefore).toBe(parseEther('1'));
    const tokens = await d.balanceOf(usdtPool.token, trader);
    await d.allowRouter(TRADER, usdtPool.token);
    expect((await d.trade(TRADER, 'sellExactIn', d.params(usdtPool, tokens, 1n, referrer))).result).toBe('ok');
    await expectRouterEmpty();
  });

  it('rounds the fee up at dust sizes and takes it exactly at large ones', async () => {
    const referrer = d.account(REFERRER).address;
    // 1 wei: the fee rounds up to the whole amount, nothing is left to trade.
    expect((await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, 1n, 0n), 1n)).result).toBe('AmountTooSmall');
    // 101 wei: fee ceil(1.01) = 2 wei, referrer's cut floor(0.202) = 0.
    const dust = await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, 101n, 0n, referrer), 101n);
    expect(dust.result).toBe('ok');
    if (!dust.hash) throw new Error('no hash');
    expect(await d.tradeEvent(dust.hash)).toMatchObject({ pairAmount: 101n, siteFee: 2n, referrerCut: 0n });
    // 5,000 BNB into a 100 BNB pool: the fee is exactly 1%, the cut exactly 0.2%.
    const large = parseEther('5000');
    const big = await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, large, 0n, referrer), large);
    expect(big.result).toBe('ok');
    if (!big.hash) throw new Error('no hash');
    expect(await d.tradeEvent(big.hash)).toMatchObject({ siteFee: parseEther('50'), referrerCut: parseEther('10') });
    // Exact out of 1 wei of BNB: gross ceil(1 / 0.99) = 2 wei, so the fee is 1 wei.
    await d.allowRouter(TRADER, bnbPool.token);
    const tokens = await d.balanceOf(bnbPool.token, d.account(TRADER).address);
    const tiny = await d.trade(TRADER, 'sellExactOut', d.params(bnbPool, 1n, tokens));
    expect(tiny.result).toBe('ok');
    if (!tiny.hash) throw new Error('no hash');
    expect(await d.tradeEvent(tiny.hash)).toMatchObject({ pairAmount: 2n, siteFee: 1n });
    await expectRouterEmpty();
  });

  it('refuses a fill one wei worse than the limit, and accepts the limit itself', async () => {
    const gross = parseEther('1');
    const quoted = await d.quoteExactIn(devnet.contracts.wbnb, bnbPool.token, gross - parseEther('0.01'));
    expect((await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, gross, quoted + 1n), gross)).result).toBe(
      'LimitNotMet',
    );
    expect((await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, gross, quoted), gross)).result).toBe('ok');
  });

  it('refuses expired trades, self-referral, wrong BNB value, missing pools and zero amounts', async () => {
    const expired = { ...d.params(bnbPool, parseEther('1'), 0n), deadline: 1n };
    expect((await d.trade(TRADER, 'buyExactIn', expired, parseEther('1'))).result).toBe('Expired');
    const self = d.params(bnbPool, parseEther('1'), 0n, d.account(TRADER).address);
    expect((await d.trade(TRADER, 'buyExactIn', self, parseEther('1'))).result).toBe('SelfReferral');
    expect(
      (await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, parseEther('1'), 0n), parseEther('0.5'))).result,
    ).toBe('WrongValue');
    // Sells are not payable: BNB sent with one is refused by the contract itself.
    expect((await d.trade(TRADER, 'sellExactIn', d.params(bnbPool, 1n, 0n), 1n)).result).toBe('reverted');
    const noPool = { ...d.params(bnbPool, parseEther('1'), 0n), fee: 500 };
    expect((await d.trade(TRADER, 'buyExactIn', noPool, parseEther('1'))).result).toBe('NoPool');
    expect((await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, 0n, 0n), 0n)).result).toBe('AmountTooSmall');
  });

  it('refuses a size the pool cannot fill, and pays a referrer that will not take BNB in WBNB', async () => {
    // Below its lowest usable tick a full-range pool has no liquidity: a sale that would push the price past it
    // cannot be filled in one trade. The pool's owner holds enough tokens to try.
    const deep = await createTokenPool(devnet, client, devnet.contracts.wbnb, { supply: 10n ** 45n });
    await d.allowRouter(1, deep.token);
    expect((await d.trade(1, 'sellExactIn', d.params(deep, 10n ** 44n, 0n))).result).toBe('PoolTooThin');
    // A contract with no way to receive BNB as the referrer: the trade goes through and the cut arrives as WBNB.
    const gross = parseEther('1');
    const { config, wbnb } = devnet.contracts;
    const before = await d.balanceOf(wbnb, config);
    const rejecting = d.params(bnbPool, gross, 0n, config);
    expect((await d.trade(TRADER, 'buyExactIn', rejecting, gross)).result).toBe('ok');
    expect((await d.balanceOf(wbnb, config)) - before).toBe(parseEther('0.002'));
    await expectRouterEmpty();
  });

  it('keeps trading when the fee recipient refuses BNB, paying it the site fee in WBNB', async () => {
    const operator = d.wallet(0);
    const { config, wbnb } = devnet.contracts;
    // The config contract itself cannot receive BNB: made the fee recipient, it refuses every payment.
    await operator.writeContract({
      address: config,
      abi: ServiceConfig.abi,
      functionName: 'setFeeRecipient',
      args: [config],
    });
    const gross = parseEther('1');
    const before = await d.balanceOf(wbnb, config);
    expect((await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, gross, 0n), gross)).result).toBe('ok');
    expect((await d.balanceOf(wbnb, config)) - before).toBe(parseEther('0.01'));
    await d.allowRouter(TRADER, bnbPool.token);
    const tokens = await d.balanceOf(bnbPool.token, d.account(TRADER).address);
    const sold = await d.trade(TRADER, 'sellExactIn', d.params(bnbPool, tokens, 0n));
    expect(sold.result).toBe('ok');
    if (!sold.hash) throw new Error('no hash');
    const { siteFee } = await d.tradeEvent(sold.hash);
    expect((await d.balanceOf(wbnb, config)) - before).toBe(parseEther('0.01') + siteFee);
    await expectRouterEmpty();
  });

  it('fails a sale, keeping nothing, when the pair token will not transfer out', async () => {
    const owner = d.wallet(1);
    const hash = await owner.deployContract({
      abi: FalseToken.abi,
      bytecode: FalseToken.bytecode,
      args: [parseEther('1000000')],
    });
    const deployed = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!deployed) throw new Error('not deployed');
    const falsy = getAddress(deployed);
    const pool = await createTokenPool(devnet, client, falsy, {
      pairLiquidity: parseEther('1000'),
      supply: parseEther('200000000'),
    });
    await d.allowRouter(1, pool.token);
    // The pool pays the router; the router's payment on to the seller is refused.
    await owner.writeContract({
      address: falsy,
      abi: FalseToken.abi,
      functionName: 'refuseTransfersFrom',
      args: [devnet.contracts.router],
    });
    expect((await d.trade(1, 'sellExactIn', d.params(pool, parseEther('1000'), 0n))).result).toBe(
      'TokenTransferFailed',
    );
  });

  it('binds a wallet to its first referrer for ever, and refuses any other referrer after', async () => {
    const trader = d.account(TRADER).address;
    await d.trade(
      TRADER,
      'buyExactIn',
      d.params(bnbPool, parseEther('0.1'), 0n, d.account(REFERRER).address),
      parseEther('0.1'),
    );
    const other = await d.trade(
      TRADER,
      'buyExactIn',
      d.params(bnbPool, parseEther('0.1'), 0n, d.account(7).address),
      parseEther('0.1'),
    );
    expect(other.result).toBe('AlreadyBound');
    expect(
      await client.readContract({ address: devnet.contracts.router, abi, functionName: 'referrerOf', args: [trader] }),
    ).toBe(d.account(REFERRER).address);
    const { hash } = await d.trade(
      TRADER,
      'buyExactIn',
      d.params(bnbPool, parseEther('0.1'), 0n, d.account(REFERRER).address),
      parseEther('0.1'),
    );
    if (!hash) throw new Error('no hash');
    expect((await d.tradeEvent(hash)).referrerCut).toBe(parseEther('0.0002'));
  });

  it('honours a swap callback only from the pool of the trade under way', async () => {
    const attacker = d.wallet(8);
    const call = client.simulateContract({
      account: attacker.account,
      address: devnet.contracts.router,
      abi,
      functionName: 'pancakeV3SwapCallback',
      args: [1n, 0n, '0x'],
    });
    expect(await revertName(call)).toBe('NotPool');
  });

  it('stops pulling tokens once the Permit2 allowance has expired', async () => {
    const trader = d.account(TRADER).address;
    await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, parseEther('1'), 0n), parseEther('1'));
    const latest = await client.getBlock();
    await d.allowRouter(TRADER, bnbPool.token, Number(latest.timestamp) + 60);
    await testClient.increaseTime({ seconds: 120 });
    // Calls run against the latest block: mine one so the simulation sees the later time too.
    await testClient.mine({ blocks: 1 });
    const tokens = await d.balanceOf(bnbPool.token, trader);
    expect((await d.trade(TRADER, 'sellExactIn', d.params(bnbPool, tokens, 0n))).result).toBe('AllowanceExpired');
  });
});

describe('TradeRouter against hostile tokens and referrers', () => {
  let hostile: Address;
  let hostilePool: TokenPool;
  const selector = (name: string) => toFunctionSelector(`${name}()`);
  const hostileRead = (functionName: 'lastOk' | 'lastSelector' | 'attempts') =>
    client.readContract({ address: hostile, abi: ReentrantToken.abi, functionName });
  async function arm(payload: Hex) {
    await d.wallet(1).writeContract({
      address: hostile,
      abi: ReentrantToken.abi,
      functionName: 'arm',
      args: [devnet.contracts.router, payload],
    });
  }

  beforeEach(async () => {
    const hash = await d.wallet(1).deployContract({
      abi: ReentrantToken.abi,
      bytecode: ReentrantToken.bytecode,
      args: [parseEther('1000000')],
    });
    const deployed = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!deployed) throw new Error('not deployed');
    hostile = getAddress(deployed);
    hostilePool = await createTokenPool(devnet, client, hostile, { ownerIndex: 1 });
    await d.wallet(1).writeContract({
      address: hostile,
      abi: ReentrantToken.abi,
      functionName: 'transfer',
      args: [d.account(TRADER).address, parseEther('1000')],
    });
    await d.allowRouter(TRADER, hostile);
  });

  it('refuses a pair token that re-enters the router while it is being pulled', async () => {
    const reentry = encodeFunctionData({
      abi: TradeRouter.abi,
      functionName: 'buyExactIn',
      args: [d.params(hostilePool, parseEther('1'), 0n)],
    });
    await arm(reentry);
    expect((await d.trade(TRADER, 'buyExactIn', d.params(hostilePool, parseEther('10'), 1n))).result).toBe('ok');
    expect((await hostileRead('attempts')) as bigint).toBeGreaterThan(1n);
    expect(await hostileRead('lastOk')).toBe(false);
    expect(await hostileRead('lastSelector')).toBe(selector('Reentered'));
  });

  it('refuses a swap callback from the token instead of the pool', async () => {
    const fake = encodeFunctionData({
      abi: TradeRouter.abi,
      functionName: 'pancakeV3SwapCallback',
      args: [
        parseEther('1'),
        parseEther('1'),
        encodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'bool' }],
          [d.account(TRADER).address, hostile, false],
        ),
      ],
    });
    await arm(fake);
    expect((await d.trade(TRADER, 'buyExactIn', d.params(hostilePool, parseEther('10'), 1n))).result).toBe('ok');
    expect(await hostileRead('lastOk')).toBe(false);
    expect(await hostileRead('lastSelector')).toBe(selector('NotPool'));
  });

  it('refuses a referrer that re-enters when paid its cut, and still pays it', async () => {
    await arm(
      encodeFunctionData({
        abi: TradeRouter.abi,
        functionName: 'buyExactIn',
        args: [d.params(bnbPool, parseEther('1'), 0n)],
      }),
    );
    const before = await client.getBalance({ address: hostile });
    const gross = parseEther('1');
    expect((await d.trade(TRADER, 'buyExactIn', d.params(bnbPool, gross, 1n, hostile), gross)).result).toBe('ok');
    expect(await hostileRead('lastSelector')).toBe(selector('Reentered'));
    expect((await client.getBalance({ address: hostile })) - before).toBe(parseEther('0.002'));
    await expectRouterEmpty();
  });
});
