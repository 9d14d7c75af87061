import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src-shared/appChannelTypes';
import type { Intent } from '../intents';
import { crossingAlert, launchAlert, requestAlert, transactionAlert } from './alertOf';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Address;
const CREATOR = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as Address;
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address;

const intent = (source: Intent['source'], state: Intent['state'] = 'pending'): Intent => ({
  id: 'int_000000000000000000000001',
  kind: 'prepare_buy',
  wallet: WALLET,
  state,
  request: {},
  build: null,
  keyWallet: null,
  source,
  tx: null,
  reason: null,
  createdAt: '2026-12-07T00:00:00.000Z',
  updatedAt: '2026-12-07T00:00:00.000Z',
});

const entry = (change: Partial<ActivityEntry>): ActivityEntry =>
  ({
    id: 'a1',
    title: 'Buy 1,000 OWL',
    message: null,
    hash: '0x01',
    status: 'confirmed',
    error: null,
    ...change,
  }) as ActivityEntry;

describe('what deserves a notification', () => {
  it("a bot's request waiting, named by its key; never the app's own, nor one no longer waiting", () => {
    const at = '2026-12-07T00:00:00.000Z';
    const bot = requestAlert(intent({ kind: 'key', key: { id: 'k1', label: 'sniper', wallet: WALLET }, at }));
    expect(bot).toEqual({
      kind: 'request',
      title: 'A buy request waits for your signature',
      body: 'A bot (key sniper) prepared a buy for 0x7099…79C8. Review it on the Requests page.',
      path: '/requests',
    });
    expect(requestAlert(intent({ kind: 'app', at }))).toBeNull();
    expect(requestAlert(intent({ kind: 'unknown', at }, 'built'))).toBeNull();
  });

  it("a watched creator's launch opens its token; another creator's raises none", () => {
    const launch = { token: TOKEN, symbol: 'OWL', name: 'Night Owl', creator: CREATOR };
    expect(launchAlert(launch, new Set([CREATOR]))).toMatchObject({ kind: 'launch', path: `/token/${TOKEN}` });
    expect(launchAlert(launch, new Set([WALLET]))).toBeNull();
  });

  it('a crossing names the figure and the value now in the rule’s currency', () => {
    const rule = { metric: 'cap', direction: 'below', currency: 'usd', figure: 12_000n * 10n ** 18n } as const;
    expect(crossingAlert({ address: TOKEN, symbol: 'OWL' }, rule, 11_500n * 10n ** 18n)).toEqual({
      kind: 'crossing',
      title: 'OWL market cap fell below $12K',
      body: 'Its market cap is $11.5K now.',
      path: `/token/${TOKEN}`,
    });
  });

  it('a transaction confirmed or failed after it was sent; not one still on its way, a message, or one never sent', () => {
    expect(transactionAlert(entry({}))).toMatchObject({ title: 'Transaction confirmed', path: '/activity' });
    expect(transactionAlert(entry({ status: 'reverted', error: 'the price moved' }))).toMatchObject({
      title: 'Transaction failed',
      body: 'Buy 1,000 OWL: the price moved',
    });
    expect(transactionAlert(entry({ status: 'sent' }))).toBeNull();
    expect(transactionAlert(entry({ message: 'Sign in' }))).toBeNull();
    expect(transactionAlert(entry({ status: 'failed', hash: null }))).toBeNull();
  });
});
