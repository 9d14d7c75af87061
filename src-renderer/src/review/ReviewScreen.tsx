import { useEffect, useRef, useState } from 'react';
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
      className="review"
      aria-labelledby="review-title"
      data-testid="review"
      data-review-id={id}
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
    >
      {failed.length > 0 && (
        <div className="review-failed" role="alert" data-testid="review-blocked">
          <strong>Signing is blocked.</strong>
          <ul className="review-checks" data-testid="review-failed-checks">
            {failed.map((check) => (
              <li key={`${check.id}:${check.message}`} className="check-failed" data-testid={`check-${check.id}`}>
                ✗ {check.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="muted" data-testid="review-step">
        {item.stepLabel}
        {item.askedBy && <span data-testid="review-asked-by"> · asked by {item.askedBy}</span>}
      </p>
      <h2 id="review-title" data-testid="review-title">
        {item.title}
      </h2>
      {item.contract && (
        <p data-testid="review-call">
          <strong>{item.contract}</strong>.<code>{item.fn}</code>
        </p>
      )}
      {item.warnings.length > 0 && (
        <fieldset className="review-warnings" data-testid="review-warnings">
          <legend>Before you sign, confirm each of these</legend>
          {item.warnings.map((warning) => (
            <label key={warning.id} className="review-warning" data-testid={`warning-${warning.id}`}>
              <input
                type="checkbox"
                checked={ticked.includes(warning.id)}
                onChange={(event) => toggle(warning.id, event.target.checked)}
                data-testid={`tick-${warning.id}`}
              />{' '}
              {warning.message}
            </label>
          ))}
        </fieldset>
      )}
      {item.message !== undefined && (
        <pre className="review-message" data-testid="review-message">
          {item.message}
        </pre>
      )}
      <DeviceView item={item} />
      {item.fields.length > 0 && (
        <details className="review-details">
          <summary>Every argument of the call</summary>
          <table className="review-fields">
            <tbody>
              {item.fields.map((field) => (
                <tr key={`${field.name}:${field.value}`} data-testid={`review-field-${field.name}`}>
                  <th scope="row">{field.name}</th>
                  <td>{field.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      {passed.length > 0 && (
        <details className="review-passed" data-testid="review-checks">
          <summary className="check-ok" data-testid="review-passed-summary">
            ✓ {passed.length} check{passed.length === 1 ? '' : 's'} passed
          </summary>
          <ul className="review-checks">
            {passed.map((check) => (
              <li key={`${check.id}:${check.message}`} className="check-ok" data-testid={`check-${check.id}`}>
                ✓ {check.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {item.raw && (
        <details>
          <summary>The transaction as built</summary>
          <pre className="review-raw">{JSON.stringify(item.raw, null, 2)}</pre>
        </details>
      )}
      <p className="review-actions">
        <button type="button" onClick={() => answer(false)} data-testid="review-reject">
          Reject
        </button>{' '}
        <button
          type="button"
          className="primary"
          disabled={!canSign}
          onClick={() => answer(true, ticked)}
          data-testid="review-sign"
        >
          Sign
        </button>
        {failed.length === 0 && !canSign && (
          <span className="muted" data-testid="review-needs-ticks">
            {' '}
            Tick each warning above to sign.
          </span>
        )}
      </p>
    </dialog>
  );
}

/** What the signing device will display, so the person compares it with this screen before approving there. */
function DeviceView({ item }: { item: ReviewItem }) {
  const { device } = item;
  if (!device) return null;
  const heading = device.ledger ? 'Your Ledger will show' : 'What your key signs';
  if (device.kind === 'message') {
    return (
      <section className="review-device" data-testid="review-device">
        <h3>{heading}</h3>
        <p className="muted">
          {device.hex
            ? 'The message holds characters a Ledger cannot display, so it shows the bytes as hex:'
            : 'The message text, page by page:'}
        </p>
        <pre className="review-message" data-testid="device-message">
          {device.shown}
        </pre>
      </section>
    );
  }
  const { view } = device;
  return (
    <section className="review-device" data-testid="review-device">
      <h3>{heading}</h3>
      {device.ledger && (
        <p className="muted">
          "Blind signing ahead", then these screens. Compare the hash on the device with the one here before you hold to
          sign; if it differs, reject on the device.
        </p>
      )}
      <table className="review-fields">
        <tbody>
          <tr data-testid="device-amount">
            <th scope="row">Amount</th>
            <td>{view.amount}</td>
          </tr>
          <tr data-testid="device-to">
            <th scope="row">To</th>
            <td>
              <code>{view.to.address}</code>
              {view.to.name && <span className="muted"> ({view.to.name})</span>}
            </td>
          </tr>
          <tr data-testid="device-max-fees">
            <th scope="row">Max fees</th>
            <td>{view.maxFees}</td>
          </tr>
          <tr data-testid="device-network">
            <th scope="row">Network</th>
            <td>{view.network}</td>
          </tr>
          <tr>
            <th scope="row">Transaction hash</th>
            <td>
              <code className="review-hash" data-testid="device-hash">
                {view.hash}
              </code>
            </td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}
