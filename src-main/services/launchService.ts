import { randomBytes } from 'node:crypto';
import {
  type Address,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  isAddress,
  keccak256,
  zeroAddress,
} from 'viem';
import type { UnsignedTx } from '../../src-shared/schema/unsignedTx';
import type { ChainContext } from '../chain/connectChain';
import { DevStablecoin, LaunchFactory, LaunchToken } from '../chain/generated/contracts';
import { PancakeV3Factory, PancakeV3Pool } from '../chain/generated/vendor';
import { readFees } from '../chain/readFees';
import { ApiError } from '../core/errors';
import { layOut } from '../core/launch/layOut';
import { openingTick } from '../core/launch/openingTick';
import { readShape, shapeTicks } from '../core/launch/shapes';
import { DEFAULT_FEE_TIER, DEFAULT_SUPPLY, FEE_TIERS } from '../core/limits';
import { simulateSwap } from '../core/swap/simulateSwap';
import { siteFeeOn } from '../core/trade/siteFee';
import { formatDecimalAmount, formatWithSymbol, parseDecimalAmount } from '../core/units/decimalAmount';
import { readAddress } from '../core/units/readAddress';
import type { Step } from './buildService';
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
const MAX_SUPPLY = 1_000_000_000_000n;
const DEAD = '0x000000000000000000000000000000000000dEaD';
const DEFAULT_FIRST_BUY_SLIPPAGE_PCT = 5;
const DETAIL_FIELDS = ['description', 'website', 'x', 'telegram'] as const;

const MAX_INT256 = 2n ** 255n - 1n;

function invalid(field: string, message: string): ApiError {
  return new ApiError('INVALID_LAUNCH', message, { field });
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Reads a percentage with at most two decimals into basis points, exactly (no float rounding at the edge).
 *
 * @example pctToBps(12.5) // 1250
 */
function pctToBps(value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  const bps = Math.round(value * 100);
  return Math.abs(bps - value * 100) < 1e-6 ? bps : undefined;
}

export interface LaunchBuild {
  body: Record<string, unknown>;
}

/** A fresh 32-byte salt; tests may pass their own sequence to play a salt whose pool someone already priced. */
export type SaltSource = () => Hex;

const randomSalt: SaltSource = () => `0x${randomBytes(32).toString('hex')}` as Hex;

/**
 * Builds an unsigned launch for a wallet: validates every field as the spec says, opens at the tick for the asked
 * cap, lays out the shape, quotes the first buy against the fresh pool, stores the metadata, picks a salt for a free
 * token address, and simulates the whole launch from the wallet.
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

  async build(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { client, addresses } = this.chain;
    const factory = addresses.factory;
    if (!factory) throw new ApiError('NOT_DEPLOYED', `the launch factory is not deployed on ${this.chain.network}`);
    const wallet = readAddress(body.wallet, 'wallet');
    const name = readText(body.name, 'name', 64);
    const symbol = readText(body.symbol, 'symbol', 32);
    const supplyWhole = readSupply(body.supply);
    const supplyWei = supplyWhole * 10n ** 18n;
    const feeTier = readFeeTier(body.feeTier);
    const spacing = FEE_TIERS.find((t) => t.bps === feeTier)?.tickSpacing ?? 200;
    const shape = readShape(body.shape);
    const shapeName = typeof body.shape === 'string' ? body.shape : body.shape === undefined ? 'flat' : 'custom';
    const { burnBps, royaltyTo } = readRoyalty(body.burnPct, body.royaltyTo);
    const slippagePct = readFirstBuySlippage(body.slippagePct);

    const settings = await this.settings.get();
    if (settings.launch.paused) throw new ApiError('LAUNCHES_PAUSED', 'launches are paused on the factory');
    const pair = await this.readPair(body.pair);
    // The dollar rate is read at most once per build: by the cap when it is in dollars, else for the display.
    let dollarRate: Promise<DollarRate | null> | undefined;
    const rate = () => {
      dollarRate ??= this.prices.rate(pair.address, pair.decimals);
      return dollarRate;
    };
    const capPairWei = await this.readCap(body.marketCapUsd, body.marketCapPair, pair, rate);
    const firstBuy =
      body.firstBuy === undefined || body.firstBuy === null
        ? 0n
        : parseDecimalAmount(body.firstBuy, pair.decimals, 'firstBuy');
    if (firstBuy > MAX_INT256) {
      // The swap math takes the amount as a signed 256-bit number; no balance comes near this anyway.
      throw invalid('firstBuy', 'firstBuy is too large to encode in a swap (above 2^255 wei)');
    }
    const split = readSplit(body.firstBuyTo, firstBuy);
    const metadata = await this.readMetadata(body, name, symbol);

    // A salt whose token address is free and whose pool nobody has priced (the factory refuses such a pool); which
    // side of the pair the token sorts on decides the orientation.
    const { salt, token } = await this.freeTokenAddress(
      factory,
      wallet,
      name,
      symbol,
      supplyWei,
      pair.address,
      feeTier,
    );
    const tokenIs0 = BigInt(token) < BigInt(pair.address);
    let opening: ReturnType<typeof openingTick>;
    try {
      opening = openingTick({ capPairWei, supplyWei, tokenIs0, tickSpacing: spacing });
    } catch {
      throw invalid('marketCapPair', 'the market cap is beyond the prices a pool can hold for this supply');
    }
    const ranges = shapeTicks(shape, opening.tick, tokenIs0, spacing);
    let layout: ReturnType<typeof layOut>;
    try {
      layout = layOut(supplyWei, ranges, opening, tokenIs0, feeTier, spacing);
    } catch (error) {
      // A cap so high that a range's liquidity overflows a pool position: the caller's numbers, not our fault.
      if (!(error instanceof RangeError)) throw error;
      const field = body.marketCapUsd !== undefined ? 'marketCapUsd' : 'marketCapPair';
      throw invalid(field, `the supply cannot be laid out at this market cap: ${error.message}`);
    }
    let minTokens = 0n;
    let expectedTokens = 0n;
    // The first buy is a trade: the factory takes the site fee from it, as the router does from an exact-in buy.
    const siteFeeBps = settings.fees.siteFeeBps;
    const firstBuyFee = siteFeeOn(firstBuy, siteFeeBps);
    if (firstBuy > 0n) {
      if (firstBuy <= firstBuyFee) {
        throw new ApiError('AMOUNT_TOO_SMALL', 'the first buy would leave nothing after the site fee', {
          field: 'firstBuy',
        });
      }
      const quote = simulateSwap(layout.pool, !tokenIs0, firstBuy - firstBuyFee);
      if (!quote.filled) {
        // More than buying the whole supply up to the highest price the pool can hold would cost.
        throw new ApiError('POOL_TOO_THIN', 'the fresh pool cannot fill a first buy this large in one trade', {
          field: 'firstBuy',
          fix: 'Send a smaller firstBuy, or launch a larger supply.',
        });
      }
      if (quote.amountOut === 0n) {
        throw new ApiError('AMOUNT_TOO_SMALL', 'the first buy would get no tokens from the fresh pool', {
          field: 'firstBuy',
        });
      }
      expectedTokens = quote.amountOut;
      minTokens = (quote.amountOut * BigInt(10_000 - Math.round(slippagePct * 100))) / 10_000n;
    }

    const launchFeeWei = BigInt(settings.launch.launchFeeWei);
    const native = pair.address === addresses.wbnb;
    const value = launchFeeWei + (native ? firstBuy : 0n);
    const params = {
      name,
      symbol,
      supply: supplyWei,
      salt,
      pair: pair.address,
      fee: feeTier,
      openingTick: opening.tick,
      ranges: ranges.map((r) => ({ tickLower: r.tickLower, tickUpper: r.tickUpper, bps: r.bps })),
      firstBuy,
      minTokens,
      firstBuyTo: split?.map((s) => ({ wallet: s.wallet, bps: s.bps })) ?? [],
      royaltyTo: royaltyTo ?? '0x0000000000000000000000000000000000000000',
      burnBps,
      metadataURI: metadata.uri,
    } as const;
    const tx: UnsignedTx = {
      chainId: this.chain.chainId,
      to: factory,
      data: encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'launch', args: [params] }),
      value: value.toString(),
    };

    const requires: Step[] = [];
    if (!native && firstBuy > 0n) {
      const allowance = await chainRead('the allowance', () =>
        client.readContract({
          address: pair.address,
          abi: DevStablecoin.abi,
          functionName: 'allowance',
          args: [wallet, factory],
        }),
      );
      if (allowance < firstBuy) {
        // Exactly the first buy (site fee included), never an unlimited allowance: the factory pulls it once.
        const data = encodeFunctionData({
          abi: DevStablecoin.abi,
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
          abi: DevStablecoin.abi,
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
    const [bnb, gasPriceWei] = await Promise.all([
      chainRead('the wallet balance', () => client.getBalance({ address: wallet })),
      chainRead('the gas price', async () => (await readFees(client, this.chain.chainId)).maxFeePerGas),
    ]);
    const bnbCurrency = { decimals: 18, symbol: 'BNB' };
    if (bnb < value) {
      throw new ApiError(
        'INSUFFICIENT_BALANCE',
        `the wallet holds ${formatWithSymbol(bnb, bnbCurrency)}; the launch needs ${formatWithSymbol(value, bnbCurrency)} plus gas`,
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
      tx.gas = gas.toString();
      simulation = { ran: true, ok: true };
    }
    const maxWei = gas * gasPriceWei;
    if (bnb < value + maxWei) {
      throw new ApiError(
        'INSUFFICIENT_BALANCE',
        `the wallet holds ${formatWithSymbol(bnb, bnbCurrency)}; it needs ${formatWithSymbol(value, bnbCurrency)} plus up to ${formatWithSymbol(maxWei, bnbCurrency)} of gas`,
      );
    }

    const usdPerPair = dollarsPerUnit(await rate(), pair.decimals);
    const capNumber = Number(formatDecimalAmount(opening.capPairWei, pair.decimals));
    const askedNumber = Number(formatDecimalAmount(capPairWei, pair.decimals));
    const creatorFeeRecipient = royaltyTo ?? wallet;
    const royaltyKind = burnBps === 0 ? 'keep' : burnBps === 10_000 ? 'holders' : 'split';
    const burnPct = burnBps / 100;
    const explain =
      `Launch ${name} (${symbol}), ${formatDecimalAmount(supplyWei, 18)} tokens, at a ${trim(capNumber)} ${pair.symbol} market cap ` +
      `against ${pair.symbol} (${FEE_TIERS.find((t) => t.bps === feeTier)?.label} pool)` +
      (firstBuy > 0n
        ? `, buying about ${formatDecimalAmount(expectedTokens, 18)} ${symbol} for ${formatWithSymbol(firstBuy, pair)} (at least ${formatDecimalAmount(minTokens, 18)}; of it a ${formatWithSymbol(firstBuyFee, pair)} site fee, ${siteFeeBps / 100}%)`
        : '') +
      (launchFeeWei > 0n ? `, paying a ${formatWithSymbol(launchFeeWei, bnbCurrency)} launch fee` : '') +
      '; the liquidity is locked for ever.';
    return {
      wallet,
      token,
      name,
      symbol,
      supply: { amount: formatDecimalAmount(supplyWei, 18), wei: supplyWei.toString() },
      pair: {
        address: pair.address,
        decimals: pair.decimals,
        symbol: pair.symbol,
        priced: usdPerPair !== null,
        ...(usdPerPair === null ? { note: 'no dollar price for this pair: send marketCapPair' } : {}),
      },
      opening: {
        tick: opening.tick,
        marketCapPair: capNumber,
        marketCapUsd: usdPerPair === null ? null : Math.round(capNumber * usdPerPair * 100) / 100,
        driftFromAskedPct: Math.round((capNumber / askedNumber - 1) * 100 * 10_000) / 10_000,
      },
      feeTier,
      firstBuy:
        firstBuy > 0n
          ? {
              spend: { amount: formatDecimalAmount(firstBuy, pair.decimals), wei: firstBuy.toString() },
              minTokens: { amount: formatDecimalAmount(minTokens, 18), wei: minTokens.toString() },
              siteFee: {
                amount: formatDecimalAmount(firstBuyFee, pair.decimals),
                wei: firstBuyFee.toString(),
                symbol: pair.symbol,
                bps: siteFeeBps,
              },
            }
          : null,
      launchFee: { amount: formatDecimalAmount(launchFeeWei, 18), wei: launchFeeWei.toString() },
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
      shape: shapeName,
      ranges: params.ranges,
      firstBuyTo: split ? split.map((s) => ({ wallet: s.wallet, pct: s.bps / 100 })) : null,
      salt,
      metadata: { uri: metadata.uri, ...metadata.details },
      requires,
      tx,
      simulation,
      cost: { gasPriceWei: gasPriceWei.toString(), maxWei: maxWei.toString(), max: formatDecimalAmount(maxWei, 18) },
      explain,
    };
  }

  private async readPair(raw: unknown): Promise<Currency> {
    const { wbnb, usdt } = this.chain.addresses;
    if (raw === undefined || raw === null || raw === 'BNB') return { address: wbnb, decimals: 18, symbol: 'BNB' };
    if (raw === 'USDT') return { address: usdt, decimals: 18, symbol: 'USDT' };
    if (typeof raw !== 'string' || !isAddress(raw, { strict: false })) {
      throw new ApiError('UNSUPPORTED_PAIR', `pair must be BNB, USDT or a BEP20 address, not ${JSON.stringify(raw)}`, {
        field: 'pair',
      });
    }
    const address = getAddress(raw);
    if (address === wbnb) return { address, decimals: 18, symbol: 'BNB' };
    try {
      const [decimals, symbol] = await Promise.all([
        this.chain.client.readContract({ address, abi: DevStablecoin.abi, functionName: 'decimals' }),
        this.chain.client.readContract({ address, abi: DevStablecoin.abi, functionName: 'symbol' }),
      ]);
      return { address, decimals, symbol };
    } catch (cause) {
      throw new ApiError('UNSUPPORTED_PAIR', `${address} does not answer decimals() and symbol() as a BEP20 token`, {
        field: 'pair',
        cause,
      });
    }
  }

  private async readCap(
    usd: unknown,
    inPair: unknown,
    pair: Currency,
    dollarRate: () => Promise<DollarRate | null>,
  ): Promise<bigint> {
    if (inPair !== undefined && inPair !== null) {
      if (usd !== undefined && usd !== null)
        throw invalid('marketCapUsd', 'send marketCapUsd or marketCapPair, not both');
      return parseDecimalAmount(inPair, pair.decimals, 'marketCapPair');
    }
    if (usd === undefined || usd === null) {
      throw new ApiError('MISSING_MARKET_CAP', 'a launch needs marketCapUsd or marketCapPair', {
        field: 'marketCapUsd',
      });
    }
    const dollars = parseDecimalAmount(usd, 18, 'marketCapUsd');
    const rate = await dollarRate();
    if (rate === null) {
      throw new ApiError('NO_PRICE', `${pair.symbol} has no live dollar price; send marketCapPair`, {
        field: 'marketCapUsd',
      });
    }
    // Dollars to pair units at the live rate, in integers throughout.
    return (dollars * rate.pairWeiPer) / rate.usdWeiPer;
  }

  private async readMetadata(body: Record<string, unknown>, name: string, symbol: string) {
    const hasDetails = DETAIL_FIELDS.some((k) => body[k] !== undefined);
    if (body.metadataURI !== undefined && body.metadataURI !== null) {
      if (hasDetails || body.image !== undefined) {
        throw new ApiError('CONFLICTING_METADATA', 'send metadataURI alone, or the image and details without it', {
          field: 'metadataURI',
        });
      }
      const resolved = await this.media.resolveMetadataURI(body.metadataURI);
      return { uri: resolved.uri, details: { image: resolved.image } as Record<string, unknown> };
    }
    if (body.image === undefined || body.image === null) {
      throw new ApiError(
        'MISSING_IMAGE',
        'a launch needs image (a link) or a metadataURI whose metadata has an image',
        {
          field: 'image',
        },
      );
    }
    const image = await this.media.fetchImage(body.image);
    const stored = await this.media.putMetadata({
      name,
      symbol,
      description: body.description,
      website: body.website,
      x: body.x,
      telegram: body.telegram,
      image: image.uri,
    });
    return {
      uri: stored.uri,
      details: { ...stored.metadata, imageUrl: image.url, url: stored.url } as Record<string, unknown>,
    };
  }

  private async freeTokenAddress(
    factory: Address,
    creator: Address,
    name: string,
    symbol: string,
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

  /** Whether someone created and priced the token's pool already: the factory would refuse it (PoolOccupied). */
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

function readText(value: unknown, field: string, maxBytes: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, `${field} must be a non-empty string`);
  if (utf8Length(value) > maxBytes)
    throw invalid(field, `${field} is ${utf8Length(value)} bytes; at most ${maxBytes} are allowed`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) throw invalid(field, `${field} must not contain control characters`);
  return value;
}

function readSupply(value: unknown): bigint {
  if (value === undefined) return DEFAULT_SUPPLY;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new ApiError('INVALID_SUPPLY', 'supply must be a whole number of tokens, as a string', { field: 'supply' });
  }
  const supply = BigInt(value);
  if (supply < 1n || supply > MAX_SUPPLY) {
    throw new ApiError('INVALID_SUPPLY', 'supply must be from 1 to 1000000000000 whole tokens', { field: 'supply' });
  }
  return supply;
}

function readFeeTier(value: unknown): number {
  if (value === undefined) return DEFAULT_FEE_TIER;
  if (!FEE_TIERS.some((t) => t.bps === value)) throw invalid('feeTier', 'feeTier must be 100, 500, 2500 or 10000');
  return value as number;
}

function readRoyalty(burnPct: unknown, royaltyTo: unknown): { burnBps: number; royaltyTo: Address | null } {
  let burnBps = 0;
  if (burnPct !== undefined) {
    const bps = typeof burnPct === 'number' ? pctToBps(burnPct) : undefined;
    if (bps === undefined || !(bps === 0 || bps === 10_000 || (bps >= 100 && bps <= 9_999))) {
      throw new ApiError('INVALID_BURN', 'burnPct must be 0, from 1 to 99 with at most two decimals, or 100', {
        field: 'burnPct',
      });
    }
    burnBps = bps;
  }
  const to = royaltyTo === undefined || royaltyTo === null ? null : readAddress(royaltyTo, 'royaltyTo');
  if (to && burnBps > 0)
    throw new ApiError('CONFLICTING_ROYALTY', 'send royaltyTo or a burnPct above 0, not both', { field: 'royaltyTo' });
  return { burnBps, royaltyTo: to };
}

function readFirstBuySlippage(value: unknown): number {
  if (value === undefined) return DEFAULT_FIRST_BUY_SLIPPAGE_PCT;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0.5 || value > 50) {
    throw new ApiError('INVALID_SLIPPAGE', 'slippagePct must be a number from 0.5 to 50', { field: 'slippagePct' });
  }
  return value;
}

function readSplit(raw: unknown, firstBuy: bigint): { wallet: Address; bps: number }[] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 20) {
    throw invalid('firstBuyTo', 'firstBuyTo must list 1 to 20 recipients');
  }
  if (firstBuy === 0n) throw invalid('firstBuyTo', 'firstBuyTo splits a first buy: send firstBuy too');
  const seen = new Set<string>();
  let total = 0;
  const split = raw.map((entry, i) => {
    const { wallet, pct } = (entry ?? {}) as { wallet?: unknown; pct?: unknown };
    const address = readAddress(wallet, `firstBuyTo[${i}].wallet`);
    const bps = typeof pct === 'number' ? pctToBps(pct) : undefined;
    if (bps === undefined || bps <= 0)
      throw invalid(`firstBuyTo[${i}].pct`, 'pct must be a positive number with at most two decimals');
    if (seen.has(address)) throw invalid(`firstBuyTo[${i}].wallet`, `${address} appears twice in firstBuyTo`);
    seen.add(address);
    total += bps;
    return { wallet: address === getAddress(DEAD) ? DEAD : address, bps };
  });
  if (total !== 10_000) throw invalid('firstBuyTo', `the shares add to ${total / 100}, not 100`);
  return split;
}

function trim(value: number): string {
  return Number(value.toPrecision(6)).toString();
}
