import { type Address, type Hex, zeroHash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RehearsalNode, RpcWallet, rehearsalNode } from '../../scripts/rehearsal/rpcWallet';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { ReferralVault } from '../../src-main/chain/generated/contracts';
import { weekOf, weekStart } from '../../src-main/core/referrals/weeks';
import { PERSON_OPTIONS, type RehearsalPerson, rehearsalPerson, until, uploadLogo } from '../support/rehearsalPerson';
import { startTestService, type TestService } from '../support/startTestService';

/**
 * Rehearsals that move the chain's clock, at BSC's cadence (a block every 750 ms): a buy after eight days, a Permit2
 * approval expiring, and a referral week closed, posted and claimed, each through the app's own builds and sender.
 */
const DAY = 86_400;
let service: TestService;
let node: RehearsalNode;
let person: RehearsalPerson;
let token: Address;

const status = async () => (await fetch(`${service.url}/status`)).json() as Promise<any>;
const chainClock = async () => (await status()).chain.devnet.clock as number;
const headTime = async () => Number((await node.client.getBlock({ blockTag: 'latest' })).timestamp);
/** Moves the chain's clock and waits for a block made after the jump. */
async function jump(seconds: number): Promise<void> {
  const before = await headTime();
  await node.call('evm_increaseTime', [seconds]);
  await until('a block after the jump', async () => ((await headTime()) >= before + seconds ? true : undefined));
}

beforeAll(async () => {
  service = await startTestService(undefined, { ...PERSON_OPTIONS, blockTimeMs: 750, rateLimits: false });
  node = await rehearsalNode(`${service.origin}/rpc`);
  person = await rehearsalPerson(service, 7);
  const image = await uploadLogo(service);
  const launched = await person.buildAndSend(
    '/build/launch',
    { name: 'Clockwork', symbol: 'TICK', marketCapPair: '30', image, firstBuy: '0.5' },
    'launch',
  );
  expect(launched.main.settled.status).toBe('confirmed');
  token = launched.build.token;
});
afterAll(async () => {
  await service?.dispose();
});

describe('time travel at --block-time 750', () => {
  it('quotes, builds and lands a buy after an 8-day jump, its deadline on the chain clock', async () => {
    await jump(8 * DAY);
    const quote = await person.api('GET', `/quote?token=${token}&side=buy&amount=0.2`);
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const clock = await chainClock();
    expect(clock).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 8 * DAY - 5);
    const bought = await person.buildAndSend('/build/buy', { token, amount: '0.2' }, 'buy');
    const expiresAt = Date.parse(bought.build.expiresAt) / 1000;
    // Twenty minutes on the chain's clock, not on the wall clock it is eight days ahead of.
    expect(expiresAt).toBeGreaterThanOrEqual(clock + 1200 - 5);
    expect(bought.main.settled.status).toBe('confirmed');
    const receipt = await node.client.getTransactionReceipt({ hash: bought.main.hash });
    const block = await node.client.getBlock({ blockNumber: receipt.blockNumber });
    expect(Number(block.timestamp)).toBeLessThanOrEqual(expiresAt);
  });

  it('asks for the router approval again once the Permit2 approval expired on the chain clock, and then sells', async () => {
    const first = await person.buildAndSend('/build/sell', { token, amount: '1000' }, 'sell');
    expect(first.steps.map((s) => s.settled.status)).toEqual(first.steps.map(() => 'confirmed'));
    expect(first.main.settled.status).toBe('confirmed');
    const again = await person.api('POST', '/build/sell', { wallet: person.address, token, amount: '1000' });
    expect(again.body.requires).toEqual([]);

    await jump(31 * DAY);
    const expired = await person.api('POST', '/build/sell', { wallet: person.address, token, amount: '1000' });
    expect(expired.status).toBe(200);
    expect(expired.body.requires.map((s: { step: string }) => s.step)).toEqual(['approve-router']);
    // The new approval runs 30 days from the chain's clock, so it is not expired at once.
    expect(expired.body.requires[0].explain).toContain(
      new Date(((await chainClock()) + 30 * DAY) * 1000).toISOString().slice(0, 10),
    );
    const sold = await person.buildAndSend('/build/sell', { token, amount: '1000' }, 'sell');
    expect(sold.steps.map((s) => s.settled.status)).toEqual(['confirmed']);
    expect(sold.main.settled.status).toBe('confirmed');
  });

  it('closes a referral week when the chain clock passes it; the operator posts it and the referrer claims', async () => {
    const referrer = privateKeyToAccount(testAccounts()[5]?.privateKey as Hex);
    const challenge = await person.api('GET', `/referrals/challenge?address=${referrer.address}`);
    const signature = await referrer.signMessage({ message: challenge.body.message });
    expect((await person.api('POST', '/referrals/register', { nonce: challenge.body.nonce, signature })).status).toBe(
      200,
    );
    const bought = await person.buildAndSend('/build/buy', { token, amount: '1', referrer: referrer.address }, 'buy');
    expect(bought.main.settled.status).toBe('confirmed');
    const trade = await node.client.getTransactionReceipt({ hash: bought.main.hash });
    const week = weekOf(Number((await node.client.getBlock({ blockNumber: trade.blockNumber })).timestamp));

    // Past the end of that week on the chain's clock: the week closes, the devnet's operator posts its root.
    await jump(weekStart(week + 1) - (await headTime()) + 60);
    // Posted, it is not claimable for an hour (the vault's window for correcting it), then it is.
    const vault = (await person.api('GET', '/settings')).body.contracts.referrals as Address;
    const posted = await until(`week ${week} posted`, async () => {
      const answer = await person.api('GET', `/referrals/${referrer.address}`);
      const posted = answer.body.lifetime.claimableWeeks.find((w: { week: number }) => w.week === week);
      const root = await node.client.readContract({
        address: vault,
        abi: ReferralVault.abi,
        functionName: 'roots',
        args: [BigInt(week)],
      });
      return posted && root !== zeroHash ? posted : undefined;
    });
    expect(posted.claimable).toBe(false);
    await jump(3601);
    const record = await until(
      `week ${week} claimable`,
      async () => {
        const answer = await person.api('GET', `/referrals/${referrer.address}`);
        const closed = answer.body.lifetime.claimableWeeks.find((w: { week: number }) => w.week === week);
        return closed?.claimable ? answer.body : undefined;
      },
      60_000,
    );
    const owed = BigInt(
      record.lifetime.claimableWeeks.find((w: { week: number }) => w.week === week)?.amount as string,
    );
    expect(owed).toBeGreaterThan(0n);

    const claim = await person.api('POST', '/build/claim', { wallet: referrer.address });
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    const wallet = new RpcWallet(node, testAccounts()[5]?.privateKey as Hex);
    const before = await node.client.getBalance({ address: referrer.address });
    const receipt = await wallet.sendAndWait({
      to: claim.body.tx.to,
      data: claim.body.tx.data,
      value: BigInt(claim.body.tx.value),
      gas: BigInt(claim.body.tx.gas),
    });
    expect(receipt.status).toBe('success');
    const after = await node.client.getBalance({ address: referrer.address });
    expect(after - before + wallet.gasSpentWei).toBe(owed);
    await until('the week shown as paid', async () => {
      const answer = await person.api('GET', `/referrals/${referrer.address}`);
      const paid = answer.body.lifetime.claimableWeeks.find((w: { week: number }) => w.week === week)?.paid;
      return paid ? true : undefined;
    });
  });
});

describe('time travel with a block per transaction (the default)', () => {
  it('builds on the moved clock before any block was made after the jump, and the buy lands', async () => {
    const instant = await startTestService(undefined, { ...PERSON_OPTIONS, rateLimits: false });
    try {
      const rpc = await rehearsalNode(`${instant.origin}/rpc`);
      const someone = await rehearsalPerson(instant, 8);
      const image = await uploadLogo(instant);
      const launched = await someone.buildAndSend(
        '/build/launch',
        { name: 'Instant', symbol: 'INST', marketCapPair: '30', image },
        'launch',
      );
      expect(launched.main.settled.status).toBe('confirmed');
      const before = Number((await rpc.client.getBlock()).timestamp);
      await rpc.call('evm_increaseTime', [3 * DAY]);
      // No block yet: the latest block is from before the jump, but the next one is made three days on.
      expect(Number((await rpc.client.getBlock()).timestamp)).toBe(before);
      const bought = await someone.buildAndSend('/build/buy', { token: launched.build.token, amount: '0.1' }, 'buy');
      expect(Date.parse(bought.build.expiresAt) / 1000).toBeGreaterThanOrEqual(before + 3 * DAY + 1200);
      expect(bought.main.settled.status).toBe('confirmed');
    } finally {
      await instant.dispose();
    }
  });
});
