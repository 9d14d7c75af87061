import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  encodePacked,
  erc20Abi,
  type Hex,
  keccak256,
  type PublicClient,
  parseEther,
  parseEventLogs,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../src-main/chain/devnet/startDevnet';
import { LaunchFactory } from '../src-main/chain/generated/contracts';
import { PancakeV3Pool } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { layOut } from '../src-main/core/launch/layOut';
import { openingTick } from '../src-main/core/launch/openingTick';
import { readShape, SHAPE_PRESETS, type ShapeRange, shapeTicks } from '../src-main/core/launch/shapes';
import { simulateSwap } from '../src-main/core/swap/simulateSwap';
import { siteFeeOn } from '../src-main/core/trade/siteFee';
import { type DevnetTestClient, devnetTestClient } from './support/devnetTestClient';

let devnet: Devnet;
let client: PublicClient;
let testClient: DevnetTestClient;
let snapshot: Hex | undefined;

beforeAll(async () => {
  devnet = await startDevnet();
  client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  testClient = devnetTestClient(devnet);
});
beforeEach(async () => {
  if (snapshot) await testClient.revert({ id: snapshot });
  snapshot = await testClient.snapshot();
});

interface Case {
  name: string;
  shape: string | readonly ShapeRange[];
  supply: bigint;
  capPair: bigint;
  fee: number;
  spacing: number;
  firstBuy: bigint;
}

const cases: Case[] = [
  {
    name: 'flat, 1% tier, 1B supply, 10 BNB cap',
    shape: 'flat',
    supply: parseEther('1000000000'),
    capPair: parseEther('10'),
    fee: 10000,
    spacing: 200,
    firstBuy: parseEther('1'),
  },
  {
    name: 'stepped, 0.25% tier, 21M supply, 500 BNB cap',
    shape: 'stepped',
    supply: parseEther('21000000'),
    capPair: parseEther('500'),
    fee: 2500,
    spacing: 50,
    firstBuy: parseEther('30'),
  },
  {
    name: 'steep, 0.05% tier, 1T supply, 3 BNB cap',
    shape: 'steep',
    supply: parseEther('1000000000000'),
    capPair: parseEther('3'),
    fee: 500,
    spacing: 10,
    firstBuy: parseEther('0.5'),
  },
  {
    name: 'custom 3 ranges, 0.01% tier, 1 token supply, 0.001 BNB cap',
    shape: [
      { fromPct: 0, toPct: 5, bps: 7000 },
      { fromPct: 5, toPct: 50, bps: 2000 },
      { fromPct: 60, toPct: 100, bps: 1000 },
    ],
    supply: parseEther('1'),
    capPair: parseEther('0.001'),
    fee: 100,
    spacing: 1,
    firstBuy: parseEther('0.0001'),
  },
];

describe('a launch planned in TypeScript lands on the chain exactly as planned', () => {
  for (const c of cases) {
    for (const wantToken0 of [true, false]) {
      it(`${c.name}, token${wantToken0 ? 0 : 1}`, async () => {
        const creator = privateKeyToAccount(devnet.accounts[2]?.privateKey ?? '0x');
        const { factory, wbnb } = devnet.contracts;
        let token: Address;
        let salt: `0x${string}`;
        let attempt = 0;
        do {
          salt = keccak256(toHex(`${c.name}-${attempt++}`));
          token = (await client.readContract({
            address: factory,
            abi: LaunchFactory.abi,
            functionName: 'tokenAddress',
            args: [creator.address, salt, 'Plan', 'PLAN', c.supply],
          })) as Address;
        } while (BigInt(token) < BigInt(wbnb) !== wantToken0);
        const tokenIs0 = wantToken0;
        const opening = openingTick({ capPairWei: c.capPair, supplyWei: c.supply, tokenIs0, tickSpacing: c.spacing });
        const ranges = shapeTicks(readShape(c.shape), opening.tick, tokenIs0, c.spacing);
        const plan = layOut(c.supply, ranges, opening, tokenIs0, c.fee, c.spacing);
        // The first buy pays the devnet's 1% site fee, rounded up, and buys with the rest.
        const expectedBuy = simulateSwap(plan.pool, !tokenIs0, c.firstBuy - siteFeeOn(c.firstBuy, 100));
        // The opening cap is within half a tick spacing of the asked one, above or below.
        const drift = Math.abs(Math.log(Number(opening.capPairWei) / Number(c.capPair)));
        expect(drift).toBeLessThanOrEqual((c.spacing / 2) * Math.log(1.0001) + 1e-9);

        const wallet = createWalletClient({ account: creator, chain: devnetChain, transport: custom(devnet.provider) });
        const hash = await wallet.writeContract({
          address: factory,
          abi: LaunchFactory.abi,
          functionName: 'launch',
          args: [
            {
              name: 'Plan',
              symbol: 'PLAN',
              supply: c.supply,
              salt,
              pair: wbnb,
              fee: c.fee,
              openingTick: opening.tick,
              ranges,
              firstBuy: c.firstBuy,
              minTokens: expectedBuy.amountOut,
              firstBuyTo: [],
              royaltyTo: '0x0000000000000000000000000000000000000000',
              burnBps: 0,
              metadataURI: 'ipfs://plan',
            },
          ],
          value: c.firstBuy,
        });
        const receipt = await client.getTransactionReceipt({ hash });
        expect(receipt.status).toBe('success');
        const [launched] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'Launched' });
        const [firstBuy] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'FirstBuy' });
        const pool = launched?.args.pool as Address;
        for (const position of plan.positions) {
          const key = keccak256(
            encodePacked(['address', 'int24', 'int24'], [factory, position.tickLower, position.tickUpper]),
          );
          const [liquidity] = await client.readContract({
            address: pool,
            abi: PancakeV3Pool.abi,
            functionName: 'positions',
            args: [key],
          });
          expect(liquidity, `${position.tickLower}..${position.tickUpper}`).toBe(position.liquidity);
        }
        const burned = await client.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: ['0x000000000000000000000000000000000000dEaD'],
        });
        expect(burned).toBe(plan.residue);
        expect(firstBuy?.args.tokens).toBe(expectedBuy.amountOut);
      });
    }
  }

  it('defines every preset as ranges whose bps add to 10,000', () => {
    for (const preset of Object.values(SHAPE_PRESETS)) expect(preset.reduce((sum, r) => sum + r.bps, 0)).toBe(10000);
  });
});
