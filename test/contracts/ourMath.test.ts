import { type Address, createPublicClient, createWalletClient, custom, type PublicClient, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { OurMathHarness } from '../../src-main/chain/generated/contracts';
import { PancakeMathHarness } from '../../src-main/chain/generated/harness';
import { devnetChain } from '../../src-main/chain/networks';
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../../src-main/core/math/tickMath';
import { revertName } from '../support/revertName';

let devnet: Devnet;
let client: PublicClient;
let ours: Address;
let pools: Address;

function* lcg(count: number, modulo: number, seed: number): Generator<number> {
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    yield state % modulo;
  }
}

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts[1]?.privateKey ?? '0x'),
    chain: devnetChain,
    transport: custom(devnet.provider),
  });
  const deploy = async (artifact: { abi: readonly unknown[]; bytecode: `0x${string}` }) => {
    const hash = await wallet.deployContract({ abi: artifact.abi as never, bytecode: artifact.bytecode });
    const address = (await client.getTransactionReceipt({ hash })).contractAddress;
    if (!address) throw new Error('not deployed');
    return address;
  };
  ours = await deploy(OurMathHarness);
  pools = await deploy(PancakeMathHarness);
});

describe('contracts/lib math', () => {
  it("TickMath.sqrtPriceAtTick equals the pool's TickMath on 400 ticks", async () => {
    const ticks = [MIN_TICK, -1, 0, 1, MAX_TICK, ...[...lcg(395, MAX_TICK - MIN_TICK + 1, 7)].map((n) => n + MIN_TICK)];
    for (const tick of ticks) {
      const mine = await client.readContract({
        address: ours,
        abi: OurMathHarness.abi,
        functionName: 'sqrtPriceAtTick',
        args: [tick],
      });
      expect(mine, `tick ${tick}`).toBe(getSqrtRatioAtTick(tick));
    }
    await expect(
      client.readContract({
        address: ours,
        abi: OurMathHarness.abi,
        functionName: 'sqrtPriceAtTick',
        args: [MAX_TICK + 1],
      }),
    ).rejects.toThrow(/TickOutOfRange/);
  });

  it('gives the liquidity an amount funds: the pool asks at most the amount, and leaves only dust unused', async () => {
    const amounts = [1n, 999n, parseEther('1'), parseEther('123456789.123'), parseEther('1000000000000')];
    const spans = [
      [-46000, 0],
      [0, 200],
      [-887200, -840000],
      [600000, 887200],
      [-200, 887200],
    ] as const;
    for (const amount of amounts) {
      for (const [lower, upper] of spans) {
        const [a, b] = [getSqrtRatioAtTick(lower), getSqrtRatioAtTick(upper)];
        for (const side of [0, 1] as const) {
          const exact = side === 0 ? (amount * a * b) / (2n ** 96n * (b - a)) : (amount * 2n ** 96n) / (b - a);
          const call = client.readContract({
            address: ours,
            abi: OurMathHarness.abi,
            functionName: side === 0 ? 'liquidityForAmount0' : 'liquidityForAmount1',
            args: [a, b, amount],
          });
          if (exact >= 2n ** 128n) {
            // More than a pool position can hold: refused, never truncated.
            expect(await revertName(call), `amount ${amount} over [${lower}, ${upper}]`).toBe('LiquidityOverflow');
            continue;
          }
          const liquidity = await call;
          const owed = (l: bigint) =>
            client.readContract({
              address: pools,
              abi: PancakeMathHarness.abi,
              functionName: side === 0 ? 'getAmount0Delta' : 'getAmount1Delta',
              args: [a, b, l, true],
            });
          const label = `amount ${amount} over [${lower}, ${upper}] as token${side}`;
          const asked = await owed(liquidity);
          expect(asked, label).toBeLessThanOrEqual(amount);
          // Rounding down leaves dust: at most a billionth of the amount, plus what two units of liquidity cost in
          // this range (over 10^19 wei at the lowest prices, a fraction of a wei near a price of 1).
          const unit = (await owed(liquidity + 2n)) - asked;
          expect(amount - asked, label).toBeLessThanOrEqual(amount / 1_000_000_000n + unit + 1n);
        }
      }
    }
  });
});
