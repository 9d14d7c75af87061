import { isAddress, parseUnits } from 'viem';
import type { Settings } from '../api/settings';
import type { LaunchDraft } from './launchForm';
import { readDraftShape } from './shapeDraft';

/** A field the wizard cannot send as it is: `missing` ones are listed by the button, the rest shown by the field. */
export interface LaunchProblem {
  code: string;
  message: string;
  missing?: boolean;
}

export interface LaunchAsk {
  /** The POST /build/launch body without `wallet`, which sendBuild adds for the signer. */
  body: Record<string, unknown>;
  /** Keyed by the body field the service would name (`symbol`, `firstBuyTo[1].pct`, `shape`...). */
  problems: Record<string, LaunchProblem>;
  /** The pair currency's symbol, for labels. */
  pairSymbol: string;
}

/** The spec's limits on a launch. */
const MAX_NAME_BYTES = 64;
const MAX_SYMBOL_BYTES = 32;
const MAX_SUPPLY = 1_000_000_000_000n;
const MAX_SPLIT_ROWS = 20;
const DECIMAL = /^\d+(?:\.\d+)?$/;
const PCT_2DP = /^\d+(?:\.\d{1,2})?$/;

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/** Hundredths of a per cent typed with at most two decimals ("12.5" → 1250), exactly; null otherwise. */
function bpsOfPct(text: string): number | null {
  const trimmed = text.trim();
  if (!PCT_2DP.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** A positive decimal amount with no more places than the currency has (unknown currencies: checked by the service). */
function amountProblem(text: string, decimals: number | null, what: string): LaunchProblem | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return { code: 'INVALID_AMOUNT', message: `${what} must be a positive decimal number.` };
  const places = trimmed.split('.')[1]?.length ?? 0;
  if (decimals !== null && places > decimals) {
    return { code: 'TOO_MANY_DECIMALS', message: `${what} has more than ${decimals} decimal places.` };
  }
  if (parseUnits(trimmed, places) === 0n) {
    return { code: 'INVALID_AMOUNT', message: `${what} must be above 0.` };
  }
  return null;
}

/** A launch text field's problem: empty, over its byte limit, or holding control characters. */
function textProblem(text: string, what: string, maxBytes: number): LaunchProblem | null {
  if (text === '') return { code: 'INVALID_LAUNCH', message: `${what} is needed.`, missing: true };
  const bytes = utf8Bytes(text);
  if (bytes > maxBytes) {
    return { code: 'INVALID_LAUNCH', message: `${what} is ${bytes} bytes; at most ${maxBytes} are allowed.` };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(text)) return { code: 'INVALID_LAUNCH', message: `${what} has control characters.` };
  return null;
}

/**
 * The launch request a draft makes, and every problem the spec lets the page see before asking: required fields,
 * byte limits, amounts, addresses, the first-buy split adding to 100, slippage, burn share and the shape. Anything
 * left (a pair that is not a token, a balance, the chain) is for the service to judge.
 */
export function launchBodyOf(draft: LaunchDraft, settings: Settings): LaunchAsk {
  const problems: Record<string, LaunchProblem> = {};
  const body: Record<string, unknown> = {};
  const flag = (field: string, problem: LaunchProblem | null) => {
    if (problem && !problems[field]) problems[field] = problem;
  };

  // The logo.
  if (draft.image.status === 'ready') body.image = draft.image.uri;
  else if (draft.image.status === 'uploading') {
    flag('image', { code: 'MISSING_IMAGE', message: 'The logo is still uploading.', missing: true });
  } else flag('image', { code: 'MISSING_IMAGE', message: 'A logo is needed.', missing: true });

  // Name, symbol and details.
  const name = draft.name.trim();
  const symbol = draft.symbol.trim();
  flag('name', textProblem(name, 'The name', MAX_NAME_BYTES));
  flag('symbol', textProblem(symbol, 'The symbol', MAX_SYMBOL_BYTES));
  body.name = name;
  body.symbol = symbol;
  for (const key of ['description', 'website', 'x', 'telegram'] as const) {
    const value = draft[key].trim();
    if (value !== '') body[key] = value;
  }

  // The pair, whose decimals the amounts are checked against.
  const listed = settings.pairs.find((p) => (p.native ? 'BNB' : p.address) === draft.pair);
  let decimals: number | null = 18;
  let pairSymbol = 'BNB';
  if (draft.pair === 'other') {
    const address = draft.otherPair.trim();
    decimals = null;
    pairSymbol = 'pair units';
    if (address === '')
      flag('pair', { code: 'UNSUPPORTED_PAIR', message: 'Type the pair token address.', missing: true });
    else if (!isAddress(address, { strict: false })) {
      flag('pair', { code: 'INVALID_ADDRESS', message: 'The pair must be a 0x address of a BEP20 token.' });
    }
    body.pair = address;
  } else if (listed) {
    decimals = listed.decimals;
    pairSymbol = listed.symbol;
    body.pair = listed.native ? 'BNB' : listed.address;
  } else {
    body.pair = 'BNB';
  }

  // Market cap, supply and fee tier.
  const capField = draft.capUnit === 'usd' ? 'marketCapUsd' : 'marketCapPair';
  if (draft.marketCap.trim() === '') {
    flag(capField, { code: 'MISSING_MARKET_CAP', message: 'The opening market cap is needed.', missing: true });
  } else {
    flag(capField, amountProblem(draft.marketCap, draft.capUnit === 'usd' ? 18 : decimals, 'The market cap'));
  }
  body[capField] = draft.marketCap.trim();
  const supply = (draft.supply ?? settings.launch.defaultSupply).trim();
  if (!/^\d+$/.test(supply) || BigInt(supply) < 1n || BigInt(supply) > MAX_SUPPLY) {
    flag('supply', {
      code: 'INVALID_SUPPLY',
      message: 'The supply is a whole number of tokens from 1 to 1000000000000.',
    });
  }
  body.supply = supply;
  body.feeTier = draft.feeTier ?? settings.launch.defaultFeeTier;

  // The first buy, its split and its slippage.
  const firstBuy = draft.firstBuy.trim();
  if (firstBuy !== '') {
    flag('firstBuy', amountProblem(firstBuy, decimals, 'The first buy'));
    body.firstBuy = firstBuy;
    const slippage = Number(draft.slippagePct.trim());
    if (!DECIMAL.test(draft.slippagePct.trim()) || slippage < 0.5 || slippage > 50) {
      flag('slippagePct', { code: 'INVALID_SLIPPAGE', message: 'Slippage must be from 0.5% to 50%.' });
    }
    body.slippagePct = slippage;
  }
  if (draft.splitOn) {
    if (firstBuy === '') flag('firstBuyTo', { code: 'INVALID_LAUNCH', message: 'A split needs a first buy to split.' });
    if (draft.split.length < 1 || draft.split.length > MAX_SPLIT_ROWS) {
      flag('firstBuyTo', { code: 'INVALID_LAUNCH', message: `A split has 1 to ${MAX_SPLIT_ROWS} recipients.` });
    }
    const seen = new Set<string>();
    let total = 0;
    draft.split.forEach((row, i) => {
      const wallet = row.wallet.trim();
      if (!isAddress(wallet, { strict: false })) {
        flag(`firstBuyTo[${i}].wallet`, { code: 'INVALID_ADDRESS', message: 'A 0x wallet address is needed.' });
      } else if (seen.has(wallet.toLowerCase())) {
        flag(`firstBuyTo[${i}].wallet`, { code: 'INVALID_LAUNCH', message: 'This wallet is already in the split.' });
      }
      seen.add(wallet.toLowerCase());
      const bps = bpsOfPct(row.pct);
      if (bps === null || bps === 0) {
        flag(`firstBuyTo[${i}].pct`, { code: 'INVALID_LAUNCH', message: 'A share above 0, two decimals at most.' });
      } else total += bps;
    });
    if (total !== 10_000 && !problems.firstBuyTo) {
      flag('firstBuyTo', { code: 'INVALID_LAUNCH', message: `The shares add to ${total / 100}%, not 100%.` });
    }
    body.firstBuyTo = draft.split.map((row) => ({ wallet: row.wallet.trim(), pct: Number(row.pct.trim()) }));
  }

  // Royalty: a burn share or another wallet, never both.
  if (draft.royalty === 'burn') {
    const bps = bpsOfPct(draft.burnPct);
    if (bps === null || !(bps === 0 || bps === 10_000 || (bps >= 100 && bps <= 9_999))) {
      flag('burnPct', { code: 'INVALID_BURN', message: 'The burn share is 0, 1 to 99 (two decimals at most) or 100.' });
    }
    body.burnPct = Number(draft.burnPct.trim());
  } else if (draft.royalty === 'to') {
    const to = draft.royaltyTo.trim();
    if (!isAddress(to, { strict: false })) {
      flag('royaltyTo', { code: 'INVALID_ADDRESS', message: 'A 0x wallet address is needed.', missing: to === '' });
    }
    body.royaltyTo = to;
  }

  // The shape.
  if (draft.shapeMode === 'custom') {
    const shape = readDraftShape(draft.ranges);
    const first = shape.problems[0];
    if (first) flag('shape', { code: 'INVALID_SHAPE', message: first.message });
    body.shape = shape.ranges;
  } else {
    body.shape = draft.shapeMode;
  }

  return { body, problems, pairSymbol };
}
