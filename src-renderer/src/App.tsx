import { useEffect } from 'react';
import type { ApiError } from './api/getJson';
import type { Settings } from './api/settings';
import { useSettingsStore } from './store/settingsStore';

/** Basis points as a percentage: 1500 -> "15%", 20 -> "0.2%". */
const percent = (bps: number): string => `${bps / 100}%`;

function ErrorPanel({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  return (
    <section className="panel error" role="alert" data-testid="error">
      <h2>Could not load the settings</h2>
      <p data-testid="error-message">{error.message}</p>
      {error.fix && <p data-testid="error-fix">{error.fix}</p>}
      <p className="muted" data-testid="error-code">
        {error.code}
      </p>
      <button type="button" onClick={onRetry}>
        Retry
      </button>
    </section>
  );
}

function SettingsView({ settings }: { settings: Settings }) {
  const { fees } = settings;
  return (
    <>
      <section className="panel">
        <h2>Contracts</h2>
        <table>
          <tbody>
            {Object.entries(settings.contracts).map(([key, address]) => (
              <tr key={key} data-testid={`contract-${key}`}>
                <th scope="row">{key}</th>
                <td>{address ? <code>{address}</code> : <span className="muted">not deployed</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="panel">
        <h2>Fees</h2>
        <table>
          <tbody>
            <tr data-testid="fee-siteFeeBps">
              <th scope="row">Site fee (each trade)</th>
              <td>{percent(fees.siteFeeBps)}</td>
            </tr>
            <tr data-testid="fee-referrerBps">
              <th scope="row">Referrer instant cut (each trade)</th>
              <td>{percent(fees.referrerBps)}</td>
            </tr>
            <tr data-testid="fee-lifetimeReferralBps">
              <th scope="row">Referrer lifetime share (of site income)</th>
              <td>{percent(fees.lifetimeReferralBps)}</td>
            </tr>
          </tbody>
        </table>
      </section>

      <section className="panel">
        <h2>Pair currencies</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Symbol</th>
              <th scope="col">Address</th>
              <th scope="col">Decimals</th>
            </tr>
          </thead>
          <tbody>
            {settings.pairs.map((pair) => (
              <tr key={pair.address} data-testid={`pair-${pair.symbol}`}>
                <td>
                  {pair.symbol}
                  {pair.native && <span className="muted"> (paid natively)</span>}
                </td>
                <td>
                  <code>{pair.address}</code>
                </td>
                <td>{pair.decimals}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

export function App() {
  const state = useSettingsStore((store) => store.state);
  const load = useSettingsStore((store) => store.load);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <header className="header">
        <h1>Launchpad Companion</h1>
        {state.status === 'ready' && (
          <p>
            <span className="badge" data-testid="network">
              {state.settings.network}
            </span>{' '}
            chainId <span data-testid="chain-id">{state.settings.chainId}</span>
          </p>
        )}
      </header>
      <main>
        {state.status === 'loading' && (
          <p className="muted" data-testid="loading">
            Loading settings…
          </p>
        )}
        {state.status === 'error' && <ErrorPanel error={state.error} onRetry={() => void load()} />}
        {state.status === 'ready' && <SettingsView settings={state.settings} />}
      </main>
    </>
  );
}
