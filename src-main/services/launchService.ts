import { randomBytes } from 'node:crypto';
import {
  type Address,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  getAddress,
  getContractAddress,
  type Hex,
  isAddress,
  keccak256,
  zeroAddress,
} from 'viem';
import { type LaunchRequest, pctToBps } from '../../src-shared/schema/launch';
import type { LaunchBuild } from '../../src-shared/schema/launchBuild';
import type { Step, UnsignedTx } from '../../src-shared/schema/unsignedTx';
import type { ChainContext } from '../chain/connectChain';
import { LaunchFactory, LaunchToken } from '../chain/generated/contracts';
import { PancakeV3Factory, PancakeV3Pool } from '../chain/generated/vendor';
import { readFees } from '../chain/readFees';
import { ApiError } from '../core/errors';
import { type LaunchPlan, type LaunchPlanInput, planLaunch } from '../core/launch/planLaunch';
import { launchGasLimit } from '../core/launch/takeoverGas';
import { DEFAULT_FEE_TIER, DEFAULT_SUPPLY, FEE_TIERS } from '../core/limits';
import { MAX_INT256 } from '../core/swap/fullMath';
import { formatWithSymbol, parseDecimalAmount } from '../core/units/decimalAmount';
import { type MicroPrice, pairMicroPrice, usdText } from '../core/units/dollarValue';
import { BuiltApprovals } from './builtApprovals';
import { chainRead } from './chainRead';
import { DollarPrices, type DollarRate, dollarsPerUnit } from './dollarPrices';
import type { MediaStore } from './mediaStore';
import type { SettingsService } from './settingsService';
import { simulateFrom, withMargin } from './simulation';
import type { Currency } from './tokenRegistry';

/** The image and metadata storage a launch needs. */
export type MediaPort = Pick<MediaStore, 'fetchImage' | 'putMetadata' | 'resolveMetadataURI'>;

/** The most gas one transaction may use (EIP-7825's cap): above it a launch is TOO_MUCH_GAS. */
export const MAX_TX_GAS = 16_777_216n;
const DEAD = '0x000000000000000000000000000000000000dEaD';
const DEFAULT_FIRST_BUY_SLIPPAGE_PCT = 5;

const BNB = { decimals: 18, symbol: 'BNB' };

interface LaunchMetadata {
  uri: string;
  details: Record<string, unknown>;
}

/** What a launch needs beside its body, read from the settings and the chain. */
interface LaunchFacts {
  wallet: Address;
  supplyWei: bigint;
  feeTier: number;
  pair: Currency;
  native: boolean;
  capPairWei: bigint;
  firstBuy: bigint;
  metadata: LaunchMetadata;
  salt: Hex;
  token: Address;
  siteFeeBps: number;
  launchFeeWei: bigint;
  /** The pair's dollar rate, read once. */
  rate: () => Promise<DollarRate | null>;
}

interface Simulated {
  requires: Step[];
  simulation: { ran: boolean; ok: boolean };
  gasPriceWei: bigint;
  maxWei: bigint;
}

/** A fresh 32-byte salt; tests may pass their own sequence to play a salt whose pool someone already priced. */
export type SaltSource = () => Hex;

const randomSalt: SaltSource = () => `0x${randomBytes(32).toString('hex')}` as Hex;

/**
 * Builds an unsigned launch for a wallet from a body its schema read: reads the pair, the cap and the
 * metadata, picks a salt for a free token address, plans the launch (core/launch/planLaunch: opening tick, shape,
 * first-buy quote), encodes the factory call and simulates it from the wallet.
 */
export class LaunchService {
  constructor(
    private readonly chain: ChainContext,
    private readonly settings: SettingsService,
    private readonly media: MediaPort,
    /** The most gas one launch may use; EIP-7825's per-transaction cap unless a test sets less. */
    private readonly maxTxGas: bigint = MAX_TX_GAS,
    private readonly prices: DollarPrices = new DollarPrices(chain),
    private readonly nextSalt: SaltSource = randomSalt,
    /** Where the approval step it builds is remembered for main's last guard. */
    private readonly builtApprovals: BuiltApprovals = new BuiltApprovals(),
  ) {}

  /** The launch factory; NOT_DEPLOYED on a network without one, before a launch body is read. */
  factory(): Address {
    const factory = this.chain.addresses.factory;
    if (!factory) throw new ApiError('NOT_DEPLOYED', `the launch factory is not deployed on ${this.chain.network}`);
    return factory;
  }

  /**
   * Builds a launch from a body read by LaunchRequestSchema (every rule of the body itself): read what the launch
   * needs from the settings and the chain, plan it (pure), encode the factory call, then check the wallet can pay and
   * simulate it from the wallet.
   */
  async build(request: LaunchRequest): Promise<LaunchBuild> {
    const factory = this.factory();
    const facts = await this.readFacts(factory, request);
    const plan = planLaunch(planInput(request, facts));
    const tx = encodeLaunch(this.chain.chainId, factory, request, facts, plan);
    const sent = await this.simulate(factory, facts, plan, tx);
    const pairRate = await facts.rate();
    const { wbnb } = this.chain.addresses;
    // Dollar values beside the figures, never needed for them: a BNB rate that cannot be read is none.
    const bnbRate = facts.pair.address === wbnb ? pairRate : await this.prices.rate(wbnb, 18).catch(() => null);
    return describeLaunch(request, facts, plan, tx, sent, usdPerPair(pairRate, facts.pair), {
      pair: pairMicroPrice(pairRate),
      bnb: pairMicroPrice(bnbRate),
    });
  }

  /** Everything a launch needs from the settings and the chain, in the spec's order of checks. */
  private async readFacts(factory: Address, request: LaunchRequest): Promise<LaunchFacts> {
    const wallet = getAddress(request.wallet);
    const supplyWei = (request.supply === undefined ? DEFAULT_SUPPLY : BigInt(request.supply)) * 10n ** 18n;
    const feeTier = request.feeTier ?? DEFAULT_FEE_TIER;
    const settings = await this.settings.get();
    if (settings.launch.paused) throw new ApiError('LAUNCHES_PAUSED', 'launches are paused on the factory');
    const pair = await this.readPair(request.pair);
    // The dollar rate is read at most once per build: by the cap when it is in dollars, else for the display.
    let dollarRate: Promise<DollarRate | null> | undefined;
    const rate = () => {
      dollarRate ??= this.prices.rate(pair.address, pair.decimals);
      return dollarRate;
    };
    const capPairWei = await this.readCap(request, pair, rate);
    const firstBuy =
      request.firstBuy === undefined ? 0n : parseDecimalAmount(request.firstBuy, pair.decimals, 'firstBuy');
    if (firstBuy > MAX_INT256) {
      // The swap math takes the amount as a signed 256-bit number; no balance comes near this anyway.
      throw new ApiError('INVALID_LAUNCH', 'firstBuy is too large to encode in a swap (above 2^255 wei)', {
        field: 'firstBuy',
      });
    }
    const metadata = await this.readMetadata(request);
    // A salt whose token address is free and whose pool nobody has priced (the factory refuses such a pool); which
    // side of the pair the token sorts on decides the orientation.
    const { salt, token } = await this.freeTokenAddress(factory, wallet, request, supplyWei, pair.address, feeTier);
    return {
      wallet,
      supplyWei,
      feeTier,
      pair,
      native: pair.address === this.chain.addresses.wbnb,
      capPairWei,
      firstBuy,
      metadata,
      salt,
      token,
      siteFeeBps: settings.fees.siteFeeBps,
      launchFeeWei: BigInt(settings.launch.launchFeeWei),
      rate,
    };
  }

  /**
   * The approval a first buy in a BEP-20 pair needs, the wallet's balances against what the launch spends, and the
   * simulation from the wallet (only once nothing is left to approve).
   */
  private async simulate(factory: Address, facts: LaunchFacts, plan: LaunchPlan, tx: UnsignedTx): Promise<Simulated> {
    const { client } = this.chain;
    const { wallet, pair, firstBuy } = facts;
    const requires: Step[] = [];
    if (!facts.native && firstBuy > 0n) {
      const allowance = await chainRead('the allowance', () =>
        client.readContract({
          address: pair.address,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [wallet, factory],
        }),
      );
      if (allowance < firstBuy) {
        // Exactly the first buy (site fee included), never an unlimited allowance: the factory pulls it once.
        const data = encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [factory, firstBuy],
        });
        const gas = await chainRead('the gas of an approval', () =>
          client.estimateGas({ account: wallet, to: pair.address, data }),
        );
        this.builtApprovals.remember(wallet, { chainId: this.chain.chainId, to: pair.address, data });
        requires.push({
          step: 'approve-factory',
          explain: `Let the launch factory (${factory}) take exactly ${formatWithSymbol(firstBuy, pair)} from your wallet, once, for the first buy and its site fee.`,
          tx: { chainId: this.chain.chainId, to: pair.address, data, value: '0', gas: withMargin(gas).toString() },
        });
      }
      const held = await chainRead('the wallet balance', () =>
        client.readContract({
          address: pair.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [wallet],
        }),
      );
      if (held < firstBuy) {
        throw new ApiError(
          'INSUFFICIENT_BALANCE',
          `the wallet holds ${formatWithSymbol(held, pair)}; the first buy needs ${formatWithSymbol(firstBuy, pair)}`,
        );
      }
    }
    const { value } = plan;
    const [bnb, gasPriceWei] = await Promise.all([
      chainRead('the wallet balance', () => client.getBalance({ address: wallet })),
      chainRead('the gas price', async () => (await readFees(client, this.chain.chainId)).maxFeePerGas),
    ]);
    if (bnb < value) {
      throw new ApiError(
        'INSUFFICIENT_BALANCE',
        `the wallet holds ${formatWithSymbol(bnb, BNB)}; the launch needs ${formatWithSymbol(value, BNB)} plus gas`,
      );
    }
    let gas = 6_000_000n;
    let simulation = { ran: false, ok: false };
    if (requires.length === 0) {
      gas = await simulateFrom(this.chain, wallet, tx, value, 'the launch');
      if (gas > this.maxTxGas) {
        throw new ApiError(
          'TOO_MUCH_GAS',
          `the launch needs ${gas} gas with its margin; one transaction may use ${this.maxTxGas}`,
        );
      }
      // Room to take over the pool should someone price it while the launch waits (unused gas is not paid).
      gas = launchGasLimit(gas, facts.feeTier, this.maxTxGas);
      tx.gas = gas.toString();
      simulation = { ran: true, ok: true };
    }
    const maxWei = gas * gasPriceWei;
    if (bnb < value + maxWei) {
      throw new ApiError(
        'INSUFFICIENT_BALANCE',
        `the wallet holds ${formatWithSymbol(bnb, BNB)}; it needs ${formatWithSymbol(value, BNB)} plus up to ${formatWithSymbol(maxWei, BNB)} of gas`,
      );
    }
    return { requires, simulation, gasPriceWei, maxWei };
  }

  private async readPair(raw: string | undefined): Promise<Currency> {
    const { wbnb, usdt } = this.chain.addresses;
    if (raw === undefined || raw === 'BNB') return { address: wbnb, decimals: 18, symbol: 'BNB' };
    if (raw === 'USDT') return { address: usdt, decimals: 18, symbol: 'USDT' };
    if (!isAddress(raw, { strict: false })) {
      throw new ApiError('UNSUPPORTED_PAIR', `pair must be BNB, USDT or a BEP20 address, not ${JSON.stringify(raw)}`, {
        field: 'pair',
      });
    }
    const address = getAddress(raw);
    if (address === wbnb) return { address, decimals: 18, symbol: 'BNB' };
    try {
      const [decimals, symbol] = await Promise.all([
        this.chain.client.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
        this.chain.client.readContract({ address, abi: erc20Abi, functionName: 'symbol' }),
      ]);
      return { address, decimals, symbol };
    } catch (cause) {
      throw new ApiError('UNSUPPORTED_PAIR', `${address} does not answer decimals() and symbol() as a BEP20 token`, {
        field: 'pair',
        cause,
      });
    }
  }

  /** The asked cap in the pair's wei: as sent in the pair, or dollars at the pair's live dollar price. */
  private async readCap(
    request: LaunchRequest,
    pair: Currency,
    dollarRate: () => Promise<DollarRate | null>,
  ): Promise<bigint> {
    if (request.marketCapPair !== undefined)
      return parseDecimalAmount(request.marketCapPair, pair.decimals, 'marketCapPair');
    const dollars = parseDecimalAmount(request.marketCapUsd, 18, 'marketCapUsd');
    const rate = await dollarRate();
    if (rate === null) {
      throw new ApiError('NO_PRICE', `${pair.symbol} has no live dollar price; send marketCapPair`, {
        field: 'marketCapUsd',
      });
    }
    // Dollars to pair units at the live rate, in integers throughout.
    return (dollars * rate.pairWeiPer) / rate.usdWeiPer;
  }

  /** The launch's metadata: read behind its metadataURI, or stored here from the image and details. */
  private async readMetadata(request: LaunchRequest): Promise<LaunchMetadata> {
    if (request.metadataURI !== undefined) {
      const resolved = await this.media.resolveMetadataURI(request.metadataURI);
      return { uri: resolved.uri, details: { image: resolved.image } };
    }
    const image = await this.media.fetchImage(request.image);
    const stored = await this.media.putMetadata({
      name: request.name,
      symbol: request.symbol,
      description: request.description,
      website: request.website,
      x: request.x,
      telegram: request.telegram,
      image: image.uri,
    });
    return { uri: stored.uri, details: { ...stored.metadata, imageUrl: image.url, url: stored.url } };
  }

  private async freeTokenAddress(
    factory: Address,
    creator: Address,
    { name, symbol }: LaunchRequest,
    supply: bigint,
    pair: Address,
    feeTier: number,
  ) {
    const { client, addresses } = this.chain;
    const bytecodeHash = keccak256(
      encodeDeployData({ abi: LaunchToken.abi, bytecode: LaunchToken.bytecode, args: [name, symbol, supply] }),
    );
    for (let attempt = 0; attempt < 8; attempt++) {
      const salt = this.nextSalt();
      const token = getContractAddress({
        opcode: 'CREATE2',
        from: factory,
        salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [creator, salt])),
        bytecodeHash,
      });
      const code = await chainRead('the token address', () => client.getCode({ address: token }));
      if (code && code !== '0x') continue;
      if (await this.poolPriced(addresses.pancakeFactory, token, pair, feeTier)) continue;
      return { salt, token };
    }
    throw new ApiError('INTERNAL', 'no free token address was found');
  }

  /**
   * Whether someone created and priced the token's pool already. The factory would take it over (for more gas) or,
   * with bids in the way, refuse it (PoolOccupied): another salt avoids both.
   */
  private async poolPriced(pancakeFactory: Address, token: Address, pair: Address, feeTier: number): Promise<boolean> {
    const { client } = this.chain;
    const pool = await chainRead("the token's pool", () =>
      client.readContract({
        address: pancakeFactory,
        abi: PancakeV3Factory.abi,
        functionName: 'getPool',
        args: [token, pair, feeTier],
      }),
    );
    if (pool === zeroAddress) return false;
    const [sqrtPriceX96] = await chainRead("the token's pool", () =>
      client.readContract({ address: pool, abi: PancakeV3Pool.abi, functionName: 'slot0' }),
    );
    return sqrtPriceX96 !== 0n;
  }
}

/** The first-buy split as the factory takes it; the dead address is sent as written, which burns its share. */
function splitOf(request: LaunchRequest): { wallet: Address; bps: number }[] | null {
  if (request.firstBuyTo === undefined) return null;
  return request.firstBuyTo.map(({ wallet, pct }) => {
    const address = getAddress(wallet);
    return { wallet: address === getAddress(DEAD) ? DEAD : address, bps: pctToBps(pct) ?? 0 };
  });
}

function planInput(request: LaunchRequest, facts: LaunchFacts): LaunchPlanInput {
  return {
    supplyWei: facts.supplyWei,
    capPairWei: facts.capPairWei,
    capField: request.marketCapUsd !== undefined ? 'marketCapUsd' : 'marketCapPair',
    tokenIs0: BigInt(facts.token) < BigInt(facts.pair.address),
    feeTier: facts.feeTier,
    shape: request.shape,
    firstBuy: facts.firstBuy,
    slippagePct: request.slippagePct ?? DEFAULT_FIRST_BUY_SLIPPAGE_PCT,
    siteFeeBps: facts.siteFeeBps,
    launchFeeWei: facts.launchFeeWei,
    native: facts.native,
  };
}

/** The factory's launch call for the plan. */
function encodeLaunch(
  chainId: number,
  factory: Address,
  request: LaunchRequest,
  facts: LaunchFacts,
  plan: LaunchPlan,
): UnsignedTx {
  const params = {
    name: request.name,
    symbol: request.symbol,
    supply: facts.supplyWei,
    salt: facts.salt,
    pair: facts.pair.address,
    fee: facts.feeTier,
    openingTick: plan.opening.tick,
    ranges: plan.ranges.map((r) => ({ tickLower: r.tickLower, tickUpper: r.tickUpper, bps: r.bps })),
    firstBuy: facts.firstBuy,
    minTokens: plan.firstBuy?.minTokens ?? 0n,
    firstBuyTo: splitOf(request) ?? [],
    royaltyTo: request.royaltyTo === undefined ? zeroAddress : getAddress(request.royaltyTo),
    burnBps: burnBpsOf(request),
    metadataURI: facts.metadata.uri,
  } as const;
  return {
    chainId,
    to: factory,
    data: encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'launch', args: [params] }),
    value: plan.value.toString(),
  };
}

function burnBpsOf(request: LaunchRequest): number {
  return request.burnPct === undefined ? 0 : (pctToBps(request.burnPct) ?? 0);
}

function usdPerPair(rate: DollarRate | null, pair: Currency): number | null {
  return dollarsPerUnit(rate, pair.decimals);
}

/** The Launch build response: what the plan opens at, spends and pays, and the transaction to sign. */
function describeLaunch(
  request: LaunchRequest,
  facts: LaunchFacts,
  plan: LaunchPlan,
  tx: UnsignedTx,
  { requires, simulation, gasPriceWei, maxWei }: Simulated,
  usd: number | null,
  /** What a wei of the pair and of BNB is worth in dollars: the amounts' dollar values (an addition). */
  dollars: { pair: MicroPrice | null; bnb: MicroPrice | null },
): LaunchBuild {
  const { name, symbol } = request;
  const { wallet, pair, supplyWei, feeTier, firstBuy, launchFeeWei, siteFeeBps, metadata } = facts;
  const { opening } = plan;
  const split = splitOf(request);
  const burnBps = burnBpsOf(request);
  const capNumber = Number(formatUnits(opening.capPairWei, pair.decimals));
  const askedNumber = Number(formatUnits(facts.capPairWei, pair.decimals));
  const creatorFeeRecipient = request.royaltyTo === undefined ? wallet : getAddress(request.royaltyTo);
  const royaltyKind = burnBps === 0 ? 'keep' : burnBps === 10_000 ? 'holders' : 'split';
  const burnPct = burnBps / 100;
  const bought = plan.firstBuy;
  const explain =
    `Launch ${name} (${symbol}), ${formatUnits(supplyWei, 18)} tokens, at a ${trim(capNumber)} ${pair.symbol} market cap ` +
    `against ${pair.symbol} (${FEE_TIERS.find((t) => t.bps === feeTier)?.label} pool)` +
    (bought
      ? `, buying about ${formatUnits(bought.expectedTokens, 18)} ${symbol} for ${formatWithSymbol(firstBuy, pair)} (at least ${formatUnits(bought.minTokens, 18)}; of it a ${formatWithSymbol(bought.siteFee, pair)} site fee, ${siteFeeBps / 100}%)`
      : '') +
    (launchFeeWei > 0n ? `, paying a ${formatWithSymbol(launchFeeWei, BNB)} launch fee` : '') +
    '; the liquidity is locked for ever.';
  return {
    wallet,
    token: facts.token,
    name,
    symbol,
    supply: { amount: formatUnits(supplyWei, 18), wei: supplyWei.toString() },
    pair: {
      address: pair.address,
      decimals: pair.decimals,
      symbol: pair.symbol,
      priced: usd !== null,
      ...(usd === null ? { note: 'no dollar price for this pair: send marketCapPair' } : {}),
    },
    opening: {
      tick: opening.tick,
      marketCapPair: capNumber,
      marketCapUsd: usd === null ? null : Math.round(capNumber * usd * 100) / 100,
      driftFromAskedPct: Math.round((capNumber / askedNumber - 1) * 100 * 10_000) / 10_000,
    },
    feeTier,
    firstBuy: bought
      ? {
          spend: {
            amount: formatUnits(firstBuy, pair.decimals),
            wei: firstBuy.toString(),
            usd: usdText(firstBuy, dollars.pair),
          },
          minTokens: { amount: formatUnits(bought.minTokens, 18), wei: bought.minTokens.toString() },
          siteFee: {
            amount: formatUnits(bought.siteFee, pair.decimals),
            wei: bought.siteFee.toString(),
            symbol: pair.symbol,
            bps: siteFeeBps,
            usd: usdText(bought.siteFee, dollars.pair),
          },
        }
      : null,
    launchFee: {
      amount: formatUnits(launchFeeWei, 18),
      wei: launchFeeWei.toString(),
      usd: usdText(launchFeeWei, dollars.bnb),
    },
    creatorFeeRecipient,
    royalty: {
      kind: royaltyKind,
      burnPct,
      to: creatorFeeRecipient,
      explain:
        royaltyKind === 'keep'
          ? `The pool's trading fees are paid to ${creatorFeeRecipient}.`
          : royaltyKind === 'holders'
            ? "All of the pool's trading fees buy the token back and burn it, for the holders."
            : `${burnPct}% of the pool's trading fees buy the token back and burn it; the rest is paid to ${creatorFeeRecipient}.`,
    },
    shape: typeof request.shape === 'string' ? request.shape : request.shape === undefined ? 'flat' : 'custom',
    ranges: plan.ranges.map((r) => ({ tickLower: r.tickLower, tickUpper: r.tickUpper, bps: r.bps })),
    firstBuyTo: split ? split.map((s) => ({ wallet: s.wallet, pct: s.bps / 100 })) : null,
    salt: facts.salt,
    metadata: { uri: metadata.uri, ...metadata.details },
    requires,
    tx,
    simulation,
    cost: {
      gasPriceWei: gasPriceWei.toString(),
      maxWei: maxWei.toString(),
      max: formatUnits(maxWei, 18),
      usd: usdText(maxWei, dollars.bnb),
    },
    explain,
  };
}

function trim(value: number): string {
  return Number(value.toPrecision(6)).toString();
}
