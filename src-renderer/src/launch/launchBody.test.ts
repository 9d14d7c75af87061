import { describe, expect, it } from 'vitest';
import type { Settings } from '../api/settings';
import { launchBodyOf } from './launchBody';
import { EMPTY_DRAFT, type LaunchDraft } from './launchForm';

const WALLET = '0x00000000000000000000000000000000000000a1';
const settings = {
  pairs: [{ address: '0x00000000000000000000000000000000000000b2', decimals: 18, symbol: 'BNB', native: true }],
  launch: { defaultSupply: '1000000000', defaultFeeTier: 10000 },
} as unknown as Settings;
const ready: LaunchDraft = {
  ...EMPTY_DRAFT,
  image: { status: 'ready', fileName: 'a.png', preview: null, uri: 'ipfs://logo', url: 'http://x/a.png', bytes: 1 },
  name: 'Moon',
  symbol: 'MOON',
  marketCap: '30',
};

describe('launchBodyOf', () => {
  it('lists what an empty draft still needs, in the order of the page', () => {
    const { problems } = launchBodyOf(EMPTY_DRAFT, settings);
    expect(Object.keys(problems)).toEqual(['image', 'name', 'symbol', 'marketCapPair']);
    expect(Object.values(problems).every((p) => p.missing)).toBe(true);
    expect(problems.name).toEqual({ code: 'INVALID_LAUNCH', message: 'The name is needed.', missing: true });
  });

  it('sends a complete draft as the launch body, without problems', () => {
    const { body, problems } = launchBodyOf(ready, settings);
    expect(problems).toEqual({});
    expect(body).toEqual({
      image: 'ipfs://logo',
      name: 'Moon',
      symbol: 'MOON',
      pair: 'BNB',
      marketCapPair: '30',
      supply: '1000000000',
      feeTier: 10000,
      shape: 'flat',
    });
  });

  it('shows the schema’s problems in the wizard’s words, by the field the service would name', () => {
    const { problems } = launchBodyOf(
      {
        ...ready,
        symbol: 'S'.repeat(33),
        firstBuy: '0.1',
        slippagePct: '90',
        splitOn: true,
        split: [
          { wallet: WALLET, pct: '50' },
          { wallet: WALLET, pct: '40' },
        ],
        royalty: 'burn',
        burnPct: '0.5',
      },
      settings,
    );
    expect(problems).toEqual({
      symbol: { code: 'INVALID_LAUNCH', message: 'The symbol is 33 bytes; at most 32 are allowed.' },
      slippagePct: { code: 'INVALID_SLIPPAGE', message: 'Slippage must be from 0.5% to 50%.' },
      'firstBuyTo[1].wallet': { code: 'INVALID_LAUNCH', message: 'This wallet is already in the split.' },
      firstBuyTo: { code: 'INVALID_LAUNCH', message: 'The shares add to 90%, not 100%.' },
      burnPct: { code: 'INVALID_BURN', message: 'The burn share is 0, 1 to 99 (two decimals at most) or 100.' },
    });
  });

  it('checks the places of an amount against the pair it knows', () => {
    const { problems } = launchBodyOf({ ...ready, firstBuy: '0.0000000000000000001' }, settings);
    expect(problems.firstBuy?.code).toBe('TOO_MANY_DECIMALS');
  });
});
