import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Address, erc20Abi, getAddress, parseEther, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { Indexer } from '../src-main/services/indexer/indexer';
import { IndexStore } from '../src-main/store/indexStore';
import { openDatabase } from '../src-main/store/openDatabase';
import { TokenSchema } from '../src-shared/schema/tokens';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';
import { tokenBalance } from './support/tokenBalance';
import { tokenMoves } from './support/tokenMoves';

let service: TestService;
let s: ServiceDrivers;
let transfer: ReturnType<typeof tokenMoves>['transfer'];
let trade: ReturnType<typeof tokenMoves>['trade'];
let launchSplit: ReturnType<typeof tokenMoves>['launchSplit'];
const accounts = testAccounts();
const address = (index: number) => getAddress(accounts[index]?.address ?? zeroAddress);
const DEAD = getAddress('0x000000000000000000000000000000000000dEaD');

beforeAll(async () => {
  service = await startTestService();
  s = await serviceDrivers(service);
  ({ transfer, trade, launchSplit } = tokenMoves(service, s));
});
afterAll(async () => {
  await service?.dispose();
});

/** Waits until the indexer has every event up to the chain's head. */
async function indexed(): Promise<void> {
  await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
}

/** The holders of `token` as a database file's index has them, every one. */
function storedHolders(file: string, token: Address): Map<Address, bigint> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT holder, balance FROM holders WHERE token = ?').all(token) as {
      holder: Address;
      balance: string;
    }[];
    return new Map(rows.map((row) => [row.holder, BigInt(row.balance)]));
  } finally {
    db.close();
  }
}

/**
 * The index's holders of `token` against the chain: each one's balance equals balanceOf, their balances add up to the
 * supply (so no holder is missing), and every address the test moved tokens through that holds some is among them.
 */
async function expectHoldersMatchChain(token: Address, candidates: readonly Address[]): Promise<Map<Address, bigint>> {
  const holders = storedHolders(join(service.dataDir, 'app.sqlite'), token);
  for (const [holder, balance] of holders) {
    expect(balance, holder).toBeGreaterThan(0n);
    expect(balance, holder).toBe(await tokenBalance(s.api.client, token, holder));
  }
  const supply = await s.api.client.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' });
  expect([...holders.values()].reduce((sum, balance) => sum + balance, 0n)).toBe(supply);
  for (const candidate of candidates) {
    const onChain = await tokenBalance(s.api.client, token, candidate);
    expect(holders.get(candidate) ?? 0n, candidate).toBe(onChain);
  }
  return holders;
}

describe('holders of a launched token', () => {
  it('follow launches, trades, transfers and a reorganization exactly as balanceOf says, and GET /tokens shows them', async () => {
    const provider = service.chain.devnet?.provider;
    if (!provider) throw new Error('needs the devnet');
    const { token, pool } = await launchSplit('holders-1', 'HELD', [
      [3, 6000],
      [4, 4000],
    ]);
    await trade(6, 'buyExactIn', token, pool, parseEther('1'));
    await trade(7, 'buyExactIn', token, pool, parseEther('0.5'));
    await trade(6, 'sellExactIn', token, pool, (await tokenBalance(s.api.client, token, address(6))) / 3n);
    await transfer(3, token, address(8), (await tokenBalance(s.api.client, token, address(3))) / 2n);
    await transfer(7, token, DEAD, 10n ** 18n);
    // A whole balance moved: account 4 holds nothing after it and is no holder.
    await transfer(4, token, address(9), await tokenBalance(s.api.client, token, address(4)));
    await indexed();

    const everyone = [...accounts.slice(0, 20).map((_, i) => address(i)), pool, DEAD, s.contracts.factory as Address];
    const before = await expectHoldersMatchChain(token, everyone);
    expect(before.has(address(4))).toBe(false);
    expect(before.has(address(9))).toBe(true);

    // A branch the chain will drop: a transfer to a new holder, a sale that empties one, and a buy.
    const snapshot = await provider.request({ method: 'evm_snapshot', params: [] } as never);
    await transfer(8, token, address(11), 12345n);
    await trade(9, 'sellExactIn', token, pool, await tokenBalance(s.api.client, token, address(9)));
    await trade(12, 'buyExactIn', token, pool, parseEther('0.3'));
    await indexed();
    const orphaned = await expectHoldersMatchChain(token, everyone);
    expect(orphaned.has(address(11))).toBe(true);
    expect(orphaned.has(address(9))).toBe(false);
    expect(orphaned.has(address(12))).toBe(true);
    const reorgs = service.indexer.status().reorgs;

    await provider.request({ method: 'evm_revert', params: [snapshot] } as never);
    await transfer(9, token, address(13), 777n);
    await trade(14, 'buyExactIn', token, pool, parseEther('0.2'));
    await vi.waitFor(
      async () => {
        expect(service.indexer.status().reorgs).toBeGreaterThan(reorgs);
        await indexed();
      },
      { timeout: 15_000, interval: 100 },
    );
    const after = await expectHoldersMatchChain(token, everyone);
    expect(after.has(address(11))).toBe(false);
    expect(after.has(address(12))).toBe(false);
    expect(after.get(address(9))).toBe((before.get(address(9)) ?? 0n) - 777n);
    expect(after.has(address(13))).toBe(true);
    expect(after.has(address(14))).toBe(true);

    // The same holders as an index of the surviving chain made from scratch.
    const dir = mkdtempSync(join(tmpdir(), 'companion-holders-'));
    try {
      const file = join(dir, 'app.sqlite');
      const db = openDatabase(file);
      await new Indexer(service.chain, new IndexStore(db), { confirmations: 0 }).catchUpOnce();
      db.close();
      expect(storedHolders(file, token)).toEqual(after);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // The API's answer: its schema, the count, the top holders largest first with shares and labels.
    const answer = await s.api.get(`/tokens/${token}`);
    expect(answer.status).toBe(200);
    const body = TokenSchema.parse(answer.body);
    const holders = body.holders;
    if (!holders) throw new Error('no holders in the answer');
    expect(holders.count).toBe(after.size);
    expect(holders.block).toBeGreaterThanOrEqual(Number(await s.api.client.getBlockNumber({ cacheTime: 0 })));
    const ranked = [...after].sort(([, a], [, b]) => (a < b ? 1 : a > b ? -1 : 0));
    expect(holders.top.map((h) => h.address)).toEqual(ranked.slice(0, 20).map(([holder]) => holder));
    const supply = await s.api.client.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' });
    for (const holder of holders.top) {
      expect(holder.balance.wei).toBe(after.get(holder.address as Address)?.toString());
      expect(holder.sharePct).toBe(Number((BigInt(holder.balance.wei) * 1_000_000n) / supply) / 10_000);
    }
    const labelsOf = (who: Address) => holders.top.find((h) => h.address === who)?.labels;
    expect(labelsOf(pool)).toEqual(['pool']);
    expect(labelsOf(DEAD)).toEqual(['dead']);
    expect(labelsOf(address(3))).toEqual(['firstBuy']);
    expect(labelsOf(address(9))).toEqual([]);
    expect(labelsOf(address(6))).toEqual([]);
    // Account 4 received a first-buy share but passed it all on: no longer a holder, so not listed.
    expect(labelsOf(address(4))).toBeUndefined();
  });

  it('names the creator as the first-buy recipient of a launch that named none', async () => {
    const launched = await s.launcher.launch({
      creator: 5,
      saltSeed: 'holders-2',
      name: 'Own buy',
      symbol: 'OWN',
      firstBuy: parseEther('1'),
    });
    if (launched.result !== 'ok' || !launched.pool) throw new Error(`launch failed: ${launched.result}`);
    await indexed();
    const body = TokenSchema.parse((await s.api.get(`/tokens/${launched.token}`)).body);
    const labels = body.holders?.top.find((h) => h.address === address(5))?.labels;
    expect(labels).toEqual(['creator', 'firstBuy']);
    // The pool with the laid supply, the creator with the first buy, and the dead address with the supply's residue that
    // bought no liquidity.
    expect(body.holders?.count).toBe(3);
    expect(body.holders?.top.map((h) => h.labels)).toEqual([['pool'], ['creator', 'firstBuy'], ['dead']]);
  });
});
