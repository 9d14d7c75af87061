import { type Address, getAbiItem, getAddress, parseEther, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { NoDecimalsToken, TradeRouter } from '../src-main/chain/generated/contracts';
import { weekOf } from '../src-main/core/referrals/weeks';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

/** The service's and the devnet's clock, moved a week on to close the week. */
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
const WEEK_MS = 7 * 24 * 3600 * 1000;
const CREATOR = 2; // the referrer: a token's creator is eligible without registering
const TRADER = 8;

let service: TestService;
let s: ServiceDrivers;
const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');

beforeAll(async () => {
  service = await startTestService(undefined, { now });
  s = await serviceDrivers(service);
});
afterAll(async () => {
  await service?.dispose();
});

async function head(): Promise<bigint> {
  return s.api.client.getBlockNumber({ cacheTime: 0 });
}

it('closes the week with the valued trades when a bound wallet also traded against a pair whose decimals() reverts', async () => {
  const launched = await s.launcher.launch({ creator: CREATOR, saltSeed: 'valued' });
  if (launched.result !== 'ok') throw new Error(`launch failed: ${launched.result}`);

  // A stranger's pair token: it moves balances like any token, but will not say its decimals.
  const deployer = s.driver.wallet(CREATOR);
  const deployed = await deployer.deployContract({
    abi: NoDecimalsToken.abi,
    bytecode: NoDecimalsToken.bytecode,
    args: [parseEther('1000000')],
  });
  const noDecimals = getAddress((await s.api.client.getTransactionReceipt({ hash: deployed })).contractAddress ?? '');
  await expect(
    s.api.client.readContract({ address: noDecimals, abi: NoDecimalsToken.abi, functionName: 'decimals' }),
  ).rejects.toThrow(/NoDecimals/);
  const odd = await s.launcher.launch({
    creator: CREATOR,
    saltSeed: 'no-decimals',
    pair: noDecimals,
    openingTick: -150000,
  });
  if (odd.result !== 'ok') throw new Error(`launch failed: ${odd.result}`);

  // The trader binds to the creator with a BNB buy built by the service, then buys with the odd pair too.
  const body = {
    wallet: account(TRADER).address,
    token: launched.token,
    amount: '1',
    referrer: account(CREATOR).address,
  };
  const built = await s.api.post('/build/buy', body);
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  const first = await s.api.signAndSend(TRADER, built.body.tx);
  const hash = await deployer.writeContract({
    address: noDecimals,
    abi: NoDecimalsToken.abi,
    functionName: 'transfer',
    args: [account(TRADER).address, parseEther('1000')],
  });
  expect((await s.api.client.waitForTransactionReceipt({ hash })).status).toBe('success');
  await s.driver.allowRouter(TRADER, noDecimals);
  const oddTrade = await s.driver.trade(TRADER, 'buyExactIn', {
    token: odd.token,
    pair: noDecimals,
    fee: 10000,
    amount: parseEther('100'),
    limit: 0n,
    referrer: zeroAddress,
    deadline: 2n ** 40n,
  });
  expect(oddTrade.result).toBe('ok');
  const again = await s.api.post('/build/buy', { ...body, amount: '0.5', referrer: null });
  expect(again.status, JSON.stringify(again.body)).toBe(200);
  await s.api.signAndSend(TRADER, again.body.tx);
  const week = weekOf(Number((await s.api.client.getBlock({ blockNumber: first.blockNumber })).timestamp));

  // What the week owes, from the chain alone: the bound wallet's BNB trades; the odd pair's trade is unvalued.
  const trades = await s.api.client.getLogs({
    address: s.contracts.router as Address,
    event: getAbiItem({ abi: TradeRouter.abi, name: 'Trade' }),
    fromBlock: 0n,
  });
  const mine = trades.filter((trade) => trade.args.wallet === account(TRADER).address);
  expect(mine.map((trade) => trade.args.pair)).toEqual([s.contracts.wbnb, noDecimals, s.contracts.wbnb]);
  expect(mine[1]?.args.siteFee).toBeGreaterThan(0n);
  const net = mine
    .filter((trade) => trade.args.pair === s.contracts.wbnb)
    .reduce((sum, trade) => sum + (trade.args.siteFee ?? 0n) - (trade.args.referrerCut ?? 0n), 0n);
  const owed = (net * 1500n) / 10_000n;
  expect(owed).toBeGreaterThan(0n);

  offsetMs += WEEK_MS;
  await s.api.client.request({ method: 'evm_mine' } as never);
  await service.indexer.waitFor(await head());
  await vi.waitFor(
    async () => {
      expect((await s.api.get('/status')).body.referralWeeks.lastClosedWeek).toBe(week);
    },
    { timeout: 20_000, interval: 100 },
  );
  const record = (await s.api.get(`/referrals/${account(CREATOR).address}`)).body;
  expect(record.lifetime.claimableWeeks).toMatchObject([{ week, amount: owed.toString() }]);
});
