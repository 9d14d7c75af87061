import { type Address, encodeFunctionData, parseEventLogs, type TransactionReceipt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { LaunchFactory } from '../src-main/chain/generated/contracts';
import { type ApiClient, apiClient } from './support/apiClient';
import { type CreatorLaunchFixture, DEAD, launchAndTrade } from './support/creatorLaunch';
import { startTestService, type TestService } from './support/startTestService';

/*
 * Issue 31, the creator's side: GET /wallets/{address}/launches and POST /build/collect through the real server on
 * the devnet. A launch with a split first buy and half its royalty burned, traded both ways by another wallet; the
 * dashboard's uncollected fees must be what the collect then takes, and the collect's outcome what the chain did.
 */

const CREATOR = 11;
const SHARER = 12;
const TRADER = 13;
/** Anyone may collect: a wallet that is neither the creator nor the royalty recipient sends it. */
const COLLECTOR = 14;
const address = (index: number) => testAccounts()[index]?.address as Address;

let service: TestService;
let api: ApiClient;
let factory: Address;
let token: Address;
let launchReceipt: TransactionReceipt;
let balanceOf: CreatorLaunchFixture['balanceOf'];
let pending: CreatorLaunchFixture['pending'];
let send: CreatorLaunchFixture['send'];

beforeAll(async () => {
  service = await startTestService();
  api = apiClient(service);
  ({ factory, token, launchReceipt, balanceOf, pending, send } = await launchAndTrade(service, api, {
    creator: CREATOR,
    sharer: SHARER,
    trader: TRADER,
  }));
});
afterAll(async () => {
  await service?.dispose();
});

describe('GET /wallets/{address}/launches and POST /build/collect', () => {
  it('collects as the build said, and the dashboard before and after equals the chain to the wei', async () => {
    const before = await api.get(`/wallets/${address(CREATOR)}/launches`);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.launches).toHaveLength(1);
    const [shown] = before.body.launches;
    expect(shown.token).toMatchObject({ address: token, symbol: 'RCAT', pair: { symbol: 'BNB' } });
    expect(shown.royalty).toEqual({ recipient: address(CREATOR), burnBps: 5000 });
    expect(shown.fees.pair.collected.wei).toBe('0');
    expect(BigInt(shown.fees.pair.uncollected.wei) > 0n).toBe(true);
    expect(BigInt(shown.fees.token.uncollected.wei) > 0n).toBe(true);
    expect(shown.fees.pair.uncollected.usd).not.toBeNull();
    expect(shown.royaltyPaid.pair.wei).toBe('0');
    expect(shown.burned.wei).toBe('0');
    // The first buy's split, from the launch receipt, and what each holds now.
    const block = BigInt(before.body.block);
    expect(shown.firstBuy.map((h: { wallet: Address }) => h.wallet)).toEqual([address(CREATOR), address(SHARER)]);
    for (const holder of shown.firstBuy) {
      expect(holder.balance.wei).toBe((await balanceOf(holder.wallet, block)).toString());
    }
    const received = shown.firstBuy.map((h: { received: { wei: string } }) => BigInt(h.received.wei));
    const [firstBuy] = parseEventLogs({ abi: LaunchFactory.abi, logs: launchReceipt.logs, eventName: 'FirstBuy' });
    expect(received[0] + received[1]).toBe(firstBuy?.args.tokens);
    expect(received[0]).toBe(((firstBuy?.args.tokens ?? 0n) * 7000n) / 10_000n);

    const built = await api.post('/build/collect', { wallet: address(COLLECTOR), token });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const { outcome } = built.body;
    expect(built.body.tx).toMatchObject({ chainId: 31337, to: factory, value: '0' });
    expect(built.body.simulation).toEqual({ ran: true, ok: true });
    expect(built.body.recipient).toBe(address(CREATOR));
    expect(outcome.simulated).toBe(true);
    expect(outcome.pairFees.wei).toBe(shown.fees.pair.uncollected.wei);
    expect(outcome.tokenFees.wei).toBe(shown.fees.token.uncollected.wei);
    expect(built.body.explain).toContain(address(CREATOR));
    expect(built.body.explain).toContain('bought back and burned');
    expect(built.body.explain).toContain('You pay only the network fee');

    const creatorBnb = await api.client.getBalance({ address: address(CREATOR) });
    const creatorTokens = await balanceOf(address(CREATOR));
    const deadTokens = await balanceOf(DEAD);
    const receipt = await send(COLLECTOR, built.body.tx);
    const [event] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'Collected' });
    if (!event) throw new Error('the collect emitted no Collected event');
    const { args } = event;
    // The dashboard's uncollected fees were exactly what the pool handed over.
    expect(args.pairFees.toString()).toBe(shown.fees.pair.uncollected.wei);
    expect(args.tokenFees.toString()).toBe(shown.fees.token.uncollected.wei);
    // The build's outcome is what the chain did.
    expect(outcome.royalty.pair.wei).toBe(args.pairToRoyalty.toString());
    expect(outcome.royalty.tokens.wei).toBe(args.tokenToRoyalty.toString());
    expect(outcome.burned.wei).toBe(args.tokensBurned.toString());
    expect(outcome.buyback.pendingAfter.wei).toBe(args.buybackPending.toString());
    expect(args.pairToRoyalty).toBe(args.pairFees - (args.pairFees * 5000n) / 10_000n);
    // And the balances moved by exactly that.
    expect((await api.client.getBalance({ address: address(CREATOR) })) - creatorBnb).toBe(args.pairToRoyalty);
    expect((await balanceOf(address(CREATOR))) - creatorTokens).toBe(args.tokenToRoyalty);
    expect((await balanceOf(DEAD)) - deadTokens).toBe(args.tokensBurned);
    expect(await pending()).toBe(args.buybackPending);
    expect(args.tokensBurned > (args.tokenFees * 5000n) / 10_000n).toBe(true);

    const after = await api.get(`/wallets/${address(CREATOR)}/launches`);
    const [now] = after.body.launches;
    expect(now.fees.pair.collected.wei).toBe(args.pairFees.toString());
    expect(now.fees.token.collected.wei).toBe(args.tokenFees.toString());
    // The buy-back's own swap paid the pool's fee into the positions: what a second collect would take now.
    const again = await api.post('/build/collect', { wallet: address(COLLECTOR), token });
    expect(now.fees.pair.uncollected.wei).toBe(again.body.outcome.pairFees.wei);
    expect(now.fees.token.uncollected.wei).toBe(again.body.outcome.tokenFees.wei);
    expect(BigInt(now.fees.pair.total.wei)).toBe(args.pairFees + BigInt(again.body.outcome.pairFees.wei));
    expect(now.royaltyPaid.pair.wei).toBe(args.pairToRoyalty.toString());
    expect(now.royaltyPaid.tokens.wei).toBe(args.tokenToRoyalty.toString());
    expect(now.burned.wei).toBe(args.tokensBurned.toString());
    expect(now.buybackPending.wei).toBe((await pending()).toString());
    const creatorNow = now.firstBuy.find((h: { wallet: Address }) => h.wallet === address(CREATOR));
    expect(creatorNow.balance.wei).toBe((await balanceOf(address(CREATOR), BigInt(after.body.block))).toString());
  });

  it('refuses hostile bodies and tokens not launched here with the spec codes', async () => {
    const usdt = (await api.get('/settings')).body.contracts.usdt as Address;
    const cases: [unknown, string, string | undefined][] = [
      [{ wallet: 'not-an-address', token }, 'INVALID_ADDRESS', 'wallet'],
      [{ wallet: address(COLLECTOR), token: '0x1234' }, 'INVALID_ADDRESS', 'token'],
      [{ wallet: address(COLLECTOR) }, 'INVALID_ADDRESS', 'token'],
      [{ wallet: address(COLLECTOR), token, amount: '1' }, 'INVALID_BODY', 'amount'],
      [{ wallet: address(COLLECTOR), token: usdt }, 'UNKNOWN_TOKEN', 'token'],
      [{ wallet: address(COLLECTOR), token: address(SHARER) }, 'UNKNOWN_TOKEN', 'token'],
      [[token], 'INVALID_BODY', undefined],
    ];
    for (const [body, code, field] of cases) {
      const answer = await api.post('/build/collect', body);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      expect(answer.body.error, JSON.stringify(body)).toMatchObject({ code, ...(field ? { field } : {}) });
      expect(answer.body.error.fix, JSON.stringify(body)).toBeTruthy();
    }
    const bad = await api.get('/wallets/0xnope/launches');
    expect(bad.body.error).toMatchObject({ code: 'INVALID_ADDRESS' });
    const none = await api.get(`/wallets/${address(TRADER)}/launches`);
    expect(none.status).toBe(200);
    expect(none.body.launches).toEqual([]);
  });

  it('decodes the collect it builds as a collect of the factory', async () => {
    const built = await api.post('/build/collect', { wallet: address(CREATOR), token });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body.tx.data).toBe(
      encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'collect', args: [token] }),
    );
    // The recipient sending it themselves is told so, without the note for a stranger.
    expect(built.body.explain).toContain(`you (${address(CREATOR)})`);
    expect(built.body.explain).not.toContain('You pay only the network fee');
  });
});
