import { OctagonX, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { SourceText } from '../requests/SourceText';
import { useSettingsStore } from '../store/settingsStore';
import { Button } from '../ui/Button';
import { CollectSummary } from './CollectSummary';
import { DeviceView } from './DeviceView';
import { LaunchSummary } from './LaunchSummary';
import { MoneyBlock } from './MoneyBlock';
import { type ReviewItem, signable, useReview } from './reviewStore';

/**
 * The one review screen every transaction, approval step and message passes through before the signer is asked: a
 * modal dialog (focus moves in, the page behind is inert, Esc rejects). It is headed by what the decoded call does;
 * failed checks come first and block signing; each warning about the person's own interest needs its tick; then what
 * the Ledger will show, with the hash to compare; passing checks fold into one line.
 */
export function ReviewScreen() {
  const current = useReview((s) => s.current);
  if (!current) return null;
  // Keyed by the review's id, so a new review starts with no ticks.
  return <ReviewDialog key={current.id} id={current.id} item={current.item} answer={current.answer} />;
}

function ReviewDialog({
  id,
  item,
  answer,
}: {
  id: number;
  item: ReviewItem;
  answer: (approved: boolean, ticked?: readonly string[]) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [ticked, setTicked] = useState<readonly string[]>([]);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const failed = item.checks.filter((check) => !check.ok);
  const passed = item.checks.filter((check) => check.ok);
  const canSign = signable(item, ticked);
  const toggle = (warning: string, on: boolean) =>
    setTicked((list) => (on ? [...list, warning] : list.filter((w) => w !== warning)));
  return (
    <dialog
      ref={dialog}
      className="m-auto flex max-h-[calc(100vh-2rem)] w-[calc(100%-2rem)] max-w-[44rem] flex-col overflow-hidden rounded-2xl border border-line bg-surface p-0 text-fg shadow-2xl open:flex"
      aria-labelledby="review-title"
      data-testid="review"
      data-review-id={id}
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
    >
      {failed.length > 0 && (
        <div className="border-b border-down/50 bg-down-soft px-6 py-3" role="alert" data-testid="review-blocked">
          <p className="flex items-center gap-2 font-semibold text-down">
            <OctagonX size={18} aria-hidden="true" /> Signing is blocked
          </p>
          <ul className="mt-1.5 flex flex-col gap-1 text-sm" data-testid="review-failed-checks">
            {failed.map((check) => (
              <li key={`${check.id}:${check.message}`} className="check-failed" data-testid={`check-${check.id}`}>
                ✗ {check.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex flex-col gap-4 overflow-y-auto px-6 pt-5 pb-4">
        <header className="flex flex-col gap-1">
          <p className="text-xs font-semibold tracking-wide text-muted uppercase" data-testid="review-step">
            {item.stepLabel}
            {item.askedBy && (
              <span data-testid="review-asked-by">
                {' '}
                · the bot <SourceText text={item.askedBy} /> asked for it
              </span>
            )}
          </p>
          <h2 id="review-title" data-testid="review-title" className="text-lg leading-snug font-semibold">
            {item.title}
          </h2>
          {item.contract && (
            <p data-testid="review-call" className="text-sm text-muted">
              {item.contract}.<code>{item.fn}</code>
            </p>
          )}
        </header>
        {item.warnings.length > 0 && (
          <fieldset
            className="flex flex-col gap-2 rounded-xl border border-warn/50 bg-warn-soft px-4 py-3"
            data-testid="review-warnings"
          >
            <legend className="float-left mb-1 flex w-full items-center gap-2 font-semibold text-warn">
              <TriangleAlert size={18} aria-hidden="true" /> Before you sign, confirm each of these
            </legend>
            {item.warnings.map((warning) => (
              <label
                key={warning.id}
                className="flex cursor-pointer items-start gap-2.5 text-sm"
                data-testid={`warning-${warning.id}`}
              >
                <input
                  type="checkbox"
                  className="mt-0.5 shrink-0"
                  checked={ticked.includes(warning.id)}
                  onChange={(event) => toggle(warning.id, event.target.checked)}
                  data-testid={`tick-${warning.id}`}
                />
                <span>{warning.message}</span>
              </label>
            ))}
          </fieldset>
        )}
        {item.flow && <MoneyBlock flow={item.flow} />}
        {item.launch && <LaunchSummary facts={item.launch} />}
        {item.collect && <CollectSummary facts={item.collect} />}
        {item.message !== undefined && (
          <pre
            className="review-message max-h-64 overflow-auto rounded-xl border border-line bg-raised p-3"
            data-testid="review-message"
          >
            {item.message}
          </pre>
        )}
        <DeviceView item={item} />
        {passed.length > 0 && (
          <details className="rounded-xl border border-line px-4 py-2.5" data-testid="review-checks">
            <summary className="check-ok text-sm font-semibold" data-testid="review-passed-summary">
              ✓ {passed.length} check{passed.length === 1 ? '' : 's'} passed
            </summary>
            <ul className="mt-2 flex flex-col gap-1 text-sm">
              {passed.map((check) => (
                <li key={`${check.id}:${check.message}`} className="check-ok" data-testid={`check-${check.id}`}>
                  ✓ {check.message}
                </li>
              ))}
            </ul>
          </details>
        )}
        {item.fields.length > 0 && (
          <details className="rounded-xl border border-line px-4 py-2.5">
            <summary className="text-sm font-semibold">Every argument of the call</summary>
            <table className="mt-2 text-sm">
              <tbody>
                {item.fields.map((field) => (
                  <tr key={`${field.name}:${field.value}`} data-testid={`review-field-${field.name}`}>
                    <th scope="row" className="w-40 !pl-0">
                      {field.name}
                    </th>
                    <td className="break-all">{field.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        )}
        {item.raw && (
          <details className="rounded-xl border border-line px-4 py-2.5">
            <summary className="text-sm font-semibold">The raw call, as built</summary>
            <pre className="review-raw mt-2">{JSON.stringify(item.raw, null, 2)}</pre>
          </details>
        )}
      </div>
      <footer className="flex items-center gap-3 border-t border-line bg-surface px-6 py-3.5">
        <RehearsalNote />
        {failed.length === 0 && !canSign && (
          <span className="text-sm text-warn" data-testid="review-needs-ticks">
            Tick each warning above to sign.
          </span>
        )}
        <div className="ml-auto flex gap-2">
          <Button onClick={() => answer(false)} testId="review-reject" size="lg">
            Reject
          </Button>
          <Button
            variant="primary"
            size="lg"
            disabled={!canSign}
            onClick={() => answer(true, ticked)}
            testId="review-sign"
            className="min-w-32"
          >
            Sign
          </Button>
        </div>
      </footer>
    </dialog>
  );
}

/** On a rehearsal, beside Sign: the signature is for the fork's chain id, not BNB Chain. */
function RehearsalNote() {
  const settings = useSettingsStore((store) => store.state);
  if (settings.status !== 'ready' || settings.settings.network !== 'fork') return null;
  return (
    <span className="text-sm text-warn" data-testid="review-rehearsal">
      Rehearsal: signed for chain {settings.settings.chainId} only, never valid on BNB Chain.
    </span>
  );
}
