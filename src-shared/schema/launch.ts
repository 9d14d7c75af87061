import { z } from 'zod';
import { ADDRESS_PATTERN as ADDRESS, utf8Bytes } from './common';
import { type Refusal, refuse, unknownFieldRefusals } from './requestRules';

/**
 * The POST /build/launch body as one schema: the service parses with it, the OpenAPI document is generated from it,
 * and the launch wizard shows its field errors from it. It carries every rule that needs nothing but the body; what
 * needs the chain or the settings (the pair's decimals, pause, prices, balances, the metadata behind a link) is the
 * service's.
 *
 * Each broken rule is an issue whose params carry the spec's `code` and `field`: see `launchProblems`.
 */

/** A rule of the spec broken by a request: its code, the body field it names, and what was wrong. */
export interface RequestProblem {
  code: string;
  field: string;
  message: string;
  /** What to do, where the rule has a fix of its own (an unknown field: the name it is nearest to). */
  fix?: string;
}

const WHOLE = /^\d+$/;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export const MAX_NAME_BYTES = 64;
export const MAX_SYMBOL_BYTES = 32;
export const MAX_SUPPLY = 1_000_000_000_000n;
export const MAX_SPLIT_RECIPIENTS = 20;
export const MAX_SHAPE_RANGES = 4;
export const LAUNCH_FEE_TIERS = [100, 500, 2500, 10000] as const;
export const SHAPE_PRESET_NAMES = ['flat', 'stepped', 'steep'] as const;
export const MIN_FIRST_BUY_SLIPPAGE_PCT = 0.5;
export const MAX_FIRST_BUY_SLIPPAGE_PCT = 50;
/** The token details stored in the launch's metadata beside its logo. */
export const DETAIL_FIELDS = ['description', 'website', 'x', 'telegram'] as const;

/**
 * The order the spec's checks run in: a body breaking several rules answers the first of them. Steps are the body's
 * fields, with the rules across fields between them (`royalty`: royaltyTo with a burn; `caps`: both caps sent...).
 */
const STEPS = [
  'wallet',
  'name',
  'symbol',
  'supply',
  'feeTier',
  'shape',
  'burnPct',
  'royaltyTo',
  'royalty',
  'slippagePct',
  'pair',
  'caps',
  'marketCapPair',
  'capMissing',
  'marketCapUsd',
  'firstBuy',
  'firstBuyTo:count',
  'firstBuyTo:needsBuy',
  'firstBuyTo',
  'firstBuyTo:total',
  'metadata',
  'metadataURI',
  'imageMissing',
  'image',
  ...DETAIL_FIELDS,
] as const;
type Step = (typeof STEPS)[number];

/** The code a field's malformed value answers, when its issue names none of its own. */
const FIELD_CODES: Record<string, string> = {
  wallet: 'INVALID_ADDRESS',
  name: 'INVALID_LAUNCH',
  symbol: 'INVALID_LAUNCH',
  supply: 'INVALID_SUPPLY',
  feeTier: 'INVALID_LAUNCH',
  shape: 'INVALID_SHAPE',
  burnPct: 'INVALID_BURN',
  royaltyTo: 'INVALID_ADDRESS',
  slippagePct: 'INVALID_SLIPPAGE',
  pair: 'UNSUPPORTED_PAIR',
  marketCapPair: 'INVALID_AMOUNT',
  marketCapUsd: 'INVALID_AMOUNT',
  firstBuy: 'INVALID_AMOUNT',
  firstBuyTo: 'INVALID_LAUNCH',
  'firstBuyTo.wallet': 'INVALID_ADDRESS',
  'firstBuyTo.pct': 'INVALID_LAUNCH',
  metadataURI: 'INVALID_METADATA_URI',
  image: 'INVALID_IMAGE',
  description: 'INVALID_METADATA',
  website: 'INVALID_METADATA',
  x: 'INVALID_METADATA',
  telegram: 'INVALID_METADATA',
};

interface ProblemParams {
  code?: string;
  field?: string;
  step?: Step;
  fix?: string;
  /** Before every step: an unknown field (see launchFieldRefusals). */
  rank?: number;
}

/** The check context zod hands `.check`: the value and the issues it may add to. */
interface CheckPayload {
  value: unknown;
  issues: unknown[];
}

function add(payload: CheckPayload, message: string, params: ProblemParams = {}, path?: (string | number)[]): void {
  payload.issues.push({ code: 'custom', message, input: payload.value, params, ...(path ? { path } : {}) });
}

/**
 * A percentage with at most two decimals in basis points, exactly (no float rounding at the edge); undefined
 * otherwise.
 *
 * @example pctToBps(12.5) // 1250
 */
export function pctToBps(value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  const bps = Math.round(value * 100);
  return Math.abs(bps - value * 100) < 1e-6 ? bps : undefined;
}

/** Whether a burn share in basis points is one the spec allows: 0, 1% to 99.99%, or 100%. */
function isBurnBps(bps: number): boolean {
  return bps === 0 || bps === 10_000 || (bps >= 100 && bps <= 9_999);
}

const addressMessage = (field: string) => `${field} is not an address: expected 0x followed by 40 hex digits`;

const describeValue = (value: unknown): string => {
  if (typeof value === 'string') return value === '' ? 'an empty string' : `"${value.slice(0, 40)}"`;
  if (value === undefined) return 'nothing';
  return `a ${value === null ? 'null' : typeof value}`;
};

/** Fields where null has always meant "not sent" (the others refuse null as a wrong type). */
const NULL_MEANS_ABSENT = [
  'marketCapUsd',
  'marketCapPair',
  'pair',
  'firstBuy',
  'firstBuyTo',
  'image',
  'metadataURI',
  'royaltyTo',
  ...DETAIL_FIELDS,
] as const;

/**
 * Null as absence, on the body as a whole: the field keeps its key (sending `image: null` with a metadataURI is still
 * sending both), and the document still shows each field as what it is when sent. A field the launch does not take is
 * refused first, naming it (launchFieldRefusals).
 */
function nullsAsAbsent(body: unknown, payload: CheckPayload): unknown {
  for (const refusal of launchFieldRefusals(body)) refuse(payload, refusal);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...body };
  for (const key of NULL_MEANS_ABSENT) if (copy[key] === null) copy[key] = undefined;
  return copy;
}

/** A field listed in NULL_MEANS_ABSENT: optional, its null made absent before it is read. */
function absentWhenNull<T extends z.ZodType>(schema: T) {
  return schema.optional();
}

function address(field: string) {
  return z.string({ error: addressMessage(field) }).check((payload) => {
    if (!ADDRESS.test(payload.value)) add(payload, addressMessage(field));
  });
}

function label(field: 'name' | 'symbol', maxBytes: number) {
  return z.string({ error: `${field} must be a non-empty string` }).check((payload) => {
    const value = payload.value;
    const bytes = utf8Bytes(value);
    if (value.trim() === '') add(payload, `${field} must be a non-empty string`);
    else if (bytes > maxBytes) add(payload, `${field} is ${bytes} bytes; at most ${maxBytes} are allowed`);
    else if (CONTROL.test(value)) add(payload, `${field} must not contain control characters`);
  });
}

/** A positive decimal string; whether its places fit the currency is the service's to say, once it knows the pair. */
function amount(field: string) {
  const notDecimal = (value: unknown) =>
    `${field} must be a positive decimal string such as "0.05", not ${describeValue(value)}`;
  return z.string({ error: (issue) => notDecimal(issue.input) }).check((payload) => {
    const value = payload.value;
    if (!DECIMAL.test(value)) add(payload, notDecimal(value));
    else if (!/[1-9]/.test(value)) add(payload, `${field} must be greater than zero`);
  });
}

/** Why a shape is not a preset nor 1 to 4 ascending ranges whose bps add to 10,000; null when it is one. */
function shapeProblem(shape: unknown): string | null {
  if (typeof shape === 'string') {
    return (SHAPE_PRESET_NAMES as readonly string[]).includes(shape)
      ? null
      : `shape "${shape}" is not a preset: use flat, stepped or steep, or a list of ranges`;
  }
  if (!Array.isArray(shape) || shape.length < 1 || shape.length > MAX_SHAPE_RANGES) {
    return `shape must be flat, stepped, steep, or a list of 1 to ${MAX_SHAPE_RANGES} ranges`;
  }
  let total = 0;
  let previousTo = 0;
  for (const [i, raw] of shape.entries()) {
    const { fromPct, toPct, bps } = (raw ?? {}) as Record<string, unknown>;
    if (
      typeof fromPct !== 'number' ||
      typeof toPct !== 'number' ||
      !Number.isFinite(fromPct) ||
      !Number.isFinite(toPct)
    ) {
      return `shape[${i}] needs numbers fromPct and toPct`;
    }
    if (typeof bps !== 'number' || !Number.isInteger(bps) || bps < 1 || bps > 10_000) {
      return `shape[${i}].bps must be a whole number from 1 to 10000`;
    }
    if (fromPct < 0 || toPct > 100 || fromPct >= toPct)
      return `shape[${i}] must run from fromPct to a larger toPct within 0-100`;
    if (fromPct < previousTo) return `shape[${i}] overlaps the range before it; list ranges in ascending order`;
    previousTo = toPct;
    total += bps;
  }
  return total === 10_000 ? null : `the shape's bps add to ${total}, not 10000`;
}

const ShapeRangeSchema = z.strictObject({ fromPct: z.number(), toPct: z.number(), bps: z.number().int() });

/**
 * The presets, in per cent of the span above the opening price: the one list the service lays out
 * (core/launch/shapes.ts) and the wizard draws.
 */
export const SHAPE_PRESETS: Record<(typeof SHAPE_PRESET_NAMES)[number], readonly z.output<typeof ShapeRangeSchema>[]> =
  {
    flat: [{ fromPct: 0, toPct: 100, bps: 10_000 }],
    stepped: [
      { fromPct: 0, toPct: 10, bps: 2_500 },
      { fromPct: 10, toPct: 30, bps: 2_500 },
      { fromPct: 30, toPct: 60, bps: 2_500 },
      { fromPct: 60, toPct: 100, bps: 2_500 },
    ],
    steep: [
      { fromPct: 0, toPct: 20, bps: 1_000 },
      { fromPct: 20, toPct: 50, bps: 2_000 },
      { fromPct: 50, toPct: 80, bps: 3_000 },
      { fromPct: 80, toPct: 100, bps: 4_000 },
    ],
  };

const shapeSchema = z
  .union([z.enum(SHAPE_PRESET_NAMES), z.array(ShapeRangeSchema)], {
    error: (issue) => shapeProblem(issue.input) ?? 'shape must be flat, stepped, steep, or a list of ranges',
  })
  .check((payload) => {
    const problem = shapeProblem(payload.value);
    if (problem) add(payload, problem);
  })
  .describe(
    `How the supply is laid across prices, over 46,000 ticks (about 100x) above the opening price; the last range always runs to the top price. Presets: ${Object.entries(
      SHAPE_PRESETS,
    )
      .map(([name, ranges]) => `${name} = ${ranges.map((r) => `${r.fromPct}-${r.toPct}%: ${r.bps} bps`).join(', ')}`)
      .join('; ')}.`,
  );

const pctMessage = 'pct must be a positive number with at most two decimals';

/** One recipient of the first buy; anything that is not an object reads as one without a wallet. */
const SplitEntrySchema = z.preprocess(
  (entry) => (entry !== null && typeof entry === 'object' ? entry : {}),
  z.strictObject({
    // The message names the entry's own field (firstBuyTo[1].wallet): see ENTRY_MESSAGES.
    wallet: z.string({ error: 'not an address' }).check((payload) => {
      if (!ADDRESS.test(payload.value)) add(payload, 'not an address');
    }),
    pct: z.number({ error: pctMessage }).check((payload) => {
      const bps = pctToBps(payload.value);
      if (bps === undefined || bps <= 0) add(payload, pctMessage);
    }),
  }),
);

const firstBuyToSchema = z.array(SplitEntrySchema, { error: 'firstBuyTo must list 1 to 20 recipients' });

const burnMessage = 'burnPct must be 0, from 1 to 99 with at most two decimals, or 100';
const slippageMessage = `slippagePct must be a number from ${MIN_FIRST_BUY_SLIPPAGE_PCT} to ${MAX_FIRST_BUY_SLIPPAGE_PCT}`;
const supplyRangeMessage = 'supply must be from 1 to 1000000000000 whole tokens';
const supplyFormMessage = 'supply must be a whole number of tokens, as a string';

const LaunchFields = z.object({
  wallet: address('wallet'),
  name: label('name', MAX_NAME_BYTES).describe('up to 64 bytes'),
  symbol: label('symbol', MAX_SYMBOL_BYTES).describe('up to 32 bytes'),
  marketCapUsd: absentWhenNull(amount('marketCapUsd')).describe('opening market cap in dollars (one of the two caps)'),
  marketCapPair: absentWhenNull(amount('marketCapPair')).describe('opening market cap in the pair currency'),
  supply: z
    .string({ error: supplyFormMessage })
    .check((payload) => {
      if (!WHOLE.test(payload.value)) add(payload, supplyFormMessage);
      else if (BigInt(payload.value) < 1n || BigInt(payload.value) > MAX_SUPPLY) add(payload, supplyRangeMessage);
    })
    .optional()
    .describe('whole tokens, 1 to 1000000000000; default 1000000000'),
  pair: absentWhenNull(
    z.string({ error: (issue) => `pair must be BNB, USDT or a BEP20 address, not ${JSON.stringify(issue.input)}` }),
  ).describe('BNB (default), a listed symbol, or a BEP20 address'),
  firstBuy: absentWhenNull(amount('firstBuy')).describe('a buy in the pair currency, inside the launch transaction'),
  firstBuyTo: absentWhenNull(firstBuyToSchema),
  slippagePct: z
    .number({ error: slippageMessage })
    .check((payload) => {
      const value = payload.value;
      if (!Number.isFinite(value) || value < MIN_FIRST_BUY_SLIPPAGE_PCT || value > MAX_FIRST_BUY_SLIPPAGE_PCT) {
        add(payload, slippageMessage);
      }
    })
    .optional()
    .describe('first-buy slippage, 0.5 to 50; default 5'),
  image: absentWhenNull(z.string({ error: 'image must be an https:// link to the image' })).describe(
    'https:// link (or a URL from POST /media/image) to a PNG, JPG, GIF or WebP',
  ),
  description: absentWhenNull(detail('description')),
  website: absentWhenNull(detail('website')),
  x: absentWhenNull(detail('x')),
  telegram: absentWhenNull(detail('telegram')),
  metadataURI: absentWhenNull(z.string({ error: 'metadataURI must be an https:// or ipfs:// link' })).describe(
    'https:// or ipfs://; not with image or the details',
  ),
  burnPct: z
    .number({ error: burnMessage })
    .check((payload) => {
      const bps = pctToBps(payload.value);
      if (bps === undefined || !isBurnBps(bps)) add(payload, burnMessage);
    })
    .optional()
    .describe('0, 1 to 99 (two decimals), or 100'),
  royaltyTo: absentWhenNull(address('royaltyTo')),
  shape: shapeSchema.optional(),
  feeTier: z
    .number({ error: 'feeTier must be 100, 500, 2500 or 10000' })
    .int({ error: 'feeTier must be 100, 500, 2500 or 10000' })
    .check((payload) => {
      if (!(LAUNCH_FEE_TIERS as readonly number[]).includes(payload.value)) {
        add(payload, 'feeTier must be 100, 500, 2500 or 10000');
      }
    })
    .optional()
    .describe('100, 500, 2500 or 10000 (default)'),
});

/** The fields of a launch body, of each recipient of its first buy, and of each range of its shape. */
const LAUNCH_FIELDS = Object.keys(LaunchFields.shape);
const SPLIT_FIELDS = ['wallet', 'pct'];
const RANGE_FIELDS = Object.keys(ShapeRangeSchema.shape);

/**
 * The launch body's fields that a launch does not take, each as INVALID_BODY naming it where it sits
 * (`firstBuyTo[0].share`, `shape[1].frm`), with the known name nearest to it as the fix.
 *
 * @example launchFieldRefusals({ wallet, name, symbol, marketcapPair: '30' })[0].fix // 'Did you mean marketCapPair? …'
 */
export function launchFieldRefusals(body: unknown): Refusal[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const refusals = unknownFieldRefusals(body, LAUNCH_FIELDS);
  const { firstBuyTo, shape } = body as { firstBuyTo?: unknown; shape?: unknown };
  if (Array.isArray(firstBuyTo)) {
    for (const [i, entry] of firstBuyTo.entries()) {
      refusals.push(...unknownFieldRefusals(entry, SPLIT_FIELDS, `firstBuyTo[${i}]`));
    }
  }
  if (Array.isArray(shape)) {
    for (const [i, range] of shape.entries())
      refusals.push(...unknownFieldRefusals(range, RANGE_FIELDS, `shape[${i}]`));
  }
  return refusals;
}

function detail(field: (typeof DETAIL_FIELDS)[number]) {
  // Whether a detail is a usable link or handle is the media store's rule, applied where the metadata is stored.
  return z.string({ error: (issue) => `${field} must be a string, not ${typeof issue.input}` });
}

type Fields = z.output<typeof LaunchFields>;

/** Rules across fields, each at its step of the spec's order. They run even when a field failed, on what parsed. */
function acrossFields(payload: CheckPayload): void {
  const body = payload.value as Partial<Record<keyof Fields, unknown>>;
  const burnBps = typeof body.burnPct === 'number' ? pctToBps(body.burnPct) : 0;
  if (typeof body.royaltyTo === 'string' && burnBps !== undefined && burnBps > 0) {
    add(payload, 'send royaltyTo or a burnPct above 0, not both', {
      code: 'CONFLICTING_ROYALTY',
      field: 'royaltyTo',
      step: 'royalty',
    });
  }
  const usd = body.marketCapUsd !== undefined;
  const inPair = body.marketCapPair !== undefined;
  if (usd && inPair) {
    add(payload, 'send marketCapUsd or marketCapPair, not both', {
      code: 'INVALID_LAUNCH',
      field: 'marketCapUsd',
      step: 'caps',
    });
  }
  if (!usd && !inPair) {
    add(payload, 'a launch needs marketCapUsd or marketCapPair', {
      code: 'MISSING_MARKET_CAP',
      field: 'marketCapUsd',
      step: 'capMissing',
    });
  }
  const split = body.firstBuyTo;
  if (Array.isArray(split)) {
    const rule = (message: string, step: Step) =>
      add(payload, message, { code: 'INVALID_LAUNCH', field: 'firstBuyTo', step });
    if (split.length === 0 || split.length > MAX_SPLIT_RECIPIENTS) {
      rule('firstBuyTo must list 1 to 20 recipients', 'firstBuyTo:count');
    }
    if (body.firstBuy === undefined) rule('firstBuyTo splits a first buy: send firstBuy too', 'firstBuyTo:needsBuy');
    const seen = new Set<string>();
    let total = 0;
    for (const [i, entry] of split.entries()) {
      const { wallet, pct } = (entry ?? {}) as { wallet?: unknown; pct?: unknown };
      if (typeof wallet === 'string' && ADDRESS.test(wallet)) {
        const key = wallet.toLowerCase();
        if (seen.has(key)) {
          add(payload, `${wallet} appears twice in firstBuyTo`, { code: 'INVALID_LAUNCH', step: 'firstBuyTo' }, [
            'firstBuyTo',
            i,
            'wallet',
          ]);
        }
        seen.add(key);
      }
      total += typeof pct === 'number' ? (pctToBps(pct) ?? 0) : 0;
    }
    if (total !== 10_000) rule(`the shares add to ${total / 100}, not 100`, 'firstBuyTo:total');
  }
  if (body.metadataURI !== undefined) {
    const details = DETAIL_FIELDS.some((key) => key in body) || 'image' in body;
    if (details) {
      add(payload, 'send metadataURI alone, or the image and details without it', {
        code: 'CONFLICTING_METADATA',
        field: 'metadataURI',
        step: 'metadata',
      });
    }
  } else if (body.image === undefined) {
    add(payload, 'a launch needs image (a link) or a metadataURI whose metadata has an image', {
      code: 'MISSING_IMAGE',
      field: 'image',
      step: 'imageMissing',
    });
  }
}

/** The POST /build/launch body. Parse with `launchProblems` or `parseLaunchRequest` to get the spec's codes. */
export const LaunchRequestSchema = z.preprocess(nullsAsAbsent, LaunchFields.strict()).check(
  z.superRefine(
    (value, ctx) => {
      const payload: CheckPayload = { value, issues: [] };
      acrossFields(payload);
      for (const issue of payload.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
    },
    // Also when a field failed, so a body breaking several rules still answers the first in the spec's order; never
    // on what is not an object at all.
    { when: ({ value }) => value !== null && typeof value === 'object' && !Array.isArray(value) },
  ),
);

export type LaunchRequest = z.output<typeof LaunchFields>;
export type ShapeRange = z.output<typeof ShapeRangeSchema>;

interface IssueLike {
  code: string;
  message: string;
  path: PropertyKey[];
  params?: ProblemParams;
}

/** Messages of a split entry's own checks, which only know their field once the entry's place is known. */
const ENTRY_MESSAGES: Record<string, (field: string, issue: IssueLike) => string> = {
  'firstBuyTo.wallet': (field, issue) => (issue.params?.code ? issue.message : addressMessage(field)),
};

function fieldOf(path: PropertyKey[]): string {
  const top = String(path[0] ?? '');
  // A shape names itself as a whole; an entry of the split names its own part.
  if (top === 'shape') return 'shape';
  return path
    .slice(1)
    .reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : `${name}.${String(part)}`), top);
}

function problemOf(issue: IssueLike): RequestProblem & { rank: number; entry: number } {
  const params = issue.params ?? {};
  const field = params.field ?? fieldOf(issue.path);
  const top = String(issue.path[0] ?? field);
  const part = issue.path.length > 2 ? `${top}.${String(issue.path.at(-1))}` : top;
  const code = params.code ?? FIELD_CODES[part] ?? FIELD_CODES[top] ?? 'INVALID_LAUNCH';
  const step = params.step ?? (top as Step);
  const entry = typeof issue.path[1] === 'number' ? issue.path[1] : -1;
  const message = ENTRY_MESSAGES[part]?.(field, issue) ?? issue.message;
  const rank = params.rank ?? STEPS.indexOf(step);
  return { code, field, message, ...(params.fix ? { fix: params.fix } : {}), rank, entry };
}

/**
 * Every rule a launch body breaks, in the order the spec checks them: the first is what the service answers.
 *
 * @example launchProblems({ wallet: 'nope', name: 'Moon', symbol: 'M' })[0] // { code: 'INVALID_ADDRESS', field: 'wallet', ... }
 */
export function launchProblems(body: unknown): RequestProblem[] {
  const result = LaunchRequestSchema.safeParse(body);
  return result.success ? [] : inSpecOrder(result.error.issues);
}

function inSpecOrder(issues: readonly unknown[]): RequestProblem[] {
  return issues
    .map((issue) => problemOf(issue as IssueLike))
    .sort((a, b) => a.rank - b.rank || a.entry - b.entry)
    .map(({ rank: _rank, entry: _entry, ...problem }) => problem);
}

/**
 * Parses a launch body, or answers the first rule it breaks (in the spec's order) through `fail`, which turns it into
 * the caller's error type.
 */
export function parseLaunchRequest(body: unknown, fail: (problem: RequestProblem) => Error): LaunchRequest {
  const result = LaunchRequestSchema.safeParse(body);
  if (result.success) return result.data;
  throw fail(firstLaunchProblem(result.error.issues));
}

/** The rule a failed parse of LaunchRequestSchema answers: the first of its issues in the spec's order. */
export function firstLaunchProblem(issues: readonly unknown[]): RequestProblem {
  return inSpecOrder(issues)[0] ?? { code: 'INVALID_LAUNCH', field: '', message: 'the launch body is not valid' };
}
