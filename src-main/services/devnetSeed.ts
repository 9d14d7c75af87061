import { type Address, erc20Abi, type Hex, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { LaunchRequestSchema } from '../../src-shared/schema/launch';
import type { UnsignedTx } from '../../src-shared/schema/unsignedTx';
import type { ChainContext } from '../chain/connectChain';
import type { Devnet } from '../chain/devnet/startDevnet';
import { readFees } from '../chain/readFees';
import type { Logger } from '../log/createLogger';
import type { BuildService } from './buildService';
import type { LaunchService } from './launchService';
import type { MediaStore } from './mediaStore';
import type { TokenRegistry } from './tokenRegistry';

/** Test accounts the seed uses (15-19), so accounts 1-14 stay untouched for users, bots and tests. */
const SEED_ACCOUNTS = [15, 16, 17, 18, 19] as const;

/** A 1x1 GIF of one colour: the smallest valid logo, and different bytes (so a different CID) per colour. */
export function gifLogo(red: number, green: number, blue: number): Uint8Array {
  return Uint8Array.from([
    ...Buffer.from('GIF87a'),
    1,
    0,
    1,
    0,
    0x80,
    0,
    0, // 1x1, global colour table of 2 entries
    red,
    green,
    blue,
    0,
    0,
    0,
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0, // image descriptor
    2,
    2,
    0x44,
    0x01,
    0, // LZW min code size 2, one sub-block: clear, index 0, end
    0x3b,
  ]);
}

interface SeedLaunch {
  creator: (typeof SEED_ACCOUNTS)[number];
  body: Record<string, unknown>;
  colour: [number, number, number];
}

const LAUNCHES: SeedLaunch[] = [
  {
    creator: 15,
    colour: [240, 180, 40],
    body: {
      name: 'Moon Cat',
      symbol: 'MCAT',
      marketCapPair: '30',
      shape: 'flat',
      firstBuy: '1',
      description: 'A cat on the moon.',
    },
  },
  {
    creator: 16,
    colour: [40, 160, 90],
    body: {
      name: 'Dollar Dog',
      symbol: 'DDOG',
      pair: 'USDT',
      marketCapPair: '60000',
      shape: 'stepped',
      feeTier: 2500,
      firstBuy: '500',
    },
  },
  {
    creator: 17,
    colour: [60, 120, 220],
    body: { name: 'Steep Frog', symbol: 'FROG', marketCapPair: '10', shape: 'steep', feeTier: 500, burnPct: 50 },
  },
  {
    creator: 18,
    colour: [200, 60, 120],
    body: {
      name: 'Tiny Owl',
      symbol: 'OWL',
      marketCapPair: '5',
      supply: '21000000',
      shape: [
        { fromPct: 0, toPct: 20, bps: 6000 },
        { fromPct: 20, toPct: 100, bps: 4000 },
      ],
      royaltyTo: '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199',
    },
  },
];

/**
 * Gives a fresh devnet real data for every screen and endpoint: four launches of different pairs, shapes, fee
 * tiers and royalties, each with a logo, and a few trades. Everything is built by the service's own builders, signed
 * with the test keys and sent through the journal, so it replays on the next start like anything a user did.
 */
export async function seedDevnet(
  chain: ChainContext & { devnet: Devnet },
  deps: { launches: LaunchService; builds: BuildService; media: MediaStore; tokens: TokenRegistry },
  log: Logger,
): Promise<void> {
  const keys = new Map(SEED_ACCOUNTS.map((i) => [i, chain.devnet.accounts[i]?.privateKey as Hex]));
  const send = async (index: number, tx: UnsignedTx) => {
    const account = privateKeyToAccount(keys.get(index as (typeof SEED_ACCOUNTS)[number]) ?? '0x');
    const nonce = await chain.client.getTransactionCount({ address: account.address });
    const fees = await readFees(chain.client, chain.chainId);
    const raw = await account.signTransaction({
      chainId: tx.chainId,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gas: tx.gas ? BigInt(tx.gas) : 1_000_000n,
      nonce,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    // At a block cadence the transaction waits for the next block: the next one's nonce and quote depend on it.
    await chain.devnet.included(await chain.devnet.sendRawTransaction(raw));
  };
  const wallet = (index: number) => chain.devnet.accounts[index]?.address as Address;

  const tokens: Address[] = [];
  for (const launch of LAUNCHES) {
    const logo = await deps.media.putImage(gifLogo(...launch.colour), 'image/gif');
    // Read by the launch schema as POST /build/launch reads a body: the seed launches as a person would.
    const body = LaunchRequestSchema.parse({ ...launch.body, wallet: wallet(launch.creator), image: logo.url });
    let built = await deps.launches.build(body);
    for (const step of built.requires as { tx: UnsignedTx }[]) await send(launch.creator, step.tx);
    if ((built.requires as unknown[]).length > 0) built = await deps.launches.build(body);
    await send(launch.creator, built.tx as UnsignedTx);
    tokens.push(built.token as Address);
  }
  // A few trades, so prices have moved and there is history to show.
  const trades: [number, number, 'buy' | 'sell', bigint][] = [
    [19, 0, 'buy', parseEther('2')],
    [19, 2, 'buy', parseEther('1')],
    [15, 0, 'buy', parseEther('0.5')],
    [19, 0, 'sell', 0n],
  ];
  for (const [trader, which, side, amount] of trades) {
    const token = await deps.tokens.get(tokens[which]);
    const wei = side === 'sell' ? await heldHalf(chain, token.address, wallet(trader)) : amount;
    const request = {
      token,
      side,
      exact: 'in' as const,
      amount: wei,
      slippageBps: 100,
      wallet: wallet(trader),
      referrer: null,
    };
    let built = await deps.builds.buildTrade(request);
    for (const step of built.requires) await send(trader, step.tx);
    if (built.requires.length > 0) built = await deps.builds.buildTrade(request);
    await send(trader, built.tx);
  }
  log.info(`devnet: seeded ${LAUNCHES.length} launches and ${trades.length} trades`);
}

async function heldHalf(chain: ChainContext, token: Address, holder: Address): Promise<bigint> {
  const held = await chain.client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
  return held / 2n;
}
