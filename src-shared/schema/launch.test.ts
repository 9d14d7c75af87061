import { describe, expect, it } from 'vitest';
import { LaunchRequestSchema, launchProblems, parseLaunchRequest } from './launch';

const WALLET = '0x00000000000000000000000000000000000000a1';
const OTHER = '0x00000000000000000000000000000000000000b2';
const base = { wallet: WALLET, name: 'Moon', symbol: 'MOON', marketCapPair: '10', image: 'https://example.com/a.png' };

const first = (body: unknown) => {
  const [problem] = launchProblems(body);
  return problem && { code: problem.code, field: problem.field };
};

describe('LaunchRequestSchema', () => {
  it('accepts a complete launch and reads null as absence where the spec always did', () => {
    expect(launchProblems(base)).toEqual([]);
    const parsed = LaunchRequestSchema.parse({
      ...base,
      pair: null,
      royaltyTo: null,
      firstBuy: null,
      description: null,
    });
    expect(parsed).toMatchObject(base);
    expect(parsed.pair).toBeUndefined();
  });

  it('answers each broken rule with the spec code and field', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, wallet: 'nope' }, 'INVALID_ADDRESS', 'wallet'],
      [{ ...base, name: '😀'.repeat(17) }, 'INVALID_LAUNCH', 'name'],
      [{ ...base, symbol: 'a\u0007' }, 'INVALID_LAUNCH', 'symbol'],
      [{ ...base, supply: '0' }, 'INVALID_SUPPLY', 'supply'],
      [{ ...base, supply: null }, 'INVALID_SUPPLY', 'supply'],
      [{ ...base, feeTier: 3000 }, 'INVALID_LAUNCH', 'feeTier'],
      [{ ...base, shape: [{ fromPct: '0', toPct: 100, bps: 10000 }] }, 'INVALID_SHAPE', 'shape'],
      [{ ...base, burnPct: 12.345 }, 'INVALID_BURN', 'burnPct'],
      [{ ...base, burnPct: 10, royaltyTo: OTHER }, 'CONFLICTING_ROYALTY', 'royaltyTo'],
      [{ ...base, slippagePct: 0.1 }, 'INVALID_SLIPPAGE', 'slippagePct'],
      [{ ...base, pair: 5 }, 'UNSUPPORTED_PAIR', 'pair'],
      [{ ...base, marketCapUsd: '5' }, 'INVALID_LAUNCH', 'marketCapUsd'],
      [{ ...base, marketCapPair: '0.0' }, 'INVALID_AMOUNT', 'marketCapPair'],
      [{ ...base, marketCapPair: undefined }, 'MISSING_MARKET_CAP', 'marketCapUsd'],
      [{ ...base, firstBuy: '1e3' }, 'INVALID_AMOUNT', 'firstBuy'],
      [{ ...base, firstBuyTo: [{ wallet: WALLET, pct: 100 }] }, 'INVALID_LAUNCH', 'firstBuyTo'],
      [{ ...base, firstBuy: '1', firstBuyTo: ['x'] }, 'INVALID_ADDRESS', 'firstBuyTo[0].wallet'],
      [
        {
          ...base,
          firstBuy: '1',
          firstBuyTo: [
            { wallet: WALLET, pct: 50 },
            { wallet: WALLET.toUpperCase().replace('0X', '0x'), pct: 50 },
          ],
        },
        'INVALID_LAUNCH',
        'firstBuyTo[1].wallet',
      ],
      [{ ...base, firstBuy: '1', firstBuyTo: [{ wallet: WALLET, pct: 0 }] }, 'INVALID_LAUNCH', 'firstBuyTo[0].pct'],
      [{ ...base, metadataURI: 'ipfs://x' }, 'CONFLICTING_METADATA', 'metadataURI'],
      [{ ...base, image: null }, 'MISSING_IMAGE', 'image'],
      [{ ...base, image: 7 }, 'INVALID_IMAGE', 'image'],
      [{ ...base, website: 7 }, 'INVALID_METADATA', 'website'],
    ];
    for (const [body, code, field] of cases) expect(first(body), JSON.stringify(body)).toEqual({ code, field });
  });

  it('refuses every malformed shape with INVALID_SHAPE', () => {
    const bad: unknown[] = [
      'wavy',
      [],
      5,
      null,
      [{ fromPct: 0, toPct: 100, bps: 9999 }],
      [{ fromPct: 0, toPct: 100 }],
      [{ fromPct: 0, toPct: 100, bps: 10000.5 }],
      [{ fromPct: 10, toPct: 5, bps: 10000 }],
      [{ fromPct: -1, toPct: 5, bps: 10000 }],
      [{ fromPct: 0, toPct: 101, bps: 10000 }],
      [{ fromPct: '0', toPct: 100, bps: 10000 }],
      [
        { fromPct: 0, toPct: 50, bps: 5000 },
        { fromPct: 40, toPct: 100, bps: 5000 },
      ],
      Array.from({ length: 5 }, (_, i) => ({ fromPct: i * 10, toPct: i * 10 + 10, bps: 2000 })),
    ];
    for (const shape of bad)
      expect(first({ ...base, shape }), JSON.stringify(shape)).toEqual({ code: 'INVALID_SHAPE', field: 'shape' });
  });

  it('answers the first broken rule in the order the service always checked them', () => {
    // The wallet before the name, the name before the supply...
    expect(first({ ...base, wallet: 1, name: '', supply: 'x' })).toEqual({ code: 'INVALID_ADDRESS', field: 'wallet' });
    // A rule across fields at its own place: the royalty conflict before the slippage, both caps before either's form.
    expect(first({ ...base, burnPct: 5, royaltyTo: OTHER, slippagePct: 99 })).toMatchObject({
      code: 'CONFLICTING_ROYALTY',
    });
    expect(first({ ...base, marketCapUsd: 'x', marketCapPair: 'y' })).toEqual({
      code: 'INVALID_LAUNCH',
      field: 'marketCapUsd',
    });
    // The split's count, then its need of a first buy, then its entries, then its total.
    expect(first({ ...base, firstBuyTo: Array(21).fill({ wallet: 'x', pct: 1 }) })?.field).toBe('firstBuyTo');
    expect(first({ ...base, firstBuyTo: [{ wallet: 'x', pct: 1 }] })).toEqual({
      code: 'INVALID_LAUNCH',
      field: 'firstBuyTo',
    });
    expect(
      first({
        ...base,
        firstBuy: '1',
        firstBuyTo: [
          { wallet: WALLET, pct: 1 },
          { wallet: 'x', pct: 1 },
        ],
      }),
    ).toEqual({
      code: 'INVALID_ADDRESS',
      field: 'firstBuyTo[1].wallet',
    });
    // The metadata conflict before the image and the details.
    expect(first({ ...base, metadataURI: 'ipfs://x', image: 5, x: 5 })?.code).toBe('CONFLICTING_METADATA');
  });

  it('hands the first problem to the caller’s error type', () => {
    expect(() => parseLaunchRequest({ ...base, supply: '-1' }, (p) => new Error(`${p.code} ${p.field}`))).toThrow(
      'INVALID_SUPPLY supply',
    );
    expect(parseLaunchRequest(base, () => new Error('unreachable')).name).toBe('Moon');
  });
});
