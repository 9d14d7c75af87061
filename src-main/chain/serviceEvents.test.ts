import {
  type Address,
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  getAbiItem,
  getAddress,
  type Hex,
  pad,
  toHex,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { LaunchFactory, LaunchToken, TradeRouter } from './generated/contracts';
import { decodeServiceEvent, type RawLog } from './serviceEvents';

const position = {
  blockNumber: '0x10' as Hex,
  blockHash: pad('0x1', { size: 32 }) as Hex,
  logIndex: '0x2' as Hex,
  transactionHash: pad('0x3', { size: 32 }) as Hex,
};
const at = { block: 16, logIndex: 2, txHash: position.transactionHash };

/** A random-ish address and a random uint256, from a seed. */
const addressFrom = (n: number) => pad(toHex(BigInt(n) * 0x9e3779b97f4a7c15n), { size: 20 }) as Address;
const uintFrom = (n: number) => (BigInt(n) * 0x9e3779b97f4a7c15f39cc0605cedc835n) % 2n ** 256n;

/** Encodes an event the way the EVM logs it, with viem's encoder: the independent reference. */
function logOf(abi: readonly unknown[], eventName: string, args: Record<string, unknown>): RawLog {
  const item = getAbiItem({ abi: abi as never, name: eventName as never }) as {
    inputs: { name: string; type: string; indexed?: boolean }[];
  };
  const topics = encodeEventTopics({ abi: abi as never, eventName, args } as never) as Hex[];
  const data = encodeAbiParameters(
    item.inputs.filter((i) => !i.indexed) as never,
    item.inputs.filter((i) => !i.indexed).map((i) => args[i.name]) as never,
  );
  return { address: addressFrom(1), topics, data, ...position };
}

describe('decodeServiceEvent', () => {
  it('reads trades, bindings and first buys exactly as the ABI decoder does', () => {
    for (let n = 1; n < 50; n++) {
      const trade = {
        wallet: addressFrom(n),
        token: addressFrom(n + 1),
        referrer: addressFrom(n + 2),
        pair: addressFrom(n + 3),
        isBuy: n % 2 === 0,
        pairAmount: uintFrom(n),
        tokenAmount: uintFrom(n + 7),
        siteFee: uintFrom(n + 8),
        referrerCut: uintFrom(n + 9),
      };
      const log = logOf(TradeRouter.abi, 'Trade', trade);
      const reference = decodeEventLog({ abi: TradeRouter.abi, ...log, topics: log.topics as [Hex, ...Hex[]] })
        .args as typeof trade;
      expect(decodeServiceEvent(log)).toEqual({
        ...at,
        kind: 'trade',
        trader: reference.wallet,
        token: reference.token,
        referrer: reference.referrer,
        pair: reference.pair,
        isBuy: reference.isBuy,
        pairAmount: reference.pairAmount,
        tokenAmount: reference.tokenAmount,
        fee: reference.siteFee,
        cut: reference.referrerCut,
      });
      const bound = logOf(TradeRouter.abi, 'Bound', { wallet: addressFrom(n), referrer: addressFrom(n * 3) });
      expect(decodeServiceEvent(bound)).toEqual({
        ...at,
        kind: 'bound',
        ...decodeEventLog({ abi: TradeRouter.abi, ...bound, topics: bound.topics as [Hex, ...Hex[]] }).args,
      });
      const firstBuy = logOf(LaunchFactory.abi, 'FirstBuy', {
        token: addressFrom(n),
        spent: uintFrom(n),
        tokens: uintFrom(n * 5),
        siteFee: uintFrom(n * 7),
      });
      expect(decodeServiceEvent(firstBuy)).toEqual({
        ...at,
        kind: 'firstBuy',
        ...decodeEventLog({ abi: LaunchFactory.abi, ...firstBuy, topics: firstBuy.topics as [Hex, ...Hex[]] }).args,
      });
    }
  });

  it("reads a launched token's Transfer as the ABI decoder does, the token being the log's address", () => {
    for (let n = 1; n < 30; n++) {
      const args = { from: addressFrom(n), to: addressFrom(n + 11), value: uintFrom(n) };
      const log = { ...logOf(LaunchToken.abi, 'Transfer', args), address: addressFrom(n + 5).toLowerCase() as Address };
      const reference = decodeEventLog({ abi: LaunchToken.abi, ...log, topics: log.topics as [Hex, ...Hex[]] }).args;
      expect(decodeServiceEvent(log)).toEqual({
        ...at,
        kind: 'transfer',
        token: getAddress(log.address),
        ...reference,
      });
    }
  });

  it('reads launches, strings and ranges included, exactly as the ABI decoder does', () => {
    const names = ['Moon Cat', 'ムーン 🐱', '', 'x'.repeat(64), 'Ünïcödé dog'];
    for (let n = 1; n < 30; n++) {
      const ranges = Array.from({ length: 1 + (n % 4) }, (_, r) => ({
        tickLower: -887200 + n * 200 + r * 1000,
        tickUpper: 887200 - r * 200,
        bps: 2500 + r,
      }));
      const args = {
        token: addressFrom(n),
        creator: addressFrom(n + 1),
        pool: addressFrom(n + 2),
        pair: addressFrom(n + 3),
        fee: [100, 500, 2500, 10000][n % 4],
        supply: uintFrom(n),
        openingTick: n % 2 ? -207200 + n : 150000 - n,
        salt: pad(toHex(uintFrom(n + 4)), { size: 32 }),
        name: names[n % names.length],
        symbol: `S${n}`,
        metadataURI: n % 3 ? `ipfs://bafkrei${'a'.repeat(n)}` : '',
        royaltyTo: n % 2 ? addressFrom(n + 5) : '0x0000000000000000000000000000000000000000',
        burnBps: n * 100,
        ranges,
      };
      const log = logOf(LaunchFactory.abi, 'Launched', args);
      const reference = decodeEventLog({ abi: LaunchFactory.abi, ...log, topics: log.topics as [Hex, ...Hex[]] }).args;
      expect(decodeServiceEvent(log)).toEqual({ ...at, kind: 'launched', ...reference });
    }
  });

  it('refuses data that does not fit the event instead of indexing garbage', () => {
    const log = logOf(TradeRouter.abi, 'Trade', {
      wallet: addressFrom(1),
      token: addressFrom(2),
      referrer: addressFrom(3),
      pair: addressFrom(4),
      isBuy: true,
      pairAmount: 1n,
      tokenAmount: 2n,
      siteFee: 3n,
      referrerCut: 4n,
    });
    expect(() => decodeServiceEvent({ ...log, data: log.data.slice(0, -64) as Hex })).toThrow(/bytes/);
    const badBool = `${log.data.slice(0, 2 + 64)}${'0'.repeat(63)}2${log.data.slice(2 + 128)}` as Hex;
    expect(() => decodeServiceEvent({ ...log, data: badBool })).toThrow(/bool/);
    const wideAddress = `0x${'f'.repeat(64)}${log.data.slice(2 + 64)}` as Hex;
    expect(() => decodeServiceEvent({ ...log, data: wideAddress })).toThrow(/address/);
    expect(decodeServiceEvent({ ...log, topics: [pad('0x9', { size: 32 })] })).toBeNull();
  });
});
