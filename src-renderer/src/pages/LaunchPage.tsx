import { Check, Rocket, RotateCcw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import type { Address } from 'viem';
import { ApiRequestError } from '../api/apiRequestError';
import { useDollars } from '../api/dollars';
import type { Settings } from '../api/settings';
import { ActionProgressView } from '../components/ActionProgressView';
import { ErrorPanel } from '../components/ErrorPanel';
import { DetailsFields } from '../launch/DetailsFields';
import { FirstBuyFields } from '../launch/FirstBuyFields';
import { ImageUpload } from '../launch/ImageUpload';
import { LaunchBuildSummary } from '../launch/LaunchBuildSummary';
import { LaunchPreview } from '../launch/LaunchPreview';
import { type LaunchedToken, LaunchSuccess } from '../launch/LaunchSuccess';
import { buildLaunch, type LaunchBuildAnswer } from '../launch/launchApi';
import { launchBodyOf } from '../launch/launchBody';
import { launchFactsOf } from '../launch/launchFacts';
import { useLaunchForm } from '../launch/launchForm';
import { MarketFields } from '../launch/MarketFields';
import { capOf, pairOf } from '../launch/marketCap';
import { PoolTakenPanel } from '../launch/PoolTakenPanel';
import { poolTakenOf } from '../launch/poolTaken';
import { RoyaltyFields } from '../launch/RoyaltyFields';
import { ShapeEditor } from '../launch/ShapeEditor';
import { readDraftShape } from '../launch/shapeDraft';
import { SHAPE_PRESETS } from '../launch/shapePresets';
import type { CapScale } from '../launch/shapeScale';
import { Link } from '../router/Link';
import { useSettingsStore } from '../store/settingsStore';
import { Amount } from '../ui/Amount';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { cn } from '../ui/cn';
import { PageHeader } from '../ui/PageHeader';
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

/** The wizard's steps, each with the body fields whose problems keep it open. */
const STEPS = [
  { id: 'token', title: 'Token', fields: /^(image|name|symbol|description|website|x|telegram)$/ },
  { id: 'market', title: 'Market', fields: /^(pair|feeTier|marketCap(Pair|Usd)|supply)$/ },
  { id: 'shape', title: 'Shape', fields: /^shape$/ },
  { id: 'extras', title: 'First buy & royalty', fields: /^(firstBuy|slippagePct|burnPct|royaltyTo)/ },
] as const;

function Step({
  n,
  id,
  title,
  done,
  children,
}: {
  n: number;
  id: string;
  title: string;
  done: boolean;
  children: ReactNode;
}) {
  return (
    <Card
      id={`launch-step-${id}`}
      className="scroll-mt-4"
      title={
        <span className="flex items-center gap-2.5">
          <StepMark n={n} done={done} />
          {title}
        </span>
      }
    >
      {children}
    </Card>
  );
}

function StepMark({ n, done }: { n: number; done: boolean }) {
  return (
    <span
      className={cn(
        'inline-grid size-6 shrink-0 place-items-center rounded-full text-xs font-bold',
        done ? 'bg-up-soft text-up' : 'bg-primary-soft text-link',
      )}
    >
      {done ? <Check size={14} aria-label="done" /> : n}
    </span>
  );
}

function LaunchWizard({ settings, onLaunched }: { settings: Settings; onLaunched: (t: LaunchedToken) => void }) {
  const draft = useLaunchForm((s) => s.draft);
  const serverError = useLaunchForm((s) => s.serverError);
  const wallet = useWallet(activeAddress);
  const { usdPerUnit } = useDollars();
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const [built, setBuilt] = useState<LaunchBuildAnswer | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = launchBodyOf(draft, settings);
  const problems = Object.entries(ask.problems);
  const missingFields = problems.filter(([, p]) => p.missing).map(([field]) => field);
  const missing = [...new Set(missingFields.map((field) => MISSING_LABELS[field] ?? field))];
  const paused = settings.launch.paused;
  const ready = wallet !== null && !busy && !paused && problems.length === 0;
  // Someone priced the sent launch's pool first: the same form, built again, lands at a new address.
  const taken = poolTakenOf(progress);
  const stepDone = (fields: RegExp) => !problems.some(([field]) => fields.test(field));

  const pair = pairOf(draft, settings);
  const cap = capOf(draft, settings, usdPerUnit);
  const bnb = settings.pairs.find((p) => p.native);
  const bnbUsd = bnb ? usdPerUnit(bnb.address) : null;
  const scale: CapScale | null =
    cap.usd !== null ? { cap: cap.usd, unit: '$' } : cap.pair !== null ? { cap: cap.pair, unit: pair.symbol } : null;
  const feeTier = draft.feeTier ?? settings.launch.defaultFeeTier;
  const feeTierLabel = settings.launch.feeTiers.find((t) => t.bps === feeTier)?.label ?? `${feeTier / 10_000}%`;
  const image = draft.image.status === 'ready' || draft.image.status === 'uploading' ? draft.image.preview : null;

  async function submit() {
    const name = String(ask.body.name);
    const symbol = String(ask.body.symbol);
    const firstBuy = typeof ask.body.firstBuy === 'string' ? ask.body.firstBuy : null;
    const ranges = draft.shapeMode === 'custom' ? readDraftShape(draft.ranges).ranges : SHAPE_PRESETS[draft.shapeMode];
    const prices = { pairUsd: cap.usdPerUnit, bnbUsd };
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
      launch: (answer) => launchFactsOf(answer, ranges, prices),
      onProgress: setProgress,
    });
    setBusy(false);
    // A refusal is shown by its field and in the error panel; the progress line would only repeat it.
    if (refused && final.stage === 'failed') setProgress(null);
    if (final.stage === 'done' && build) {
      reset();
      onLaunched({
        token: build.token,
        name,
        symbol,
        image,
        hash: final.hash ?? null,
        creator: build.wallet as Address,
      });
    }
  }

  const startOver = () => {
    useLaunchForm.getState().reset();
    setBuilt(null);
    setProgress(null);
  };

  return (
    <form
      className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_19rem] xl:grid-cols-[minmax(0,1fr)_22rem]"
      data-testid="launch-wizard"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) void submit();
      }}
    >
      <div className="flex min-w-0 flex-col gap-4">
        {paused && (
          <ErrorPanel
            title="Launches are paused"
            error={{ code: 'LAUNCHES_PAUSED', message: 'Launching is paused on the factory for now.' }}
          />
        )}
        <Step n={1} id="token" title="Token" done={stepDone(STEPS[0].fields)}>
          <div className="flex flex-col gap-4">
            <ImageUpload problems={ask.problems} />
            <DetailsFields problems={ask.problems} />
          </div>
        </Step>
        <Step n={2} id="market" title="Market" done={stepDone(STEPS[1].fields)}>
          <MarketFields settings={settings} problems={ask.problems} />
        </Step>
        <Step n={3} id="shape" title="Liquidity shape" done={stepDone(STEPS[2].fields)}>
          <ShapeEditor problems={ask.problems} scale={scale} openingTick={built?.opening.tick ?? null} />
        </Step>
        <Step n={4} id="extras" title="First buy & royalty" done={stepDone(STEPS[3].fields)}>
          <div className="flex flex-col gap-5">
            <FirstBuyFields problems={ask.problems} pairSymbol={ask.pairSymbol} usdPerUnit={cap.usdPerUnit} />
            <div className="border-t border-line pt-4">
              <RoyaltyFields problems={ask.problems} />
            </div>
          </div>
        </Step>
      </div>

      <aside className="flex flex-col gap-4 lg:sticky lg:top-18" aria-label="Review and launch">
        <Card
          title={
            <span className="flex items-center gap-2.5">
              <StepMark n={5} done={false} />
              Review
            </span>
          }
        >
          <div className="flex flex-col gap-4">
            {/* First, where the eye is after signing: the sticky column may be taller than a small window. */}
            {taken && (
              <PoolTakenPanel
                taken={taken}
                token={built?.token ?? null}
                hash={progress?.hash ?? null}
                bnbUsd={bnbUsd}
                onLaunchAgain={() => void submit()}
                disabled={!ready}
              />
            )}
            <div>
              <p className="mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase">In the launches list</p>
              <LaunchPreview
                image={image}
                name={draft.name}
                symbol={draft.symbol}
                cap={cap}
                pairSymbol={pair.symbol}
                feeTierLabel={feeTierLabel}
              />
            </div>
            <ol className="flex flex-col gap-1 text-sm" aria-label="Steps">
              {STEPS.map((step, i) => {
                const done = stepDone(step.fields);
                return (
                  <li key={step.id}>
                    <button
                      type="button"
                      className="flex w-full cursor-pointer items-center gap-2 rounded-md px-1.5 py-1 text-left hover:bg-raised"
                      onClick={() =>
                        document.getElementById(`launch-step-${step.id}`)?.scrollIntoView({ behavior: 'smooth' })
                      }
                      data-testid={`launch-step-${step.id}`}
                      data-done={done}
                    >
                      <StepMark n={i + 1} done={done} />
                      <span className={done ? 'text-muted' : 'font-medium'}>{step.title}</span>
                    </button>
                  </li>
                );
              })}
            </ol>
            <p className="text-xs text-muted" data-testid="launch-fee">
              Launch fee:{' '}
              {settings.launch.launchFeeWei === '0' ? (
                'free'
              ) : (
                <Amount wei={settings.launch.launchFeeWei} decimals={18} symbol="BNB" usdPerUnit={bnbUsd} />
              )}
              . The liquidity is locked for ever.
            </p>
            {!taken && (
              <Button
                type="submit"
                variant="primary"
                size="lg"
                disabled={!ready}
                icon={<Rocket size={16} aria-hidden="true" />}
                testId="launch-submit"
              >
                Review and launch
              </Button>
            )}
            {wallet === null && (
              <p className="text-sm text-muted" data-testid="launch-no-signer">
                Set up a signer in <Link to="/settings">Settings</Link> to launch.
              </p>
            )}
            {missing.length > 0 && (
              <p className="text-sm text-muted" data-testid="launch-missing" data-fields={missingFields.join(',')}>
                Still needed: {missing.join(', ')}.
              </p>
            )}
            {built && !taken && <LaunchBuildSummary build={built} bnbUsd={bnbUsd} />}
            {serverError ? (
              <div data-testid="launch-refused">
                <ErrorPanel title="The service did not build the launch" error={serverError} />
              </div>
            ) : (
              !taken && <ActionProgressView progress={progress} />
            )}
            <Button
              variant="ghost"
              size="sm"
              className="self-start text-muted"
              icon={<RotateCcw size={14} aria-hidden="true" />}
              onClick={startOver}
              disabled={busy}
              testId="launch-start-over"
            >
              Start over
            </Button>
          </div>
        </Card>
      </aside>
    </form>
  );
}

/** Takes up the draft kept for the chain before the form shows, so a reload comes back to what was typed. */
function KeptDraft({ chainId, children }: { chainId: number; children: ReactNode }) {
  const restored = useLaunchForm((s) => s.chainId === chainId);
  useEffect(() => useLaunchForm.getState().restore(chainId), [chainId]);
  return restored ? children : null;
}

/**
 * The launch wizard: a logo, the token's details, where it opens, how its supply is laid across market caps, an
 * optional first buy and the royalty, with a live preview of the token in the list; the button builds it for the
 * signer and takes it through the review screen, and a success screen follows.
 */
export function LaunchPage() {
  const settings = useSettingsStore((s) => s.state);
  const [launched, setLaunched] = useState<LaunchedToken | null>(null);
  return (
    <>
      <PageHeader
        title="Launch a token"
        description="Name it, set where it opens and how its supply is laid across market caps, then review and sign."
      />
      {settings.status === 'loading' && <p className="text-muted">Reading the settings…</p>}
      {settings.status === 'error' && <ErrorPanel title="The settings could not be read" error={settings.error} />}
      {settings.status === 'ready' &&
        (launched ? (
          <LaunchSuccess launched={launched} onAnother={() => setLaunched(null)} />
        ) : (
          <KeptDraft chainId={settings.settings.chainId}>
            <LaunchWizard settings={settings.settings} onLaunched={setLaunched} />
          </KeptDraft>
        ))}
    </>
  );
}
