import type { Address } from 'viem';
import type { TxSummary } from '../../../src-shared/inspect/decodeCall';
import { type InspectedTx, inspectBuild } from '../../../src-shared/inspect/inspectBuild';
import { readSettings } from '../../../src-shared/inspect/readSettings';
import type { BuildAnswer, UnsignedTxJson, UserRequest } from '../wallet/sendBuild';
import { requestChecks } from './requestChecks';
import type { ReviewCheck, ReviewItem } from './reviewStore';

/** The decoded call as rows: every argument, then value, gas ceiling, deadline, referrer and fees. */
function fieldsOf(summary: TxSummary): ReviewItem['fields'] {
  const fields = summary.args.map((arg) => ({ name: arg.name, value: arg.display }));
  fields.push({ name: 'value', value: summary.value.display });
  fields.push({ name: 'gas ceiling', value: summary.gas ?? 'estimated by the app when sent' });
  const named = (name: string) => fields.some((field) => field.name === name);
  if (summary.deadline !== null && !named('deadline'))
    fields.push({ name: 'deadline', value: new Date(summary.deadline * 1000).toLocaleString() });
  if ((summary.call.kind === 'trade' || summary.call.kind === 'claim') && !named('referrer')) {
    fields.push({ name: 'referrer', value: summary.referrer ?? 'none' });
  }
  const { fees } = summary;
  if (fees.siteFeeBps !== null) fields.push({ name: 'site fee', value: `${fees.siteFeeBps / 100}%` });
  if (fees.referrerBps !== null) fields.push({ name: 'referrer cut', value: `${fees.referrerBps / 100}%` });
  for (const note of summary.notes) fields.push({ name: 'note', value: note });
  return fields;
}

/** The one transaction of the inspection that is `tx` (a step's, or the main one). */
function inspectedOf(
  result: ReturnType<typeof inspectBuild>,
  step: string,
  tx: UnsignedTxJson,
): InspectedTx | undefined {
  if (step === 'main') return result.main;
  const same = (candidate: InspectedTx) =>
    candidate.summary?.to.toLowerCase() === tx.to.toLowerCase() && candidate.summary.value.wei === tx.value;
  return result.steps.find((s) => s.step === step && same(s)) ?? result.steps.find((s) => s.step === step);
}

/**
 * One transaction of an action on the review screen: decoded locally from our ABIs (src-shared, the same code as
 * `npm run inspect`), checked against what the build claims and against what the person asked; any failed check
 * blocks signing.
 */
export function reviewTransaction(input: {
  answer: BuildAnswer;
  tx: UnsignedTxJson;
  step: string;
  title: string;
  stepLabel: string;
  request: UserRequest;
  wallet: Address;
  /** The GET /settings answer the app loaded. */
  settings: unknown;
  now?: number;
}): ReviewItem {
  const { answer, tx, step, wallet } = input;
  const settings = readSettings(input.settings);
  if ('error' in settings) {
    return {
      title: input.title,
      stepLabel: input.stepLabel,
      fields: [],
      checks: [{ id: 'settings', ok: false, message: `The app's settings cannot be read: ${settings.error}.` }],
      raw: tx,
    };
  }
  const result = inspectBuild(answer, {
    known: settings.known,
    tokens: settings.tokens,
    limits: settings.limits,
    now: Math.floor((input.now ?? Date.now()) / 1000),
    signer: wallet,
  });
  const inspected = inspectedOf(result, step, tx);
  const checks: ReviewCheck[] = [
    ...(inspected?.checks ?? [{ id: 'step-expected', ok: false, message: `The build holds no step ${step}.` }]),
    ...requestChecks(answer, input.request, wallet),
  ];
  const summary = inspected?.summary;
  return {
    title: input.title,
    stepLabel: input.stepLabel,
    ...(summary ? { contract: summary.contractLabel, fn: summary.function ?? 'unknown function' } : {}),
    fields: summary ? fieldsOf(summary) : [],
    checks,
    raw: tx,
  };
}
