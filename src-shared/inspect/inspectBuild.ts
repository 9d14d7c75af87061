import type { Address } from 'viem';
import { type Check, type CheckContext, checkTransaction } from './checkTransaction';
import { decodeCall, type TxSummary } from './decodeCall';
import type { KnownContracts, TokenInfos } from './knownContracts';
import { type BuildKind, type ReadTx, readBuild } from './readBuild';
import { DEFAULT_LIMITS } from './readSettings';

export interface InspectContext {
  known: KnownContracts;
  /** Unix seconds. */
  now: number;
  /** Token symbols and decimals; they win over what the answer says of its own tokens. */
  tokens?: TokenInfos;
  /** From GET /settings; the spec's 1,200 seconds and 30 days otherwise. */
  limits?: { tradeDeadlineSeconds: number; permitDays: number };
  /** The wallet that will sign, when known. */
  signer?: Address;
  /** Dollars per whole unit of a currency, where the reader has prices: the checks then say amounts in dollars too. */
  usdPerUnit?: (address: Address) => number | null;
}

/** One transaction: what it does, and each check on it. `summary` is null when it could not be read at all. */
export interface InspectedTx {
  summary: TxSummary | null;
  checks: Check[];
}

export interface InspectResult {
  /** `invalid` when the input is none of the answers the inspector reads (see the `input-shape` check). */
  kind: BuildKind | 'invalid';
  /** The wallet the build says it is for (the one that must sign); null for a bare transaction. */
  wallet: Address | null;
  /** The prepared request the build came in, if any. */
  intentId: string | null;
  /** The answer's `requires`, in order: to be sent before the main transaction. */
  steps: (InspectedTx & { step: string })[];
  main: InspectedTx;
  /** Every check of every transaction passed. */
  ok: boolean;
  /** The tokens whose amounts could be shown in whole units (the build's own and the context's). */
  tokens: TokenInfos;
}

/**
 * Decodes and checks everything a build answer asks the user to sign (its steps and its main transaction) against
 * the answer's own claims (wallet, token, amounts, limit, referrer, deadline, name, supply...), so a transaction
 * whose data, target, value or chain was changed shows as a failed check. Takes a trade, launch, claim or collect
 * build, a prepared request holding one, or a bare unsigned transaction; never throws.
 *
 * @example inspectBuild(await (await fetch(`${api}/build/buy`, …)).json(), { known, now: Date.now() / 1000 }).ok
 */
export function inspectBuild(json: unknown, ctx: InspectContext): InspectResult {
  try {
    return inspect(json, ctx);
  } catch (error) {
    return invalid(`the answer could not be inspected: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function inspect(json: unknown, ctx: InspectContext): InspectResult {
  const read = readBuild(json, { known: ctx.known, limits: ctx.limits ?? DEFAULT_LIMITS });
  if ('error' in read) return invalid(read.error);
  const checkCtx: CheckContext = {
    known: ctx.known,
    now: ctx.now,
    tokens: { ...read.tokens, ...ctx.tokens },
    rates: read.rates,
    ...(ctx.signer ? { signer: ctx.signer } : {}),
    ...(ctx.usdPerUnit ? { usdPerUnit: ctx.usdPerUnit } : {}),
  };
  const inspectTx = (item: ReadTx, before: Check[] = []): InspectedTx => {
    const summary = item.tx ? decodeCall(item.tx, checkCtx) : null;
    if (summary && item.notes) summary.notes.push(...item.notes);
    const checks = [...before, ...item.problems];
    if (summary && item.expectation) checks.push(...checkTransaction(summary, item.expectation, checkCtx));
    return { summary, checks };
  };
  const steps = read.steps.map((step) => ({ step: step.step, ...inspectTx(step) }));
  const main = inspectTx(read.main, read.checks);
  const all = [...steps.flatMap((s) => s.checks), ...main.checks];
  const ok = all.length > 0 && all.every((c) => c.ok);
  return {
    kind: read.kind,
    wallet: read.wallet,
    intentId: read.intentId,
    steps,
    main,
    ok,
    tokens: checkCtx.tokens ?? {},
  };
}

function invalid(message: string): InspectResult {
  return {
    kind: 'invalid',
    wallet: null,
    intentId: null,
    steps: [],
    main: { summary: null, checks: [{ id: 'input-shape', ok: false, message }] },
    ok: false,
    tokens: {},
  };
}
