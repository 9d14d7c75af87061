import { useState } from 'react';
import { devnetKnownContracts } from '../../../src-shared/inspect/devnetContracts';
import { type InspectedTx, type InspectResult, inspectBuild } from '../../../src-shared/inspect/inspectBuild';
import { mainTxOf } from '../../../src-shared/inspect/readBuild';
import { type InspectSettings, readSettings } from '../../../src-shared/inspect/readSettings';
import { rememberedSettings, useSettingsStore } from '../store/settingsStore';

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

function inspect(text: string, pastedSettings: string, loaded: unknown): Outcome {
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
  });
  return { kind: 'result', result, source };
}

function Transaction({ label, inspected, testId }: { label: string; inspected: InspectedTx; testId: string }) {
  const { summary, checks } = inspected;
  return (
    <section className="panel" data-testid={testId}>
      <h3>{label}</h3>
      {summary && (
        <>
          <p>
            <strong>{summary.contractLabel}</strong>.<code>{summary.function ?? 'unknown function'}</code> on chain{' '}
            {summary.chainId}
          </p>
          <table>
            <tbody>
              {summary.args.map((arg) => (
                <tr key={arg.name}>
                  <th scope="row">{arg.name}</th>
                  <td>{arg.display}</td>
                </tr>
              ))}
              <tr>
                <th scope="row">value</th>
                <td>{summary.value.display}</td>
              </tr>
              <tr>
                <th scope="row">gas ceiling</th>
                <td>{summary.gas ?? 'none given'}</td>
              </tr>
            </tbody>
          </table>
          {summary.notes.map((note) => (
            <p key={note} className="muted">
              {note}
            </p>
          ))}
        </>
      )}
      <ul className="review-checks">
        {checks.map((check) => (
          <li
            key={`${check.id}:${check.message}`}
            className={check.ok ? 'check-ok' : 'check-failed'}
            data-testid={`inspect-check-${check.id}`}
          >
            {check.ok ? '✓' : '✗'} {check.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The offline inspector: paste or open any build answer or unsigned transaction and see what it does and whether it
 * does what it claims, decoded by the same code as the review screen and `npm run inspect`. Nothing is sent anywhere.
 */
export function InspectPage() {
  const [text, setText] = useState('');
  const [pastedSettings, setPastedSettings] = useState('');
  const state = useSettingsStore((s) => s.state);
  const outcome = inspect(text, pastedSettings, state.status === 'ready' ? state.settings : undefined);
  return (
    <>
      <h2>Inspect a transaction</h2>
      <p className="muted">
        Paste a build answer (buy, sell, launch, claim or a bot's prepared request) or an unsigned transaction, or open
        a file. It is decoded here with the service's contract ABIs and checked against what it claims; nothing leaves
        this page.
      </p>
      <p>
        <input
          type="file"
          accept="application/json,.json,.txt"
          aria-label="Open a build or transaction file"
          data-testid="inspect-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void file.text().then(setText);
          }}
        />
      </p>
      <textarea
        className="inspect-input"
        rows={10}
        spellCheck={false}
        aria-label="The build or unsigned transaction to inspect"
        data-testid="inspect-input"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      {outcome.kind === 'error' && (
        <p className="error" role="alert" data-testid="inspect-error">
          {outcome.message}
        </p>
      )}
      {(outcome.kind === 'needs-settings' || pastedSettings) && (
        <section className="panel">
          {outcome.kind === 'needs-settings' && (
            <p data-testid="inspect-needs-settings">
              The app knows no contracts for chain {outcome.chainId}. Paste that network's GET /settings answer:
            </p>
          )}
          <textarea
            className="inspect-input"
            rows={5}
            spellCheck={false}
            aria-label="The network's GET /settings answer"
            data-testid="inspect-settings"
            value={pastedSettings}
            onChange={(event) => setPastedSettings(event.target.value)}
          />
        </section>
      )}
      {outcome.kind === 'result' && (
        <>
          <p
            data-testid="inspect-verdict"
            data-ok={String(outcome.result.ok)}
            className={outcome.result.ok ? 'check-ok' : 'check-failed'}
          >
            {outcome.result.ok ? '✓ Every check passed.' : '✗ A check failed: do not sign this.'}{' '}
            <span className="muted">Contracts from {outcome.source}.</span>
          </p>
          {outcome.result.steps.map((step, i) => (
            <Transaction key={step.step} label={`Step ${i + 1}: ${step.step}`} inspected={step} testId="inspect-step" />
          ))}
          <Transaction label="The transaction" inspected={outcome.result.main} testId="inspect-main" />
        </>
      )}
    </>
  );
}
