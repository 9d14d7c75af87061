import { useState } from 'react';
import type { Address } from 'viem';
import { ApiRequestError } from '../api/apiRequestError';
import type { Settings } from '../api/settings';
import { ActionProgressView } from '../components/ActionProgressView';
import { ErrorPanel } from '../components/ErrorPanel';
import { displayUnits } from '../format';
import { DetailsFields } from '../launch/DetailsFields';
import { FirstBuyFields } from '../launch/FirstBuyFields';
import { ImageUpload } from '../launch/ImageUpload';
import { LaunchBuildSummary } from '../launch/LaunchBuildSummary';
import { buildLaunch, type LaunchBuildAnswer } from '../launch/launchApi';
import { launchBodyOf } from '../launch/launchBody';
import { useLaunchForm } from '../launch/launchForm';
import { MarketFields } from '../launch/MarketFields';
import { RoyaltyFields } from '../launch/RoyaltyFields';
import { ShapeEditor } from '../launch/ShapeEditor';
import { Link } from '../router/Link';
import { useRouter } from '../router/routes';
import { useSettingsStore } from '../store/settingsStore';
import { type ActionProgress, sendBuild } from '../wallet/sendBuild';
import { activeAddress, useWallet } from '../wallet/walletStore';

/** What the button still waits for, named as the form names it. */
const MISSING_LABELS: Record<string, string> = {
  image: 'a logo',
  name: 'a name',
  symbol: 'a symbol',
  marketCapPair: 'a market cap',
  marketCapUsd: 'a market cap',
  pair: 'the pair address',
  royaltyTo: 'the royalty wallet',
};

function LaunchWizard({ settings }: { settings: Settings }) {
  const draft = useLaunchForm((s) => s.draft);
  const serverError = useLaunchForm((s) => s.serverError);
  const wallet = useWallet(activeAddress);
  const navigate = useRouter((s) => s.navigate);
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const [built, setBuilt] = useState<LaunchBuildAnswer | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = launchBodyOf(draft, settings);
  const problems = Object.entries(ask.problems);
  const missingFields = problems.filter(([, p]) => p.missing).map(([field]) => field);
  const missing = [...new Set(missingFields.map((field) => MISSING_LABELS[field] ?? field))];
  const paused = settings.launch.paused;
  const ready = wallet !== null && !busy && !paused && problems.length === 0;

  async function submit() {
    const name = String(ask.body.name);
    const symbol = String(ask.body.symbol);
    const firstBuy = typeof ask.body.firstBuy === 'string' ? ask.body.firstBuy : null;
    const { setServerError, reset } = useLaunchForm.getState();
    setBusy(true);
    setBuilt(null);
    setServerError(null);
    let refused = false;
    const { progress: final, build } = await sendBuild({
      title: `Launch ${name} (${symbol})`,
      request: { kind: 'launch', name, symbol, firstBuy },
      build: async (signer: Address) => {
        try {
          const answer = await buildLaunch(signer, ask.body);
          setBuilt(answer);
          return answer;
        } catch (cause) {
          // Kept whole (with its field) so the refusal can be shown beside the field it names.
          if (cause instanceof ApiRequestError) {
            refused = true;
            setServerError(cause.error);
          }
          throw cause;
        }
      },
      onProgress: setProgress,
    });
    setBusy(false);
    // A refusal is shown by its field and in the error panel; the progress line would only repeat it.
    if (refused && final.stage === 'failed') setProgress(null);
    if (final.stage === 'done' && build) {
      reset();
      navigate(`/token/${build.token}`);
    }
  }

  return (
    <form
      className="launch-wizard"
      data-testid="launch-wizard"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) void submit();
      }}
    >
      {paused && (
        <ErrorPanel
          title="Launches are paused"
          error={{ code: 'LAUNCHES_PAUSED', message: 'Launching is paused on the factory for now.' }}
        />
      )}
      <ImageUpload problems={ask.problems} />
      <DetailsFields problems={ask.problems} />
      <MarketFields settings={settings} problems={ask.problems} pairSymbol={ask.pairSymbol} />
      <ShapeEditor problems={ask.problems} />
      <FirstBuyFields problems={ask.problems} pairSymbol={ask.pairSymbol} />
      <RoyaltyFields problems={ask.problems} />
      <section className="launch-section launch-submit">
        <p className="muted" data-testid="launch-fee">
          Launch fee:{' '}
          {settings.launch.launchFeeWei === '0' ? 'free' : `${displayUnits(settings.launch.launchFeeWei)} BNB`}. The
          liquidity is locked for ever.
        </p>
        <p>
          <button type="submit" disabled={!ready} data-testid="launch-submit">
            Review and launch
          </button>{' '}
          {wallet === null && (
            <span className="muted" data-testid="launch-no-signer">
              Set up a signer in <Link to="/settings">Settings</Link> to launch.
            </span>
          )}
          {missing.length > 0 && (
            <span className="muted" data-testid="launch-missing" data-fields={missingFields.join(',')}>
              Still needed: {missing.join(', ')}.
            </span>
          )}
        </p>
        {built && <LaunchBuildSummary build={built} />}
        {serverError ? (
          <div data-testid="launch-refused">
            <ErrorPanel title="The service did not build the launch" error={serverError} />
          </div>
        ) : (
          <ActionProgressView progress={progress} />
        )}
      </section>
    </form>
  );
}

/**
 * The launch wizard: a logo, the token's details, where it opens, how its supply is laid across prices, an optional
 * first buy and the royalty; the button builds it for the signer and takes it through the review screen.
 */
export function LaunchPage() {
  const settings = useSettingsStore((s) => s.state);
  return (
    <>
      <h2>Launch a token</h2>
      {settings.status === 'loading' && <p className="muted">Reading the settings…</p>}
      {settings.status === 'error' && <ErrorPanel title="The settings could not be read" error={settings.error} />}
      {settings.status === 'ready' && <LaunchWizard settings={settings.settings} />}
    </>
  );
}
