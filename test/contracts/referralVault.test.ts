import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  type Hex,
  type PublicClient,
  parseEther,
  parseEventLogs,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { ReferralVault } from '../../src-main/chain/generated/contracts';
import { devnetChain } from '../../src-main/chain/networks';
import { type DevnetTestClient, devnetTestClient } from '../support/devnetTestClient';
import { revertName } from '../support/revertName';

let devnet: Devnet;
let client: PublicClient;
let vault: Address;
let testClient: DevnetTestClient;
let snapshot: Hex | undefined;

const account = (index: number) => privateKeyToAccount(devnet.accounts[index]?.privateKey ?? '0x');
const wallet = (index: number) =>
  createWalletClient({ account: account(index), chain: devnetChain, transport: custom(devnet.provider) });

type Leaf = [bigint, Address, bigint];
const LEAF_TYPES = ['uint256', 'address', 'uint256'];

/** A week's tree as the service's weekly job builds it, with OpenZeppelin's library. */
function weekTree(week: bigint, earnings: [Address, bigint][]) {
  const leaves: Leaf[] = earnings.map(([referrer, amount]) => [week, referrer, amount]);
  const tree = StandardMerkleTree.of(leaves, LEAF_TYPES);
  const total = earnings.reduce((sum, [, amount]) => sum + amount, 0n);
  const claimFor = (referrer: Address) => {
    for (const [i, leaf] of tree.entries()) {
      if (leaf[1] === referrer) return { week, amount: leaf[2], proof: tree.getProof(i) as Hex[] };
    }
    throw new Error(`${referrer} has no leaf in week ${week}`);
  };
  return { root: tree.root as Hex, total, claimFor };
}

async function send(
  index: number,
  functionName: 'postRoot' | 'claim' | 'replaceRoot',
  args: readonly unknown[],
  value = 0n,
) {
  return revertName(
    (async () => {
      const { request } = await client.simulateContract({
        account: account(index),
        address: vault,
        abi: ReferralVault.abi,
        functionName,
        args,
        value,
      } as never);
      const hash = await wallet(index).writeContract(request as never);
      const receipt = await client.getTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error('reverted on chain');
      return receipt;
    })(),
  );
}

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  testClient = devnetTestClient(devnet);
  vault = devnet.contracts.referrals;
});
beforeEach(async () => {
  if (snapshot) await testClient.revert({ id: snapshot });
  snapshot = await testClient.snapshot();
});

/** Moves the clock past a posted week's hour of correction, so its claims open. */
async function openClaims() {
  await testClient.increaseTime({ seconds: 3601 });
  await testClient.mine({ blocks: 1 });
}

describe('ReferralVault', () => {
  const alice = () => account(11).address;
  const bob = () => account(12).address;

  it('lets the owner correct a week within its hour, funding or refunding the difference, before any claim opens', async () => {
    const wrong = weekTree(3n, [[alice(), parseEther('1')]]);
    const right = weekTree(3n, [
      [alice(), parseEther('0.4')],
      [bob(), parseEther('0.8')],
    ]);
    expect(await send(0, 'postRoot', [3n, wrong.root, wrong.total], wrong.total)).toBe('ok');
    // Within the hour, claims wait: nothing can be paid that a correction would then overtake.
    expect(await send(9, 'claim', [alice(), [wrong.claimFor(alice())]])).toBe('WeekNotOpen');
    expect(await send(5, 'replaceRoot', [3n, right.root, right.total], parseEther('0.2'))).toBe('NotOwner');
    expect(await send(0, 'replaceRoot', [4n, right.root, right.total], right.total)).toBe('InvalidWeek');
    expect(await send(0, 'replaceRoot', [3n, right.root, right.total], parseEther('0.1'))).toBe('WrongFunding');
    expect(await send(0, 'replaceRoot', [3n, right.root, right.total], parseEther('0.2'))).toBe('ok');
    await openClaims();
    // The old proof no longer pays; the new ones do, and the week is funded for exactly its new total.
    expect(await send(9, 'claim', [alice(), [wrong.claimFor(alice())]])).toBe('InvalidProof');
    expect(await send(9, 'claim', [alice(), [right.claimFor(alice())]])).toBe('ok');
    expect(await send(9, 'claim', [bob(), [right.claimFor(bob())]])).toBe('ok');
    expect(await client.getBalance({ address: vault })).toBe(0n);
  });

  it('never lets the owner overtake a claim: once claims open, the root is final', async () => {
    const week = weekTree(4n, [
      [alice(), parseEther('0.5')],
      [bob(), parseEther('0.5')],
    ]);
    const owners = weekTree(4n, [[account(0).address, parseEther('0.01')]]);
    expect(await send(0, 'postRoot', [4n, week.root, week.total], week.total)).toBe('ok');
    await openClaims();
    // Alice's claim waits in the mempool; the owner sees it and sends a replacement ahead of it (mined first here),
    // one that would take the week back. It is refused, and the claim pays in full.
    expect(await send(0, 'replaceRoot', [4n, owners.root, owners.total], 0n)).toBe('WeekFinal');
    const before = await client.getBalance({ address: alice() });
    expect(await send(9, 'claim', [alice(), [week.claimFor(alice())]])).toBe('ok');
    expect((await client.getBalance({ address: alice() })) - before).toBe(parseEther('0.5'));
    expect(await send(0, 'replaceRoot', [4n, owners.root, parseEther('2')], parseEther('1'))).toBe('WeekFinal');
  });

  it('returns the difference to the owner when a corrected week owes less', async () => {
    const wrong = weekTree(5n, [[alice(), parseEther('2')]]);
    const right = weekTree(5n, [[alice(), parseEther('0.5')]]);
    expect(await send(0, 'postRoot', [5n, wrong.root, wrong.total], wrong.total)).toBe('ok');
    const owner = account(0).address;
    const before = await client.getBalance({ address: owner });
    const hash = await wallet(0).writeContract({
      address: vault,
      abi: ReferralVault.abi,
      functionName: 'replaceRoot',
      args: [5n, right.root, right.total],
    });
    const receipt = await client.getTransactionReceipt({ hash });
    const gas = receipt.gasUsed * receipt.effectiveGasPrice;
    expect((await client.getBalance({ address: owner })) - before + gas).toBe(parseEther('1.5'));
    expect(await client.getBalance({ address: vault })).toBe(parseEther('0.5'));
  });

  it('pays a referrer several weeks in one claim, exactly, and each week only once', async () => {
    const week1 = weekTree(1n, [
      [alice(), parseEther('0.3')],
      [bob(), parseEther('0.2')],
    ]);
    const week2 = weekTree(2n, [
      [alice(), parseEther('0.05')],
      [bob(), parseEther('1')],
    ]);
    expect(await send(0, 'postRoot', [1n, week1.root, week1.total], week1.total)).toBe('ok');
    expect(await send(0, 'postRoot', [2n, week2.root, week2.total], week2.total)).toBe('ok');
    await openClaims();
    const before = await client.getBalance({ address: alice() });
    // Anyone may send the claim; the BNB goes to the referrer.
    const hash = await wallet(15).writeContract({
      address: vault,
      abi: ReferralVault.abi,
      functionName: 'claim',
      args: [alice(), [week1.claimFor(alice()), week2.claimFor(alice())]],
    });
    const receipt = await client.getTransactionReceipt({ hash });
    expect((await client.getBalance({ address: alice() })) - before).toBe(parseEther('0.35'));
    const events = parseEventLogs({ abi: ReferralVault.abi, logs: receipt.logs, eventName: 'Claimed' });
    expect(events.map((e) => [e.args.week, e.args.amount])).toEqual([
      [1n, parseEther('0.3')],
      [2n, parseEther('0.05')],
    ]);
    expect(await send(15, 'claim', [alice(), [week1.claimFor(alice())]])).toBe('AlreadyClaimed');
    expect(await client.getBalance({ address: vault })).toBe(parseEther('1.2'));
    expect(await send(15, 'claim', [bob(), [week1.claimFor(bob()), week2.claimFor(bob())]])).toBe('ok');
    expect(await client.getBalance({ address: vault })).toBe(0n);
  });

  it('refuses a bad proof, a changed amount, another referrer and an unknown week', async () => {
    const week = weekTree(7n, [
      [alice(), parseEther('0.3')],
      [bob(), parseEther('0.2')],
    ]);
    await send(0, 'postRoot', [7n, week.root, week.total], week.total);
    await openClaims();
    const claim = week.claimFor(alice());
    expect(await send(15, 'claim', [alice(), [{ ...claim, amount: claim.amount + 1n }]])).toBe('InvalidProof');
    expect(await send(15, 'claim', [alice(), [{ ...claim, proof: [] }]])).toBe('InvalidProof');
    expect(await send(15, 'claim', [bob(), [claim]])).toBe('InvalidProof');
    expect(await send(15, 'claim', [alice(), [{ ...claim, week: 8n }]])).toBe('UnknownWeek');
    expect(await send(15, 'claim', [alice(), []])).toBe('InvalidClaimCount');
  });

  it('lets only the owner post, once per week, funded with exactly the total', async () => {
    const week = weekTree(3n, [[alice(), parseEther('1')]]);
    expect(await send(5, 'postRoot', [3n, week.root, week.total], week.total)).toBe('NotOwner');
    expect(await send(0, 'postRoot', [3n, week.root, week.total], week.total - 1n)).toBe('WrongFunding');
    expect(await send(0, 'postRoot', [3n, `0x${'00'.repeat(32)}`, 0n], 0n)).toBe('InvalidWeek');
    expect(await send(0, 'postRoot', [3n, week.root, week.total], week.total)).toBe('ok');
    expect(await send(0, 'postRoot', [3n, week.root, week.total], week.total)).toBe('InvalidWeek');
  });

  it('fails a claim, paying nothing and marking nothing, when the referrer cannot take BNB', async () => {
    const contract = devnet.contracts.config;
    const week = weekTree(5n, [[contract, parseEther('1')]]);
    await send(0, 'postRoot', [5n, week.root, week.total], week.total);
    await openClaims();
    expect(await send(15, 'claim', [contract, [week.claimFor(contract)]])).toBe('BnbTransferFailed');
    expect(
      await client.readContract({
        address: vault,
        abi: ReferralVault.abi,
        functionName: 'claimed',
        args: [5n, contract],
      }),
    ).toBe(false);
  });

  it('never pays a week more than it was funded with', async () => {
    // A tree whose leaves add to more than the posted total (an operator's mistake) pays out only up to the total.
    const week = weekTree(4n, [
      [alice(), parseEther('1')],
      [bob(), parseEther('1')],
    ]);
    await send(0, 'postRoot', [4n, week.root, parseEther('1.5')], parseEther('1.5'));
    await openClaims();
    expect(await send(15, 'claim', [alice(), [week.claimFor(alice())]])).toBe('ok');
    expect(await send(15, 'claim', [bob(), [week.claimFor(bob())]])).toBe('WeekOverdrawn');
  });
});
