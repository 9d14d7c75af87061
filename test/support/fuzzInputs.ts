import fc from 'fast-check';

/** Fixed by default so a failure replays; set FUZZ_SEED to explore, and the failing seed is printed to replay it. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** A hang is a failure: no single answer may take longer than this. */
export const REQUEST_TIMEOUT_MS = 10_000;

const DEEP = 10_000;
/**
 * Query and path values are cut to this, so most requests reach the handlers; a few query values run past Node's
 * 16 KiB limit on a request head on purpose, which the server answers BODY_TOO_LARGE like an oversized body.
 */
const URL_PART = 1_500;
const OVER_HEAD = 17_000;

/** Strings that have broken parsers before: number forms, unicode edge cases, path tricks, sizes. */
export const ADVERSARIAL_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1e18',
  '1e309',
  '1E-7',
  '0x10',
  '0X10',
  '1_000',
  '1,000',
  '.5',
  '5.',
  '0.000000000000000000000001',
  'NaN',
  'Infinity',
  '-Infinity',
  String(2n ** 256n),
  String(2n ** 256n - 1n),
  String(-(2n ** 255n)),
  '9'.repeat(100),
  `0.${'9'.repeat(100)}`,
  'true',
  'null',
  'undefined',
  '[object Object]',
  '__proto__',
  'constructor',
  '\u202Egnp.exe',
  'a\u200Bb',
  '\uFEFF1',
  '😀',
  '👩‍👩‍👧‍👦',
  '\uD800',
  '\uDFFF',
  'x\u0000y',
  '\r\n',
  '../../etc/passwd',
  '%2e%2e%2f',
  '..\\..\\',
  "'; DROP TABLE api_keys; --",
  '<script>alert(1)</script>',
  '0x',
  '0xZZ',
  `0x${'0'.repeat(40)}`,
  `0x${'f'.repeat(40)}`,
  `0x${'F'.repeat(40)}`,
  `0x${'0'.repeat(64)}`,
  `0x${'a'.repeat(41)}`,
  'x'.repeat(70_000),
  'é'.repeat(5_000),
];

/** Values of every JSON type, and the shapes that go where a scalar is expected. */
export const ADVERSARIAL_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_VALUE,
  [],
  [null],
  {},
  { __proto__: 1 },
  { constructor: { prototype: 1 } },
  ['0x10'],
];

/** Raw JSON text that JSON.stringify cannot produce: duplicate keys, huge literals, deep nesting, trailing junk. */
export const RAW_JSON_TEXTS = [
  '{"a":1,"a":2}',
  '{"wallet":"0x1","wallet":{"x":1}}',
  '{"amount":1e309}',
  `{"amount":${'9'.repeat(400)}}`,
  '{"slippageBps":-0}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`,
  `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
  `{"wallet":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`,
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '\uFEFF{}',
  '{}garbage',
  '{"a":1}{"a":2}',
  '',
  'null',
  '[]',
  '"x"',
  '{',
  '{"a":',
];

/** Bytes that are not UTF-8: lone continuation bytes, overlong forms, surrogates encoded as UTF-8, a truncated tail. */
export const INVALID_UTF8_BODIES = [
  Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Uint8Array.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]),
  Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82]),
  Uint8Array.from([0x80, 0x80, 0x80]),
];

export const CONTENT_TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'image/png',
  'image/svg+xml',
  'application/octet-stream',
  '*/*',
  'nonsense',
  '',
];

/** Percent-encoded text that does not decode to UTF-8, or decodes to path tricks, for path and query segments. */
export const RAW_URL_SEGMENTS = [
  '%ff',
  '%c0%af',
  '%00',
  '%2e%2e%2f',
  '..%5c..%5c',
  '%',
  '%zz',
  '%E2%80%AE',
  '%F0%9F%98',
];

/** A string: adversarial constants, arbitrary unicode (lone surrogates included) and plain text. */
export const fuzzString = (valid: readonly string[] = []): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ADVERSARIAL_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    ...(valid.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...valid) }] : []),
  );

/** Any JSON value for a body field: wrong types, huge and odd numbers, nested shapes, and near-valid strings. */
export const fuzzValue = (valid: readonly string[] = []): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: fuzzString(valid) },
    { weight: 2, arbitrary: fc.constantFrom(...ADVERSARIAL_VALUES) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );

export interface FuzzBody {
  /** What is sent: JSON text, raw bytes, or nothing. */
  body: string | Uint8Array<ArrayBuffer> | undefined;
  contentType: string | undefined;
}

/** Valid values by field name, so a request can be valid but for one field and reach past the first check. */
export type Template = Record<string, unknown>;

const pick = (template: Template, names: readonly string[]): Template =>
  Object.fromEntries(names.filter((n) => Object.hasOwn(template, n)).map((n) => [n, template[n]]));

/**
 * A body for an operation: its known-good fields with at most one of them fuzzed (to reach deep code), an object of
 * its fields all fuzzed plus stray keys, raw odd JSON, or broken bytes.
 */
export const fuzzBody = (
  fields: readonly string[],
  valid: readonly string[],
  template: Template = {},
): fc.Arbitrary<FuzzBody> => {
  const known = fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('x');
  const good = pick(template, fields);
  const nearlyValid = fc
    .tuple(known, fuzzValue(valid), fc.boolean())
    .map(([field, value, mutate]) => JSON.stringify(mutate ? { ...good, [field]: value } : good));
  const object = fc
    .tuple(
      fc.dictionary(known, fuzzValue(valid), { maxKeys: Math.max(fields.length, 1) }),
      fc.dictionary(fc.string({ maxLength: 12 }), fuzzValue(), { maxKeys: 2 }),
    )
    .map(([own, stray]) => JSON.stringify({ ...stray, ...own }));
  return fc.record({
    body: fc.oneof(
      { weight: 4, arbitrary: nearlyValid },
      { weight: 4, arbitrary: object },
      { weight: 2, arbitrary: fc.constantFrom(...RAW_JSON_TEXTS) },
      { weight: 1, arbitrary: fc.constantFrom(...INVALID_UTF8_BODIES) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    contentType: fc.oneof(
      { weight: 4, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    ),
  });
};

/**
 * A query string over the operation's parameters: known-good values with one fuzzed, or each possibly left out,
 * repeated or raw-encoded, plus a stray one.
 */
export const fuzzQuery = (
  names: readonly string[],
  valid: readonly string[],
  template: Template = {},
): fc.Arbitrary<string> => {
  const pair = (name: fc.Arbitrary<string>) =>
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .tuple(name, fuzzString(valid))
          .map(([n, v]) => new URLSearchParams([[n, v.slice(0, URL_PART)]]).toString()),
      },
      { weight: 1, arbitrary: fc.tuple(name, fc.constantFrom(...RAW_URL_SEGMENTS)).map(([n, v]) => `${n}=${v}`) },
      { weight: 1, arbitrary: name },
      { weight: 1, arbitrary: name.map((n) => `${n}=${'9'.repeat(OVER_HEAD)}`) },
    );
  const own =
    names.length > 0 ? fc.array(pair(fc.constantFrom(...names)), { maxLength: names.length + 1 }) : fc.constant([]);
  const stray = fc.array(pair(fc.string({ maxLength: 8 }).map(encodeURIComponent)), { maxLength: 1 });
  const random = fc.tuple(own, stray).map(([a, b]) => [...a, ...b].join('&'));
  const good = Object.entries(pick(template, names)).map(([n, v]) => [n, String(v)]);
  if (names.length === 0) return random;
  const nearlyValid = fc
    .tuple(fc.constantFrom(...names), fuzzString(valid), fc.boolean())
    .map(([name, value, mutate]) => {
      const query = new URLSearchParams(good);
      if (mutate) query.set(name, value.slice(0, URL_PART));
      return query.toString();
    });
  return fc.oneof(nearlyValid, random);
};

/** A path parameter: near-valid values, adversarial strings (URL-encoded) and raw broken percent-encodings. */
export const fuzzPathParam = (valid: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fuzzString(valid).map((s) =>
        encodeURIComponent(s.slice(0, URL_PART).replace(/[\uD800-\uDFFF]/g, '\uFFFD')),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_SEGMENTS) },
  );
