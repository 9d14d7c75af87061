import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { type Address, getAbiItem, parseEther, zeroHash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { ReferralVault, TradeRouter } from '../src-main/chain/generated/contracts';
import { PancakeV3Factory, PancakeV3Pool } from '../src-main/chain/generated/vendor';
import { weekOf } from '../src-main/core/referrals/weeks';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

/** The service's and the devnet's clock, moved a week at a time to close weeks. */
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
const WEEK_MS = 7 * 24 * 3600 * 1000;
/** Low enough that referrer 5's share of the week goes over it and carries into the next. */
const CAP = parseEther('0.003');

let service: TestService;
let s: ServiceDrivers;
let token: Address;
let usdtToken: Address;

const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
const R1 = 5;
const R2 = 2; // the token's creator: eligible without registering

beforeAll(async () => {
  service = await startTestService(undefined, { now, lifetimeWeeklyCapWei: CAP });
  s = await serviceDrivers(service);
  const launched = await s.launcher.launch({ creator: R2, saltSeed: 'lifetime' });
  if (launched.result !== 'ok') throw new Error(`launch failed: ${launched.result}`);
  token = launched.token;
  const usdtLaunch = await s.launcher.launch({
    creator: R2,
    saltSeed: 'lifetime-usdt',
    pair: s.contracts.usdt as Address,
    openingTick: -150000,
  });
  if (usdtLaunch.result !== 'ok') throw new Error(`launch failed: ${usdtLaunch.result}`);
  usdtToken = usdtLaunch.token;
});
afterAll(async () => {
  await service?.dispose();
});

async function head(): Promise<bigint> {
  return s.api.client.getBlockNumber({ cacheTime: 0 });
}

async function buy(wallet: number, amount: string, referrer: number | null, of = token) {
  const body = {
    wallet: account(wallet).address,
    token: of,
    amount,
    referrer: referrer === null ? null : account(referrer).address,
  };
  let built = await s.api.post('/build/buy', body);
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  if (built.body.requires.length > 0) {
    // A USDT buy first approves Permit2 and the router, then is built again with its gas.
    for (const step of built.body.requires) await s.api.signAndSend(wallet, step.tx);
    built = await s.api.post('/build/buy', body);
  }
  return s.api.signAndSend(wallet, built.body.tx);
}

/** Moves the clock a week on and mines a block there, so the week before is over on the chain. */
async function nextWeek(): Promise<void> {
  offsetMs += WEEK_MS;
  await s.api.client.request({ method: 'evm_mine' } as never);
  await service.indexer.waitFor(await head());
}

/**
 * Waits for the operator's root of `week` on the vault, checks it is not claimable yet (the vault's hour of
 * correction), then moves the clock past that hour.
 */
async function pastCorrectionWindow(week: number, recordOf: (who: number) => Promise<any>, who: number): Promise<void> {
  const vault = s.contracts.referrals as Address;
  await vi.waitFor(
    async () => {
      const root = await s.api.client.readContract({
        address: vault,
        abi: ReferralVault.abi,
        functionName: 'roots',
        args: [BigInt(week)],
      });
      expect(root).not.toBe(zeroHash);
      await service.indexer.waitFor(await head());
    },
    { timeout: 15_000, interval: 100 },
  );
  const posted = (await recordOf(who)).lifetime.claimableWeeks.find((w: { week: number }) => w.week === week);
  expect(posted?.claimable).toBe(false);
  offsetMs += 3_601_000;
  await s.api.client.request({ method: 'evm_mine' } as never);
  await service.indexer.waitFor(await head());
}

it('pays each referrer its share of the income from bound wallets, capped, with the rest carried, claimed exactly once', async () => {
  const { nonce, signature } = await (async () => {
    const challenge = await s.api.get(`/referrals/challenge?address=${account(R1).address}`);
    return {
      nonce: challenge.body.nonce,
      signature: await account(R1).signMessage({ message: challenge.body.message }),
    };
  })();
  expect((await s.api.post('/referrals/register', { nonce, signature })).status).toBe(200);

  const first = await buy(8, '1', R1); // binds 8 to R1
  await buy(9, '2', R2); // binds 9 to R2
  await buy(8, '0.5', null); // bound to R1: income without a cut
  await buy(10, '1', null); // unbound: no share for anyone
  await buy(11, '1', R1); // binds 11 to R1
  await buy(8, '300', null, usdtToken); // bound to R1: USDT income, valued in BNB at its block
  const week = weekOf(Number((await s.api.client.getBlock({ blockNumber: first.blockNumber })).timestamp));

  // What the weeks must pay, from the chain alone: each bound wallet's trades after its binding, fee less cut.
  const router = s.contracts.router as Address;
  const bound = await s.api.client.getLogs({
    address: router,
    event: getAbiItem({ abi: TradeRouter.abi, name: 'Bound' }),
    fromBlock: 0n,
  });
  const trades = await s.api.client.getLogs({
    address: router,
    event: getAbiItem({ abi: TradeRouter.abi, name: 'Trade' }),
    fromBlock: 0n,
  });
  const bindingOf = new Map(bound.map((log) => [log.args.wallet as Address, log]));
  const dollarPool = await s.api.client.readContract({
    address: s.contracts.pancakeFactory as Address,
    abi: PancakeV3Factory.abi,
    functionName: 'getPool',
    args: [s.contracts.wbnb as Address, s.contracts.usdt as Address, 500],
  });
  /** BNB wei worth `usdtWei` at the WBNB/USDT pool's price in `block`. */
  const inBnb = async (usdtWei: bigint, block: bigint) => {
    const [sqrtPriceX96] = await s.api.client.readContract({
      address: dollarPool,
      abi: PancakeV3Pool.abi,
      functionName: 'slot0',
      blockNumber: block,
    });
    const priceX192 = sqrtPriceX96 * sqrtPriceX96;
    const wbnbFirst = BigInt(s.contracts.wbnb as Address) < BigInt(s.contracts.usdt as Address);
    const [usdPer, bnbPer] = wbnbFirst ? [priceX192, 1n << 192n] : [1n << 192n, priceX192];
    return (usdtWei * bnbPer) / usdPer;
  };
  const income = new Map<Address, bigint>();
  let usdtTrades = 0;
  for (const trade of trades) {
    const binding = bindingOf.get(trade.args.wallet as Address);
    if (!binding) continue;
    const after =
      trade.blockNumber > binding.blockNumber ||
      (trade.blockNumber === binding.blockNumber && trade.logIndex > binding.logIndex);
    if (!after) continue;
    const referrer = binding.args.referrer as Address;
    let net = (trade.args.siteFee ?? 0n) - (trade.args.referrerCut ?? 0n);
    if (trade.args.pair === s.contracts.usdt) {
      net = await inBnb(net, trade.blockNumber);
      usdtTrades++;
    }
    income.set(referrer, (income.get(referrer) ?? 0n) + net);
  }
  expect(usdtTrades).toBe(1);
  const owed = (who: number) => ((income.get(account(who).address) ?? 0n) * 1500n) / 10_000n;
  expect(owed(R1)).toBeGreaterThan(CAP);
  expect(owed(R2)).toBeGreaterThan(0n);
  expect(owed(R2)).toBeLessThan(CAP);

  // From here on the service cannot read the chain's past state, like a BSC node that is not an archive: the prices
  // its income is valued at were kept when the trades were indexed.
  const client = service.chain.client;
  const readContract = client.readContract.bind(client);
  const archive = vi
    .spyOn(client, 'readContract')
    .mockImplementation(((args: { blockNumber?: bigint }) =>
      args.blockNumber === undefined
        ? readContract(args as never)
        : Promise.reject(new Error('missing trie node: not an archive node'))) as never);

  // The week ends: it is closed, its root posted with the funds, and each referrer's part becomes claimable.
  await nextWeek();
  const recordOf = async (who: number) => (await s.api.get(`/referrals/${account(who).address}`)).body;
  await pastCorrectionWindow(week, recordOf, R1);
  await vi.waitFor(
    async () => {
      expect((await recordOf(R1)).lifetime.claimableWeeks[0]?.claimable).toBe(true);
    },
    { timeout: 15_000, interval: 100 },
  );
  expect((await s.api.get('/status')).body.referralWeeks).toEqual({ lastClosedWeek: week, awaitingOperator: [] });
  const r1 = await recordOf(R1);
  const r2 = await recordOf(R2);
  expect(r1.lifetime).toMatchObject({
    referred: 2,
    weeklyCapWei: CAP.toString(),
    backlog: { owedWei: (owed(R1) - CAP).toString(), sinceWeek: week, lastAddedWeek: week },
    claimableWeeks: [{ week, amount: CAP.toString(), paid: false, claimable: true }],
  });
  expect(r2.lifetime).toMatchObject({
    referred: 1,
    backlog: null,
    claimableWeeks: [{ week, amount: owed(R2).toString(), paid: false, claimable: true }],
  });
  // The root on the vault is the tree of exactly these amounts, funded with their sum.
  const tree = StandardMerkleTree.of(
    [
      [week.toString(), account(R1).address, CAP.toString()],
      [week.toString(), account(R2).address, owed(R2).toString()],
    ],
    ['uint256', 'address', 'uint256'],
  );
  const vault = s.contracts.referrals as Address;
  const read = (functionName: 'roots' | 'totals') =>
    s.api.client.readContract({ address: vault, abi: ReferralVault.abi, functionName, args: [BigInt(week)] });
  expect(await read('roots')).toBe(tree.root);
  expect(await read('totals')).toBe(CAP + owed(R2));

  // R1 claims: the vault pays exactly the week's amount.
  const claim = await s.api.post('/build/claim', { wallet: account(R1).address });
  expect(claim.status, JSON.stringify(claim.body)).toBe(200);
  expect(claim.body).toMatchObject({ referrer: account(R1).address, weeks: [{ week, amount: CAP.toString() }] });
  const before = await s.api.client.getBalance({ address: account(R1).address });
  const receipt = await s.api.signAndSend(R1, claim.body.tx);
  const after = await s.api.client.getBalance({ address: account(R1).address });
  expect(after - before).toBe(CAP - receipt.gasUsed * receipt.effectiveGasPrice);

  // The same week cannot be claimed twice: the builder has nothing left, and the vault refuses the same call.
  await service.indexer.waitFor(await head());
  const again = await s.api.post('/build/claim', { wallet: account(R1).address });
  expect(again.status).toBe(400);
  expect(again.body.error.code).toBe('REFERRAL_ERROR');
  await expect(
    s.api.client.call({ account: account(R1).address, to: claim.body.tx.to, data: claim.body.tx.data }),
  ).rejects.toThrow();
  expect((await recordOf(R1)).lifetime).toMatchObject({
    allTimePaidWei: CAP.toString(),
    claimableWeeks: [{ week, paid: true, claimable: false }],
  });

  // The next week carries R1's backlog, now under the cap, and pays it.
  await nextWeek();
  await pastCorrectionWindow(week + 1, recordOf, R1);
  await vi.waitFor(
    async () => {
      expect((await recordOf(R1)).lifetime.claimableWeeks[1]?.claimable).toBe(true);
    },
    { timeout: 15_000, interval: 100 },
  );
  const carried = await recordOf(R1);
  expect(carried.lifetime.backlog).toBeNull();
  expect(carried.lifetime.claimableWeeks[1]).toMatchObject({ week: week + 1, amount: (owed(R1) - CAP).toString() });
  expect((await recordOf(R1)).instant.earnings.all.usd).toBeGreaterThan(0);
  archive.mockRestore();
});
