import {
  type Address,
  createWalletClient,
  custom,
  type Hash,
  type Hex,
  keccak256,
  type PublicClient,
  parseEther,
  parseEventLogs,
  type Transport,
  toHex,
  zeroAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Devnet } from '../../src-main/chain/devnet/startDevnet';
import { LaunchFactory } from '../../src-main/chain/generated/contracts';
import { devnetChain } from '../../src-main/chain/networks';
import { MAX_TICK } from '../../src-main/core/math/tickMath';
import { revertName } from './revertName';

export const SPACING: Record<number, number> = { 100: 1, 500: 10, 2500: 50, 10000: 200 };

export interface Range {
  tickLower: number;
  tickUpper: number;
  bps: number;
}

export interface LaunchOptions {
  creator?: number;
  name?: string;
  symbol?: string;
  supply?: bigint;
  saltSeed?: string;
  pair?: Address;
  fee?: number;
  /** The opening tick as if the token were token0 (price of the token in the pair); mirrored when it is token1. */
  openingTick?: number;
  /** Range widths in ticks and bps, from the opening price upwards in the token's price; the last runs to the top. */
  shape?: { width: number; bps: number }[];
  ranges?: Range[];
  firstBuy?: bigint;
  minTokens?: bigint;
  firstBuyTo?: { wallet: Address; bps: number }[];
  royaltyTo?: Address;
  burnBps?: number;
  metadataURI?: string;
  value?: bigint;
  /** Which side the token must sort on; salts are tried until it does. */
  tokenIs0?: boolean;
}

/** Where launches go: the devnet in-process, or a running service's /rpc. */
export interface LaunchTarget {
  accounts: Devnet['accounts'];
  contracts: { factory: Address; wbnb: Address };
  transport: Transport;
}

/** A target on an in-process devnet. */
export function devnetTarget(devnet: Devnet): LaunchTarget {
  return { accounts: devnet.accounts, contracts: devnet.contracts, transport: custom(devnet.provider) };
}

/** Launches through the factory from a test account: simulates, sends, and returns what happened. */
export function launcher(target: LaunchTarget | Devnet, client: PublicClient) {
  const devnet = 'transport' in target ? target : devnetTarget(target);
  const account = (index: number) => privateKeyToAccount(devnet.accounts[index]?.privateKey ?? '0x');
  const factory = devnet.contracts.factory;

  async function plan(o: LaunchOptions) {
    const creator = account(o.creator ?? 2);
    const name = o.name ?? 'Moon Cat';
    const symbol = o.symbol ?? 'MCAT';
    const supply = o.supply ?? parseEther('1000000000');
    const pair = o.pair ?? devnet.contracts.wbnb;
    const fee = o.fee ?? 10000;
    const spacing = SPACING[fee] ?? 200;
    let attempt = 0;
    let salt: Hex;
    let token: Address;
    do {
      salt = keccak256(toHex(`${o.saltSeed ?? 'seed'}-${attempt++}`));
      token = (await client.readContract({
        address: factory,
        abi: LaunchFactory.abi,
        functionName: 'tokenAddress',
        args: [creator.address, salt, name, symbol, supply],
      })) as Address;
    } while (o.tokenIs0 !== undefined && BigInt(token) < BigInt(pair) !== o.tokenIs0);
    const tokenIs0 = BigInt(token) < BigInt(pair);
    const top = Math.floor(MAX_TICK / spacing) * spacing;
    // In pool ticks the token's price rises with the tick when it is token0, and falls when it is token1.
    const asked = o.openingTick ?? -207200;
    const openingTick = tokenIs0 ? asked : -asked;
    let ranges = o.ranges;
    if (!ranges) {
      const shape = o.shape ?? [{ width: 0, bps: 10000 }];
      ranges = [];
      let from = asked;
      shape.forEach(({ width, bps }, i) => {
        const to = i === shape.length - 1 ? top : from + width;
        const [lower, upper] = tokenIs0 ? [from, to] : [-to, -from];
        ranges?.push({ tickLower: lower, tickUpper: upper, bps });
        from = to;
      });
    }
    const params = {
      name,
      symbol,
      supply,
      salt,
      pair,
      fee,
      openingTick,
      ranges,
      firstBuy: o.firstBuy ?? 0n,
      minTokens: o.minTokens ?? 0n,
      firstBuyTo: o.firstBuyTo ?? [],
      royaltyTo: o.royaltyTo ?? zeroAddress,
      burnBps: o.burnBps ?? 0,
      metadataURI: o.metadataURI ?? 'ipfs://bafkreimetadata',
    };
    return { creator, token, tokenIs0, params, top };
  }

  return {
    plan,
    /** Resolves to 'ok' with the launch's facts, or to the custom error's name. */
    async launch(o: LaunchOptions = {}) {
      const planned = await plan(o);
      const native = planned.params.pair === devnet.contracts.wbnb;
      const value = o.value ?? (native ? planned.params.firstBuy : 0n);
      let hash: Hash | undefined;
      const result = await revertName(
        (async () => {
          const { request } = await client.simulateContract({
            account: planned.creator,
            address: factory,
            abi: LaunchFactory.abi,
            functionName: 'launch',
            args: [planned.params],
            value,
          } as never);
          const wallet = createWalletClient({
            account: planned.creator,
            chain: client.chain ?? devnetChain,
            transport: devnet.transport,
          });
          hash = await wallet.writeContract(request as never);
          const receipt = await client.getTransactionReceipt({ hash });
          if (receipt.status !== 'success') throw new Error('launch simulated fine but reverted on chain');
        })(),
      );
      let launched: { pool: Address; gasUsed: bigint } | undefined;
      if (hash) {
        const receipt = await client.getTransactionReceipt({ hash });
        const [event] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'Launched' });
        if (event) launched = { pool: event.args.pool, gasUsed: receipt.gasUsed };
      }
      return { result, hash, ...planned, ...launched };
    },
  };
}
