import type { Address } from 'viem';
import { formatAmount, formatExact } from '../../../src-shared/format/numbers';
import { formatLocalTime } from '../../../src-shared/format/times';
import type { TxSummary } from '../../../src-shared/inspect/decodeCall';
import { inspectBuild } from '../../../src-shared/inspect/inspectBuild';
import type { LedgerModel } from '../../../src-shared/inspect/ledgerScreens';
import { readSettings } from '../../../src-shared/inspect/readSettings';
import {
  headlineOf,
  interestWarnings,
  ledgerView,
  type PersonsChoice,
  sameCall,
} from '../../../src-shared/inspect/signingView';
import type { PreparedTx, UnsignedTxJson } from '../../../src-shared/schema/unsignedTx';
import type { BuildAnswer, UserRequest } from '../wallet/sendBuild';
import { collectFactsOf } from './CollectSummary';
import { type FlowAmount, type MoneyFlow, moneyFlowOf } from './moneyFlow';
import { requestChecks } from './requestChecks';
import type { ReviewCheck, ReviewItem, ReviewWarning } from './reviewStore';

/** The decoded call as rows: every argument, then value, gas ceiling, deadline, referrer and fees. */
function fieldsOf(summary: TxSummary): ReviewItem['fields'] {
  const fields = summary.args.map((arg) => ({ name: arg.name, value: arg.display }));
  fields.push({ name: 'value', value: summary.value.display });
  fields.push({ name: 'gas ceiling', value: summary.gas ?? 'estimated by the app when sent' });
  const named = (name: string) => fields.some((field) => field.name === name);
  if (summary.deadline !== null && !named('deadline'))
    fields.push({ name: 'deadline', value: formatLocalTime(summary.deadline * 1000) });
  if ((summary.call.kind === 'trade' || summary.call.kind === 'claim') && !named('referrer')) {
    fields.push({ name: 'referrer', value: summary.referrer ?? 'none' });
  }
  const { fees } = summary;
  if (fees.siteFeeBps !== null) fields.push({ name: 'site fee', value: `${fees.siteFeeBps / 100}%` });
  if (fees.referrerBps !== null) fields.push({ name: 'referrer cut', value: `${fees.referrerBps / 100}%` });
  for (const note of summary.notes) fields.push({ name: 'note', value: note });
  return fields;
}

/**
 * A trade's headline as a person reads it, from the decoded call like the shared headline: the exact side to the last
 * digit (with separators, since it is exact), the limit to six significant digits rounded to the person's
 * disadvantage (a floor down, a ceiling up), so it never promises more than the call does.
 */
function tradeTitle(fn: string, flow: MoneyFlow): string | null {
  const { pay, get } = flow;
  if (!pay || !get) return null;
  const exact = ({ wei, decimals, symbol }: FlowAmount) => `${formatExact(wei, decimals)} ${symbol}`;
  const bound = ({ wei, decimals, symbol }: FlowAmount, round: 'down' | 'up') =>
    `${formatAmount(wei, decimals, { significant: 6, round })} ${symbol}`;
  const side = fn.startsWith('buy') ? 'Buy' : 'Sell';
  const token = side === 'Buy' ? get.amount.symbol : pay.amount.symbol;
  return pay.label === 'You pay'
    ? `${side} ${token}: pays exactly ${exact(pay.amount)}, receives at least ${bound(get.amount, 'down')}`
    : `${side} ${token}: receives exactly ${exact(get.amount)}, pays at most ${bound(pay.amount, 'up')}`;
}

/** How main filled the transaction for signing, or why it would not. */
export type Prepared =
  | {
      ok: true;
      id: string;
      /** The wallet main signs with: the device shows it first, as From. */
      wallet: Address;
      tx: PreparedTx;
      /** The Ledger that signs, with its model when it said which (the device view is laid out as it shows it). */
      ledger: { model: LedgerModel | null } | null;
      /** What main itself warns about: the person must confirm each to main, whatever this page shows. */
      warnings: ReviewWarning[];
      /** Where main takes that confirmation: its own window, this review's ticks, or nowhere (refused). */
      confirmation: 'native-dialog' | 'page' | 'refused';
    }
  | { ok: false; message: string }
  | null;

/** The page's warnings, then those only main raised (main words its own from what the chain says). */
function withMainWarnings(page: ReviewWarning[], main: readonly ReviewWarning[]): ReviewWarning[] {
  return [...page, ...main.filter((warning) => !page.some((shown) => shown.id === warning.id))];
}

/** Why main will not sign a transaction it warns about on this server, and what would let it. */
function mainRefusesWarned(warnings: readonly ReviewWarning[]): ReviewCheck {
  return {
    id: 'app-will-sign',
    ok: false,
    message: `The app will not sign it here: it carries ${warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`} (below), and this server was started without --allow-warned-signing, so nothing on a web page can confirm them (script in a page could tick anything). Restart it with --allow-warned-signing to sign after ticking each, or use the desktop app, which asks you in a window of its own.`,
  };
}

/**
 * One transaction of an action on the review screen: decoded locally from our ABIs (src-shared, the same code as
 * `npm run inspect`), headed by what the decoded call does, checked against what the build claims and what the
 * person asked, and judged by the person's interest (warnings to tick). A step is the build's step at its position
 * (`step` is its index; null for the main transaction), never looked up by name.
 */
export function reviewTransaction(input: {
  answer: BuildAnswer;
  tx: UnsignedTxJson;
  /** The index of the step in `answer.requires`, or null for the main transaction. */
  step: number | null;
  stepLabel: string;
  request: UserRequest;
  wallet: Address;
  /** What the person chose (referrer, slippage), against which the transaction is judged. */
  choice: PersonsChoice;
  /** The filled transaction main will sign, to show what the device will; null for a browser wallet. */
  prepared: Prepared;
  askedBy?: string;
  /** The GET /settings answer the app loaded. */
  settings: unknown;
  /** Dollars per whole unit of a currency (BNB for WBNB), for the dollar values beside amounts; null for none. */
  usdPerUnit?: (address: Address) => number | null;
  now?: number;
}): ReviewItem {
  const { answer, tx, step, wallet } = input;
  const base = {
    stepLabel: input.stepLabel,
    ...(input.askedBy ? { askedBy: input.askedBy } : {}),
    raw: tx,
  };
  const settings = readSettings(input.settings);
  if ('error' in settings) {
    return {
      ...base,
      title: 'A transaction the app cannot read',
      fields: [],
      warnings: [],
      checks: [{ id: 'settings', ok: false, message: `The app's settings cannot be read: ${settings.error}.` }],
    };
  }
  const result = inspectBuild(answer, {
    known: settings.known,
    tokens: settings.tokens,
    limits: settings.limits,
    now: Math.floor((input.now ?? Date.now()) / 1000),
    signer: wallet,
    ...(input.usdPerUnit ? { usdPerUnit: input.usdPerUnit } : {}),
  });
  const inspected = step === null ? result.main : result.steps[step];
  const built = step === null ? answer.tx : answer.requires[step]?.tx;
  const checks: ReviewCheck[] = [
    ...(inspected?.checks ?? [{ id: 'step-expected', ok: false, message: `The build holds no step ${step}.` }]),
    {
      id: 'tx-is-the-build',
      ok: built !== undefined && sameCall(tx, built),
      message:
        step === null ? 'It is the transaction the build gave.' : `It is step ${step + 1} of the build, as given.`,
    },
    ...requestChecks(answer, input.request, wallet, input.askedBy ? 'bot' : 'person'),
  ];
  const summary = inspected?.summary ?? null;
  const { tokens } = result;
  const { prepared } = input;
  if (prepared && !prepared.ok) {
    checks.unshift({ id: 'app-will-sign', ok: false, message: `The app will not sign it: ${prepared.message}` });
  }
  if (prepared?.ok && prepared.confirmation === 'refused' && prepared.warnings.length > 0) {
    checks.unshift(mainRefusesWarned(prepared.warnings));
  }
  if (prepared?.ok) {
    checks.push({
      id: 'prepared-matches',
      ok: sameCall(prepared.tx, tx),
      message: 'What the signer signs is this transaction, with only nonce, fees and gas filled in.',
    });
  }
  const claims = answer as unknown as { slippageBps?: number | null };
  const flow = summary
    ? moneyFlowOf(
        summary,
        settings.known,
        tokens,
        input.usdPerUnit ?? (() => null),
        prepared?.ok ? BigInt(prepared.tx.gas) * BigInt(prepared.tx.maxFeePerGas) : null,
        wallet,
      )
    : null;
  const collect =
    summary?.call.kind === 'collect' && step === null
      ? collectFactsOf(answer, wallet, input.usdPerUnit ?? (() => null))
      : null;
  return {
    ...base,
    title: summary
      ? (summary.call.kind === 'trade' && flow && tradeTitle(summary.call.function, flow)) ||
        headlineOf(summary, settings.known, tokens)
      : 'A transaction the app cannot decode',
    ...(summary ? { contract: summary.contractLabel, fn: summary.function ?? 'unknown function' } : {}),
    fields: summary ? fieldsOf(summary) : [],
    ...(flow ? { flow } : {}),
    ...(collect ? { collect } : {}),
    checks,
    warnings: withMainWarnings(
      summary ? interestWarnings(summary, input.choice, claims, settings.known, tokens) : [],
      prepared?.ok ? prepared.warnings : [],
    ),
    ...(prepared?.ok
      ? {
          device: {
            kind: 'transaction' as const,
            ledger: prepared.ledger !== null,
            view: ledgerView(prepared.tx, settings.known, prepared.wallet, prepared.ledger?.model ?? null),
          },
        }
      : {}),
  };
}
