import { isAddress } from 'viem';
import { utf8Bytes } from '../../../src-shared/schema/common';
import {
  DETAIL_FIELDS,
  launchProblems,
  MAX_NAME_BYTES,
  MAX_SPLIT_RECIPIENTS,
  MAX_SYMBOL_BYTES,
  pctToBps,
  type RequestProblem,
} from '../../../src-shared/schema/launch';
import type { Settings } from '../api/settings';
import type { LaunchDraft } from './launchForm';
import { readDraftShape } from './shapeDraft';

/** A field the wizard cannot send as it is: `missing` ones are listed by the button, the rest shown by the field. */
export interface LaunchProblem {
  code: string;
  message: string;
  missing?: boolean;
}

/** The schema checks a whole body; sendBuild puts the signer's wallet in its place. */
const PLACEHOLDER_WALLET = `0x${'0'.repeat(40)}`;

export interface LaunchAsk {
  /** The POST /build/launch body without `wallet`, which sendBuild adds for the signer. */
  body: Record<string, unknown>;
  /** Keyed by the body field the service would name (`symbol`, `firstBuyTo[1].pct`, `shape`...). */
  problems: Record<string, LaunchProblem>;
  /** The pair currency's symbol, for labels. */
  pairSymbol: string;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/** The order the wizard lists problems in (and names what is still needed): the order of its fields on the page. */
const FORM_ORDER = [
  'image',
  'name',
  'symbol',
  'description',
  'website',
  'x',
  'telegram',
  'pair',
  'marketCapPair',
  'marketCapUsd',
  'supply',
  'feeTier',
  'firstBuy',
  'slippagePct',
  'firstBuyTo',
  'burnPct',
  'royaltyTo',
  'shape',
];

/** A number as typed, or the text itself when it is not a plain decimal, for the schema to refuse as the field's. */
const numberOrText = (text: string): number | string => (DECIMAL.test(text.trim()) ? Number(text.trim()) : text);

/** The wizard's own words for the schema's problems, so the page speaks to a person rather than to a bot. */
function inWords(problem: RequestProblem, draft: LaunchDraft, capField: string): LaunchProblem {
  const { code, field } = problem;
  const entry = /^firstBuyTo\[\d+\]\.(wallet|pct)$/.exec(field)?.[1];
  const said = (message: string, missing = false): LaunchProblem => ({
    code,
    message,
    ...(missing ? { missing } : {}),
  });
  if (field === 'name' || field === 'symbol') {
    const what = field === 'name' ? 'The name' : 'The symbol';
    const text = draft[field].trim();
    const bytes = utf8Bytes(text);
    const max = field === 'name' ? MAX_NAME_BYTES : MAX_SYMBOL_BYTES;
    if (text === '') return said(`${what} is needed.`, true);
    if (bytes > max) return said(`${what} is ${bytes} bytes; at most ${max} are allowed.`);
    return said(`${what} has control characters.`);
  }
  if (code === 'MISSING_IMAGE') {
    return said(draft.image.status === 'uploading' ? 'The logo is still uploading.' : 'A logo is needed.', true);
  }
  if (code === 'MISSING_MARKET_CAP') return said('The opening market cap is needed.', true);
  if (field === capField)
    return said(
      /zero/.test(problem.message)
        ? 'The market cap must be above 0.'
        : 'The market cap must be a positive decimal number.',
    );
  if (field === 'firstBuy')
    return said(
      /zero/.test(problem.message)
        ? 'The first buy must be above 0.'
        : 'The first buy must be a positive decimal number.',
    );
  if (field === 'supply') return said('The supply is a whole number of tokens from 1 to 1000000000000.');
  if (field === 'slippagePct') return said('Slippage must be from 0.5% to 50%.');
  if (field === 'burnPct') return said('The burn share is 0, 1 to 99 (two decimals at most) or 100.');
  if (field === 'royaltyTo') return said('A 0x wallet address is needed.', draft.royaltyTo.trim() === '');
  if (entry === 'wallet') {
    return said(code === 'INVALID_ADDRESS' ? 'A 0x wallet address is needed.' : 'This wallet is already in the split.');
  }
  if (entry === 'pct') return said('A share above 0, two decimals at most.');
  if (field === 'firstBuyTo') {
    if (/send firstBuy/.test(problem.message)) return said('A split needs a first buy to split.');
    if (/recipients/.test(problem.message)) return said(`A split has 1 to ${MAX_SPLIT_RECIPIENTS} recipients.`);
    return said(`The shares add to ${splitTotalBps(draft) / 100}%, not 100%.`);
  }
  if (field === 'shape') return said(readDraftShape(draft.ranges).problems[0]?.message ?? problem.message);
  return said(problem.message);
}

/** The shares as typed that the schema could read, in hundredths of a per cent. */
function splitTotalBps(draft: LaunchDraft): number {
  return draft.split.reduce((total, row) => total + (pctToBps(Number(row.pct.trim())) ?? 0), 0);
}

/** Whether an amount has more decimal places than its currency (unknown currencies: checked by the service). */
function tooManyPlaces(text: string, decimals: number | null, what: string): LaunchProblem | null {
  const places = text.trim().split('.')[1]?.length ?? 0;
  if (decimals === null || places <= decimals) return null;
  return { code: 'TOO_MANY_DECIMALS', message: `${what} has more than ${decimals} decimal places.` };
}

/**
 * The launch request a draft makes, and every problem the launch schema (the service's own rules) finds in it before
 * asking, in the wizard's words; plus the two that need the pair the page knows: its address as typed and the places
 * its amounts may have. Anything left (a pair that is not a token, a balance, the chain) is for the service to judge.
 */
export function launchBodyOf(draft: LaunchDraft, settings: Settings): LaunchAsk {
  const body: Record<string, unknown> = {};
  if (draft.image.status === 'ready') body.image = draft.image.uri;
  body.name = draft.name.trim();
  body.symbol = draft.symbol.trim();
  for (const key of DETAIL_FIELDS) {
    const value = draft[key].trim();
    if (value !== '') body[key] = value;
  }

  // The pair, whose decimals the amounts are checked against.
  const local: Record<string, LaunchProblem> = {};
  const listed = settings.pairs.find((p) => (p.native ? 'BNB' : p.address) === draft.pair);
  let decimals: number | null = 18;
  let pairSymbol = 'BNB';
  if (draft.pair === 'other') {
    const address = draft.otherPair.trim();
    decimals = null;
    pairSymbol = 'pair units';
    if (address === '') {
      local.pair = { code: 'UNSUPPORTED_PAIR', message: 'Type the pair token address.', missing: true };
    } else if (!isAddress(address, { strict: false })) {
      local.pair = { code: 'INVALID_ADDRESS', message: 'The pair must be a 0x address of a BEP20 token.' };
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
  const cap = draft.marketCap.trim();
  if (cap !== '') body[capField] = cap;
  const capPlaces = tooManyPlaces(cap, draft.capUnit === 'usd' ? 18 : decimals, 'The market cap');
  if (capPlaces) local[capField] = capPlaces;
  body.supply = (draft.supply ?? settings.launch.defaultSupply).trim();
  body.feeTier = draft.feeTier ?? settings.launch.defaultFeeTier;

  // The first buy, its split and its slippage.
  const firstBuy = draft.firstBuy.trim();
  if (firstBuy !== '') {
    body.firstBuy = firstBuy;
    const places = tooManyPlaces(firstBuy, decimals, 'The first buy');
    if (places) local.firstBuy = places;
    body.slippagePct = numberOrText(draft.slippagePct);
  }
  if (draft.splitOn) {
    body.firstBuyTo = draft.split.map((row) => ({ wallet: row.wallet.trim(), pct: numberOrText(row.pct) }));
  }

  // Royalty: a burn share or another wallet, never both.
  if (draft.royalty === 'burn') body.burnPct = numberOrText(draft.burnPct);
  else if (draft.royalty === 'to') body.royaltyTo = draft.royaltyTo.trim();

  // The shape: text that is not a number reads as NaN, which the schema refuses.
  body.shape = draft.shapeMode === 'custom' ? readDraftShape(draft.ranges).ranges : draft.shapeMode;

  const found = new Map<string, LaunchProblem>();
  for (const problem of launchProblems({ wallet: PLACEHOLDER_WALLET, ...body })) {
    // The schema names a missing cap by marketCapUsd; the wizard asks for the cap in the unit chosen.
    const field = problem.code === 'MISSING_MARKET_CAP' ? capField : problem.field;
    if (!found.has(field)) found.set(field, inWords(problem, draft, capField));
  }
  for (const [field, problem] of Object.entries(local)) if (!found.has(field)) found.set(field, problem);
  const rank = (field: string) => {
    const at = FORM_ORDER.indexOf(field.replace(/\[.*$/, ''));
    return at === -1 ? FORM_ORDER.length : at;
  };
  const problems = Object.fromEntries([...found].sort(([a], [b]) => rank(a) - rank(b)));
  return { body, problems, pairSymbol };
}
