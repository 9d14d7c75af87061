import { CircleCheck, CircleX, FileUp, ShieldCheck, ShieldX } from 'lucide-react';
import { type DragEvent, type ReactNode, useState } from 'react';
import { formatAmount, formatExact } from '../../../src-shared/format/numbers';
import { formatLocalTime } from '../../../src-shared/format/times';
import type { Check } from '../../../src-shared/inspect/checkTransaction';
import { devnetKnownContracts } from '../../../src-shared/inspect/devnetContracts';
import { type InspectedTx, type InspectResult, inspectBuild } from '../../../src-shared/inspect/inspectBuild';
import { sameAddress } from '../../../src-shared/inspect/knownContracts';
import { mainTxOf } from '../../../src-shared/inspect/readBuild';
import { type InspectSettings, readSettings } from '../../../src-shared/inspect/readSettings';
import { useBnbUsd } from '../referrals/useBnbUsd';
import { rememberedSettings, useSettingsStore } from '../store/settingsStore';
import { Amount } from '../ui/Amount';
import { Card } from '../ui/Card';
import { cn } from '../ui/cn';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';

type Outcome =
  | { kind: 'empty' }
  | { kind: 'error'; message: string }
  | { kind: 'needs-settings'; chainId: number }
  | { kind: 'result'; result: InspectResult; source: string };

/**
 * Where the contracts a build may call come from, with no network: settings pasted here, the settings the app has
 * loaded or last saw for that chain, or the devnet's fixed deployment.
 */
function settingsFor(
  chainId: number,
  pasted: string,
  loaded: unknown,
): { settings: InspectSettings; source: string } | string | null {
  if (pasted.trim()) {
    let json: unknown;
    try {
      json = JSON.parse(pasted);
    } catch {
      return 'The pasted settings are not JSON.';
    }
    const read = readSettings(json);
    return 'error' in read ? `The pasted settings: ${read.error}.` : { settings: read, source: 'the pasted settings' };
  }
  for (const [json, source] of [
    [loaded, "the app's settings"],
    [rememberedSettings(chainId), 'the settings the app last saw for this chain'],
  ] as const) {
    if ((json as { chainId?: unknown } | undefined)?.chainId !== chainId) continue;
    const read = readSettings(json);
    if (!('error' in read)) return { settings: read, source };
  }
  if (chainId === 31337) {
    const { known, tokens } = devnetKnownContracts();
    return {
      settings: { known, tokens, limits: { tradeDeadlineSeconds: 1200, permitDays: 30 } },
      source: "the devnet's fixed addresses",
    };
  }
  return null;
}

/**
 * @param bnbUsd BNB's dollar price where the app has one, so failed checks say BNB amounts in dollars too; the
 *   inspector works without it (offline), in units only.
 */
function inspect(text: string, pastedSettings: string, loaded: unknown, bnbUsd: number | null): Outcome {
  if (!text.trim()) return { kind: 'empty' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    return { kind: 'error', message: `That is not JSON: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  const tx = mainTxOf(json);
  if (!tx)
    return { kind: 'error', message: 'It holds no transaction: paste a build answer or an unsigned transaction.' };
  const found = settingsFor(tx.chainId, pastedSettings, loaded);
  if (typeof found === 'string') return { kind: 'error', message: found };
  if (!found) return { kind: 'needs-settings', chainId: tx.chainId };
  const { settings, source } = found;
  const result = inspectBuild(json, {
    known: settings.known,
    tokens: settings.tokens,
    limits: settings.limits,
    now: Math.floor(Date.now() / 1000),
    usdPerUnit: (address) => (sameAddress(address, settings.known.wbnb) ? bnbUsd : null),
  });
  return { kind: 'result', result, source };
}

/** An exact whole-unit amount and its symbol ("30416321.729622597192547042 MCAT"), or an ISO time, in decoded text. */
const READABLE = /(\d+)(?:\.(\d+))? ([A-Z][A-Za-z0-9]{0,15})\b|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

/**
 * The decoder's text as a trader reads it: its exact whole-unit amounts with separators and six significant digits
 * (the exact figure on hover), its ISO times in local time. Addresses, per cents and the rest are shown as decoded.
 *
 * @example <Readable text="receives at least 30416321.729622597192547042 MCAT" /> // receives at least 30,416,321.7 MCAT
 */
function Readable({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(READABLE)) {
    const at = match.index ?? 0;
    parts.push(text.slice(last, at));
    const [found, whole, fraction = '', symbol] = match;
    if (whole === undefined || symbol === undefined) {
      parts.push(
        <time key={at} dateTime={found} title={found}>
          {formatLocalTime(found)}
        </time>,
      );
    } else {
      const wei = BigInt(`${whole}${fraction}`);
      parts.push(
        <span key={at} className="tabular whitespace-nowrap" title={`${formatExact(wei, fraction.length)} ${symbol}`}>
          {formatAmount(wei, fraction.length, { significant: 6 })} {symbol}
        </span>,
      );
    }
    last = at + found.length;
  }
  parts.push(text.slice(last));
  return <span className="[overflow-wrap:anywhere]">{parts}</span>;
}

/** Failed checks before passed ones, each group in its own order, as the review screen lists them. */
function failedFirst(checks: readonly Check[]): Check[] {
  return [...checks.filter((check) => !check.ok), ...checks.filter((check) => check.ok)];
}

/** Every failed check of the build, named by the transaction it is on: shown under the verdict, before any detail. */
function FailedChecks({ result }: { result: InspectResult }) {
  const labelled = [
    ...result.steps.map((step, i) => ({ label: `Step ${i + 1}: ${step.step}`, checks: step.checks })),
    { label: 'The transaction', checks: result.main.checks },
  ];
  const failed = labelled.flatMap(({ label, checks }) =>
    checks.filter((check) => !check.ok).map((check) => ({ label, check })),
  );
  if (failed.length === 0) return null;
  return (
    <ul className="mt-2 flex flex-col gap-1 text-sm" data-testid="inspect-failed-checks">
      {failed.map(({ label, check }) => (
        <li
          key={`${label}:${check.id}:${check.message}`}
          className="check-failed"
          data-testid={`inspect-failed-${check.id}`}
        >
          <span className="font-medium text-down">
            <Readable text={check.message} />
          </span>
          <span className="text-muted"> · {label}</span>
        </li>
      ))}
    </ul>
  );
}

function Transaction({ label, inspected, testId }: { label: string; inspected: InspectedTx; testId: string }) {
  const { summary } = inspected;
  const bnbUsd = useBnbUsd();
  const checks = failedFirst(inspected.checks);
  const failed = checks.filter((check) => !check.ok).length;
  return (
    <Card
      testId={testId}
      flush
      title={label}
      actions={
        <span className={cn('text-xs font-semibold', failed ? 'text-down' : 'text-up')}>
          {failed ? `${failed} of ${checks.length} checks failed` : `${checks.length} checks passed`}
        </span>
      }
    >
      {summary && (
        <div className="px-4 pb-3">
          <p>
            <strong>{summary.contractLabel}</strong>.<code>{summary.function ?? 'unknown function'}</code>{' '}
            <span className="text-muted">on chain {summary.chainId}</span>
          </p>
          <table className="mt-2 w-full">
            <tbody>
              {summary.args.map((arg) => (
                <tr key={arg.name}>
                  <th scope="row" className="w-2/5 font-mono text-xs font-normal text-muted">
                    {arg.name}
                  </th>
                  <td className="text-right">
                    <Readable text={arg.display} />
                  </td>
                </tr>
              ))}
              <tr>
                <th scope="row" className="font-mono text-xs font-normal text-muted">
                  value
                </th>
                <td className="text-right">
                  <Amount wei={summary.value.wei} decimals={18} symbol="BNB" significant={6} usdPerUnit={bnbUsd} />
                </td>
              </tr>
              <tr>
                <th scope="row" className="font-mono text-xs font-normal text-muted">
                  gas ceiling
                </th>
                <td className="text-right tabular">
                  {summary.gas ? BigInt(summary.gas).toLocaleString('en-US') : 'none given'}
                </td>
              </tr>
            </tbody>
          </table>
          {summary.notes.map((note) => (
            <p key={note} className="mt-2 text-xs text-muted">
              {note}
            </p>
          ))}
        </div>
      )}
      <ul className="m-0 list-none border-t border-line p-0">
        {checks.map((check) => (
          <li
            key={`${check.id}:${check.message}`}
            className={check.ok ? 'check-ok' : 'check-failed'}
            data-testid={`inspect-check-${check.id}`}
          >
            <span className="flex items-start gap-2 border-b border-line px-4 py-2 last:border-b-0">
              {check.ok ? (
                <CircleCheck size={16} aria-label="passed" className="mt-0.5 shrink-0 text-up" />
              ) : (
                <CircleX size={16} aria-label="failed" className="mt-0.5 shrink-0 text-down" />
              )}
              <span className={check.ok ? 'text-fg' : 'font-medium text-down'}>
                <Readable text={check.message} />
              </span>
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/**
 * The offline inspector: paste, open or drop any build answer or unsigned transaction and see what it does and whether
 * it does what it claims, decoded by the same code as the review screen and `npm run inspect`. Nothing is sent anywhere.
 */
export function InspectPage() {
  const [text, setText] = useState('');
  const [pastedSettings, setPastedSettings] = useState('');
  const [dragging, setDragging] = useState(false);
  const state = useSettingsStore((s) => s.state);
  const bnbUsd = useBnbUsd();
  const outcome = inspect(text, pastedSettings, state.status === 'ready' ? state.settings : undefined, bnbUsd);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void file.text().then(setText);
  };
  return (
    <>
      <PageHeader
        title="Inspect a transaction"
        description="Paste a build answer (buy, sell, launch, claim or a bot's prepared request) or an unsigned transaction, or drop its file. It is decoded here with the service's contract ABIs and checked against what it claims; nothing leaves this page."
      />
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <Card
          title="The build"
          className={cn(dragging && 'border-primary ring-2 ring-primary/30')}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
          actions={
            <label className="inline-flex min-h-7 cursor-pointer items-center gap-1 rounded-lg border border-line-strong px-2.5 text-xs font-semibold hover:bg-raised">
              <FileUp size={14} aria-hidden="true" /> Open a file
              <input
                type="file"
                className="sr-only"
                accept="application/json,.json,.txt"
                aria-label="Open a build or transaction file"
                data-testid="inspect-file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) void file.text().then(setText);
                }}
              />
            </label>
          }
        >
          <textarea
            className="min-h-72 w-full font-mono text-xs"
            rows={16}
            spellCheck={false}
            placeholder="{ &quot;tx&quot;: { &quot;to&quot;: &quot;0x…&quot;, &quot;data&quot;: &quot;0x…&quot; }, … }  (or drop a .json file here)"
            aria-label="The build or unsigned transaction to inspect"
            data-testid="inspect-input"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          {outcome.kind === 'error' && (
            <p className="mt-2 rounded-lg bg-down-soft px-3 py-2 text-down" role="alert" data-testid="inspect-error">
              {outcome.message}
            </p>
          )}
          {(outcome.kind === 'needs-settings' || pastedSettings) && (
            <div className="mt-3 flex flex-col gap-1.5">
              {outcome.kind === 'needs-settings' ? (
                <p data-testid="inspect-needs-settings">
                  The app knows no contracts for chain {outcome.chainId}. Paste that network's GET /settings answer:
                </p>
              ) : (
                <p className="text-muted">The network's GET /settings answer:</p>
              )}
              <textarea
                className="w-full font-mono text-xs"
                rows={5}
                spellCheck={false}
                aria-label="The network's GET /settings answer"
                data-testid="inspect-settings"
                value={pastedSettings}
                onChange={(event) => setPastedSettings(event.target.value)}
              />
            </div>
          )}
        </Card>
        <div className="flex min-w-0 flex-col gap-4">
          {outcome.kind === 'result' ? (
            <>
              <div
                data-testid="inspect-verdict"
                data-ok={String(outcome.result.ok)}
                className={cn(
                  'flex items-start gap-3 rounded-xl border p-4',
                  outcome.result.ok ? 'border-up/40 bg-up-soft' : 'border-down/40 bg-down-soft',
                )}
              >
                {outcome.result.ok ? (
                  <ShieldCheck size={22} aria-hidden="true" className="shrink-0 text-up" />
                ) : (
                  <ShieldX size={22} aria-hidden="true" className="shrink-0 text-down" />
                )}
                <div>
                  <p className={cn('font-semibold', outcome.result.ok ? 'text-up' : 'text-down')}>
                    {outcome.result.ok ? 'Every check passed.' : 'A check failed: do not sign this.'}
                  </p>
                  <FailedChecks result={outcome.result} />
                  <p className="mt-1 text-xs text-muted">Contracts from {outcome.source}.</p>
                </div>
              </div>
              {outcome.result.steps.map((step, i) => (
                <Transaction
                  key={step.step}
                  label={`Step ${i + 1}: ${step.step}`}
                  inspected={step}
                  testId="inspect-step"
                />
              ))}
              <Transaction label="The transaction" inspected={outcome.result.main} testId="inspect-main" />
            </>
          ) : (
            <Card>
              <Empty title="Nothing to inspect yet">
                Paste a build on the left, or drop its file there: the verdict and every decoded step show here.
              </Empty>
            </Card>
          )}
        </div>
      </div>
    </>
  );
}
