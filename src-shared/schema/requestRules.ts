import { type Address, getAddress } from 'viem';
import { z } from 'zod';
import { ADDRESS_PATTERN } from './common';
import type { ErrorCode } from './errorCodes';

/*
 * How a request schema answers a broken rule with the spec's error, word for word. The route's validator reads the
 * first issue of a failed parse (src-main/http/validationHook.ts): an issue made by `refuse` carries the spec's code in
 * its params, and its message is the error's; any other issue (a missing field, a wrong type) is answered from its
 * field's code, as "<field> is missing: …" or "<field> is not valid: …".
 */

/**
 * A rule a request breaks, as the spec's error: its code and message, the field when it is not the issue's path, the
 * fix when it is not the code's own, and a rank when the rule is checked after others of the same request (the issue
 * of the lowest rank is answered, then the first in the schema's field order; presence and type come at rank 0).
 */
export interface Refusal {
  code: ErrorCode;
  message: string;
  field?: string;
  fix?: string;
  rank?: number;
}

/** What zod hands a `.check` and a `.transform`: the value, and the issues it may add to. */
interface CheckPayload {
  value: unknown;
  issues: unknown[];
}

/** Adds the issue that answers `refusal`. */
export function refuse(payload: CheckPayload, { message, ...params }: Refusal): void {
  payload.issues.push({ code: 'custom', message, input: payload.value, params });
}

/** A value for a message: a string quoted (cut at `max` characters), anything else by its kind. */
export function describeValue(value: unknown, max = 40): string {
  if (typeof value === 'string') return value === '' ? 'an empty string' : `"${value.slice(0, max)}"`;
  if (value === undefined) return 'nothing';
  return `a ${value === null ? 'null' : typeof value}`;
}

export const addressMessage = (field: string) => `${field} is not an address: expected 0x followed by 40 hex digits`;

const addressDoc = { pattern: ADDRESS_PATTERN.source, example: '0x000000000022D473030F116dDEE9F6B43aC78BA3' };

/**
 * An address in a query or a path, read into its checksummed form: missing or repeated, it is answered as such; any
 * other string that is not 0x and 40 hex digits is INVALID_ADDRESS naming the field (`message` when not the usual one),
 * at rank 1 by default: after every field of the request is found present.
 */
export function addressParam(
  field: string,
  { rank = 1, message }: { rank?: number; message?: (value: string) => string } = {},
) {
  return z
    .string()
    .check((payload) => {
      if (ADDRESS_PATTERN.test(payload.value)) return;
      const text = message ? message(payload.value) : addressMessage(field);
      refuse(payload, { code: 'INVALID_ADDRESS', message: text, field, rank });
    })
    .transform((address): Address => getAddress(address))
    .meta(addressDoc);
}

/**
 * An address in a JSON body, read into its checksummed form; anything else, missing or of another type too, is
 * INVALID_ADDRESS naming the field.
 */
export function addressField(field: string) {
  return z
    .custom<string>((value) => typeof value === 'string' && ADDRESS_PATTERN.test(value), {
      error: addressMessage(field),
      params: { code: 'INVALID_ADDRESS', field },
    })
    .transform((address): Address => getAddress(address))
    .meta({ type: 'string', ...addressDoc });
}

/** The same, where null is a value of its own (a referrer of null names nobody). */
export function nullableAddressField(field: string) {
  return z
    .custom<string | null>((value) => value === null || (typeof value === 'string' && ADDRESS_PATTERN.test(value)), {
      error: addressMessage(field),
      params: { code: 'INVALID_ADDRESS', field },
    })
    .transform((address): Address | null => (address === null ? null : getAddress(address)))
    .meta({ type: ['string', 'null'], ...addressDoc });
}

/** A positive decimal in whole units: digits, and a fractional part after a dot. */
export const DECIMAL_PATTERN = /^(\d+)(?:\.(\d+))?$/;

const decimalMessage = (field: string, value: unknown) =>
  `${field} must be a positive decimal string such as "0.05", not ${describeValue(value)}`;

/**
 * A decimal amount in whole units in a query (missing or repeated, answered as such): anything else that is not digits
 * with an optional fractional part is INVALID_AMOUNT. Whether it has more places than its currency, or is zero, is
 * read with the currency's decimals (src-main/core/units/decimalAmount.ts).
 */
export function decimalParam(field: string, rank = 1) {
  return z
    .string()
    .check((payload) => {
      if (DECIMAL_PATTERN.test(payload.value)) return;
      refuse(payload, { code: 'INVALID_AMOUNT', message: decimalMessage(field, payload.value), field, rank });
    })
    .meta({ pattern: DECIMAL_PATTERN.source, example: '0.05' });
}

/** The same in a JSON body, where a missing field or another type is INVALID_AMOUNT too. */
export function decimalField(field: string) {
  return z
    .custom<string>((value) => typeof value === 'string' && DECIMAL_PATTERN.test(value), {
      error: (issue) => decimalMessage(field, issue.input),
      params: { code: 'INVALID_AMOUNT', field },
    })
    .meta({ type: 'string', pattern: DECIMAL_PATTERN.source, example: '0.05' });
}

/**
 * One of `values` in a query: missing or repeated it is answered as such, any other string is `code` with `message`.
 * Documented as the enum it is.
 */
export function choiceParam<const T extends readonly [string, ...string[]]>(
  values: T,
  refusal: Omit<Refusal, 'message'> & { message: string | ((value: string) => string) },
) {
  const { message, ...rule } = refusal;
  return z
    .string()
    .check((payload) => {
      if ((values as readonly string[]).includes(payload.value)) return;
      refuse(payload, { ...rule, message: typeof message === 'string' ? message : message(payload.value) });
    })
    .transform((value) => value as T[number])
    .meta({ enum: [...values] });
}

/** A string of a body that must match `pattern`; anything else, missing or of another type too, is `refusal`. */
export function patternField(pattern: RegExp, refusal: Refusal | ((value: unknown) => Refusal)) {
  const at = (value: unknown) => (typeof refusal === 'function' ? refusal(value) : refusal);
  return z
    .unknown()
    .check((payload) => {
      if (typeof payload.value !== 'string' || !pattern.test(payload.value)) refuse(payload, at(payload.value));
    })
    .transform((value) => value as string)
    .meta({ type: 'string', pattern: pattern.source });
}

/**
 * A page size of a query (`limit`), 1 to `max`, `fallback` when left out; anything else is INVALID_BODY naming it.
 * Shared by GET /launches and GET /tokens/{address}/trades.
 */
export function pageSizeParam(max: number, fallback: number) {
  return z
    .string()
    .check((payload) => {
      const limit = /^\d{1,4}$/.test(payload.value) ? Number(payload.value) : Number.NaN;
      if (limit >= 1 && limit <= max) return;
      refuse(payload, {
        code: 'INVALID_BODY',
        message: `limit must be a whole number from 1 to ${max}, not "${payload.value.slice(0, 40)}"`,
        field: 'limit',
        fix: `Send limit from 1 to ${max}, or leave it out for ${fallback}.`,
        rank: 1,
      });
    })
    .transform(Number)
    .optional()
    .transform((limit) => limit ?? fallback)
    .meta({
      type: 'integer',
      minimum: 1,
      maximum: max,
      default: fallback,
      description: `1 to ${max}, default ${fallback}`,
    });
}

/**
 * The known name a mistyped one was most likely meant to be: the same name in another case or with `_`/`-` between its
 * words, or one at most two edits away (one for names of up to four letters), or else one that begins with it or
 * that it begins with; null when none is that close.
 *
 * @example nearestName('slipageBps', ['wallet', 'slippageBps']) // 'slippageBps'
 */
export function nearestName(name: string, known: readonly string[]): string | null {
  const plain = (text: string) => text.toLowerCase().replace(/[_-]/g, '');
  const most = name.length <= 4 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = most + 1;
  for (const candidate of known) {
    const distance = plain(candidate) === plain(name) ? 0 : editDistance(name, candidate, most);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== null || plain(name).length < 3) return best;
  // A part of the name, or the name with more after it: `from` for fromPct, `slippageBpsMax` for slippageBps.
  return (
    known.find((candidate) => plain(candidate).startsWith(plain(name)) || plain(name).startsWith(plain(candidate))) ??
    null
  );
}

/** Edits (insert, delete, replace, swap of neighbours) from `a` to `b`; anything above `most` is `most + 1`. */
function editDistance(a: string, b: string, most: number): number {
  if (Math.abs(a.length - b.length) > most) return most + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1] ? 0 : 1;
      let cost = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + same);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        cost = Math.min(cost, (before[j - 2] as number) + 1);
      }
      row.push(cost);
    }
    before = previous;
    previous = row;
  }
  return Math.min(previous[b.length] as number, most + 1);
}

/** A name as a message quotes it: whole up to `max` characters, else its start and an ellipsis. */
const cut = (name: string, max = 40) => (name.length > max ? `${name.slice(0, max)}…` : name);

/**
 * The refusal of a body field a request does not take: INVALID_BODY naming it (`at` is where it sits, such as
 * `shape[1].frm`), with the known name it is nearest to as the fix. Ranked before every other rule: a mistyped field
 * is what makes the others look wrong (a missing wallet beside a `walet`).
 */
export function unknownFieldRefusal(key: string, known: readonly string[], at = key): Refusal {
  const near = nearestName(key, known);
  const name = cut(key);
  const takes = known.length > 0 ? `: it takes ${known.join(', ')}` : ': it takes no fields';
  return {
    code: 'INVALID_BODY',
    field: cut(at, 120),
    message: `${cut(at, 120)} is not a field of this request${takes}`,
    fix: near
      ? `Did you mean ${near}? Send it as ${near}, or leave ${name} out.`
      : `Leave ${name} out; send only the fields the request takes.`,
    rank: -1,
  };
}

/**
 * The refusal of the first key of a JSON object that is not in `known`, the one an answer names (none for what is
 * not an object, or has no such key).
 */
export function unknownFieldRefusals(value: unknown, known: readonly string[], at?: string): Refusal[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const key = Object.keys(value).find((name) => !known.includes(name));
  return key === undefined ? [] : [unknownFieldRefusal(key, known, at === undefined ? key : `${at}.${key}`)];
}

/** An object schema's fields, as closedBody reads them. */
interface Fields {
  readonly shape: Readonly<Record<string, z.core.$ZodType>>;
}

/** The object a field's schema reads, through optional, nullable and default; undefined for any other schema. */
function objectOf(schema: z.core.$ZodType): Fields | undefined {
  let inner: z.core.$ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) {
    inner = inner.def.innerType;
  }
  return inner instanceof z.ZodObject ? (inner as Fields) : undefined;
}

/** The refusals of the keys of `value` that `object` does not declare, in its object fields too. */
function undeclaredFields(value: unknown, object: Fields, at?: string): Refusal[] {
  const refusals = unknownFieldRefusals(value, Object.keys(object.shape), at);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return refusals;
  for (const [key, field] of Object.entries(object.shape)) {
    const inner = objectOf(field);
    const nested = (value as Record<string, unknown>)[key];
    if (inner && nested !== undefined) refusals.push(...undeclaredFields(nested, inner, at ? `${at}.${key}` : key));
  }
  return refusals;
}

/**
 * A JSON body of exactly `object`'s fields (and of its object fields' own): a key it does not declare is refused
 * before anything else is read (see unknownFieldRefusal), so a typo such as `slipageBps` is never taken for a body
 * without it. Documented as the object with `additionalProperties: false`.
 */
export function closedBody<Shape extends z.core.$ZodShape>(object: z.ZodObject<Shape>) {
  return z.preprocess((body, payload) => {
    for (const refusal of undeclaredFields(body, object)) refuse(payload, refusal);
    return body;
  }, object.strict());
}
