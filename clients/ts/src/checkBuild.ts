// The review's own decoder and checks (src-shared/inspect), the same code the app runs before a person signs. They
// are part of this repository, not of the package's dependencies: the package's build bundles them into its
// JavaScript (scripts/buildPackage.ts), so an installed client carries them.
import type { CheckId } from '../../../src-shared/inspect/checkTransaction';
import { inspectBuild } from '../../../src-shared/inspect/inspectBuild';
import { readSettings } from '../../../src-shared/inspect/readSettings';
import type { LaunchBody } from './buildLaunch';
import type { TradeBody } from './buildTrade';
import { CompanionError } from './companionError';
import type { Settings } from './getSettings';

/** What the bot asked the service to build: checked against what came back before anything is signed. */
export type AskedBuild = { kind: 'buy' | 'sell'; body: TradeBody } | { kind: 'launch'; body: LaunchBody };

/** One check of a build: `field` names what it is about (value, recipient, referrer, token, contract …). */
export interface BuildCheck {
  field: string;
  ok: boolean;
  message: string;
  /** The `requires` step it is about; absent for the main transaction and the build's claims. */
  step?: string;
}

export interface CheckBuildContext {
  /** GET /settings of the service: the contracts a build may call and the chain it is for. */
  settings: Settings;
  /** The wallet that will sign: the build must be for it, and pay what it buys to it. */
  signer: string;
  /**
   * Referrers accepted when the request names none: the API key's own wallet, which the service offers as the
   * referrer of its key's builds. With none given, a build naming a referrer nobody asked for is refused.
   */
  keyReferrer?: string | null;
  /** Unix seconds to check deadlines against (now by default). */
  now?: number;
}

/** The field each of the review's checks is about, as a bot reads it. */
const FIELD_OF_CHECK: Record<CheckId, string> = {
  'input-shape': 'build',
  'chain-id': 'chainId',
  'to-known': 'contract',
  'function-known': 'function',
  'wallet-matches': 'wallet',
  'intent-matches': 'intent',
  'step-expected': 'requires',
  'recipient-is-signer': 'recipient',
  'recipients-match': 'recipient',
  'token-matches': 'token',
  'pair-matches': 'pair',
  'fee-tier-matches': 'feeTier',
  'amount-matches': 'amount',
  'amount-within-limit': 'limit',
  'limit-matches-slippage': 'limit',
  'value-matches': 'value',
  'deadline-future': 'deadline',
  'deadline-not-too-far': 'deadline',
  'deadline-matches': 'deadline',
  'spender-known': 'spender',
  'referrer-matches': 'referrer',
  'name-matches': 'name',
  'symbol-matches': 'symbol',
  'supply-matches': 'supply',
  'royalty-matches': 'royaltyTo',
  'salt-matches': 'salt',
  'metadata-matches': 'metadata',
};

/**
 * Checks a build against what was asked, as the app's review does before a person signs: the build's own claims
 * against the request (wallet, token, side, exact, amount, slippage, referrer; a launch's name, symbol, pair, first
 * buy, its recipients and the royalty's), then every transaction in it decoded from the contracts' ABIs and checked
 * against those claims (src-shared/inspect: chain, contract from /settings, function, token, amounts and limit, value,
 * deadline, referrer, approvals' spender). Answers every check; the build is good when all are ok.
 *
 * @example const failed = checkBuild(build, { kind: 'buy', body }, { settings, signer: wallet }).filter((c) => !c.ok);
 */
export function checkBuild(build: unknown, asked: AskedBuild, ctx: CheckBuildContext): BuildCheck[] {
  const settings = readSettings(ctx.settings);
  if ('error' in settings) {
    return [{ field: 'settings', ok: false, message: `The service's settings cannot be read: ${settings.error}.` }];
  }
  const claims = (typeof build === 'object' && build !== null ? build : {}) as Record<string, unknown>;
  const checks = asked.kind === 'launch' ? launchChecks(claims, asked.body, ctx) : tradeChecks(claims, asked, ctx);
  const inspected = inspectBuild(build, {
    known: settings.known,
    tokens: settings.tokens,
    limits: settings.limits,
    now: ctx.now ?? Math.floor(Date.now() / 1000),
    signer: ctx.signer as `0x${string}`,
  });
  if (inspected.kind !== (asked.kind === 'launch' ? 'launch' : 'trade')) {
    checks.push({ field: 'build', ok: false, message: `The answer is not a ${asked.kind} build (${inspected.kind}).` });
  }
  for (const step of inspected.steps) {
    for (const check of step.checks)
      checks.push({ field: FIELD_OF_CHECK[check.id], ...messageOf(check), step: step.step });
  }
  for (const check of inspected.main.checks) checks.push({ field: FIELD_OF_CHECK[check.id], ...messageOf(check) });
  return checks;
}

/**
 * Throws a CompanionError BUILD_MISMATCH when any check of checkBuild fails: `field` is the first field that differs,
 * `detail.failed` every failed check. Nothing has been signed when it throws.
 */
export function assertBuild(build: unknown, asked: AskedBuild, ctx: CheckBuildContext): void {
  const failed = checkBuild(build, asked, ctx).filter((check) => !check.ok);
  const first = failed[0];
  if (!first) return;
  throw new CompanionError({
    status: null,
    code: 'BUILD_MISMATCH',
    message: `The ${asked.kind} build is not what was asked, so nothing was signed: ${failed
      .map((check) => `${check.step ? `${check.step}: ` : ''}${check.message}`)
      .join('; ')}.`,
    fix:
      'Do not send it. The service (or something between it and the bot) changed the build: check COMPANION_URL ' +
      'points at your own companion, then build again.',
    field: first.field,
    detail: { failed },
    retry: false,
  });
}

function messageOf(check: { ok: boolean; message: string }): { ok: boolean; message: string } {
  return { ok: check.ok, message: check.message };
}

const same = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** A decimal string in one canonical form ("001.500" -> "1.5"), to compare what was asked with what was built. */
function canonicalDecimal(text: unknown): string | null {
  if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text.trim())) return null;
  const [whole = '0', fraction = ''] = text.trim().split('.');
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  return f ? `${w}.${f}` : w;
}

const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
    value,
  );

function tradeChecks(
  build: Record<string, unknown>,
  asked: { kind: 'buy' | 'sell'; body: TradeBody },
  ctx: CheckBuildContext,
): BuildCheck[] {
  const { body } = asked;
  const exact = body.exact ?? 'in';
  const slippageBps = body.slippageBps ?? ctx.settings.limits.defaultSlippageBps;
  const builtAmount = at(build, exact === 'in' ? 'pay' : 'receive', 'amount');
  const builtReferrer = (at(build, 'referrer', 'address') as string | undefined) ?? null;
  const referrerOk =
    body.referrer !== undefined && body.referrer !== null
      ? same(builtReferrer, body.referrer)
      : builtReferrer === null ||
        (body.referrer === undefined && ctx.keyReferrer != null && same(builtReferrer, ctx.keyReferrer));
  const askedReferrer = body.referrer ?? (ctx.keyReferrer ? `none or the API key's ${ctx.keyReferrer}` : 'none');
  return [
    check('wallet', same(build.wallet, body.wallet), `built for ${String(build.wallet)}; asked for ${body.wallet}`),
    check('wallet', same(body.wallet, ctx.signer), `asked for ${body.wallet}, but ${ctx.signer} signs`),
    check(
      'token',
      same(at(build, 'token', 'address'), body.token),
      `trades ${String(at(build, 'token', 'address'))}; asked ${body.token}`,
    ),
    check('side', build.side === asked.kind, `a ${String(build.side)}; asked a ${asked.kind}`),
    check('exact', build.exact === exact, `exact ${String(build.exact)}; asked exact ${exact}`),
    check(
      'amount',
      canonicalDecimal(builtAmount) !== null && canonicalDecimal(builtAmount) === canonicalDecimal(body.amount),
      `${exact === 'in' ? 'pays' : 'receives'} ${String(builtAmount)}; asked ${body.amount}`,
    ),
    check(
      'limit',
      build.slippageBps === slippageBps,
      `slippage ${String(build.slippageBps)} bps; asked ${slippageBps}`,
    ),
    check('referrer', referrerOk, `names referrer ${builtReferrer ?? 'none'}; asked ${askedReferrer}`),
  ];
}

function launchChecks(build: Record<string, unknown>, body: LaunchBody, ctx: CheckBuildContext): BuildCheck[] {
  const wbnb = ctx.settings.contracts.wbnb;
  const pair = at(build, 'pair', 'address');
  const askedPair = body.pair ?? 'BNB';
  const pairOk = /^0x[0-9a-fA-F]{40}$/.test(askedPair)
    ? same(pair, askedPair)
    : askedPair.toUpperCase() === 'BNB'
      ? same(pair, wbnb)
      : same(at(build, 'pair', 'symbol'), askedPair);
  const firstBuy = at(build, 'firstBuy', 'spend', 'amount') ?? null;
  const askedFirstBuy = body.firstBuy === undefined ? null : canonicalDecimal(body.firstBuy);
  const firstBuyOk =
    askedFirstBuy === null || askedFirstBuy === '0'
      ? firstBuy === null || canonicalDecimal(firstBuy) === '0'
      : canonicalDecimal(firstBuy) === askedFirstBuy;
  const builtTo = Array.isArray(build.firstBuyTo) ? (build.firstBuyTo as { wallet?: unknown; pct?: unknown }[]) : [];
  const askedTo = body.firstBuyTo ?? [];
  const recipientsOk =
    builtTo.length === askedTo.length &&
    askedTo.every((r, i) => same(builtTo[i]?.wallet, r.wallet) && builtTo[i]?.pct === r.pct);
  const royaltyTo = body.royaltyTo ?? body.wallet;
  const shown = (list: readonly { wallet?: unknown; pct?: unknown }[]) =>
    list.map((r) => `${String(r.wallet)} ${String(r.pct)}%`).join(', ') || 'the sending wallet';
  return [
    check('wallet', same(build.wallet, body.wallet), `built for ${String(build.wallet)}; asked for ${body.wallet}`),
    check('wallet', same(body.wallet, ctx.signer), `asked for ${body.wallet}, but ${ctx.signer} signs`),
    check('name', build.name === body.name, `name ${JSON.stringify(build.name)}; asked ${JSON.stringify(body.name)}`),
    check(
      'symbol',
      build.symbol === body.symbol,
      `symbol ${JSON.stringify(build.symbol)}; asked ${JSON.stringify(body.symbol)}`,
    ),
    check('pair', pairOk, `paired with ${String(pair)}; asked ${askedPair}`),
    check('firstBuy', firstBuyOk, `first buy ${String(firstBuy ?? 'none')}; asked ${body.firstBuy ?? 'none'}`),
    check('recipient', recipientsOk, `the first buy goes to ${shown(builtTo)}; asked ${shown(askedTo)}`),
    check(
      'royaltyTo',
      same(at(build, 'royalty', 'to'), royaltyTo),
      `the royalty goes to ${String(at(build, 'royalty', 'to'))}; asked ${royaltyTo}`,
    ),
    ...(body.burnPct === undefined
      ? []
      : [
          check(
            'burnPct',
            at(build, 'royalty', 'burnPct') === body.burnPct,
            `burns ${String(at(build, 'royalty', 'burnPct'))}% of the royalty; asked ${body.burnPct}%`,
          ),
        ]),
  ];
}

/** A check of the build's claims against the request: its message says what differs when it fails. */
function check(field: string, ok: boolean, mismatch: string): BuildCheck {
  return { field, ok, message: ok ? `${field} as asked` : mismatch };
}
