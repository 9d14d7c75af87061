import { useReview } from './reviewStore';

/**
 * The one review screen every transaction, approval step and message passes through before the signer is asked.
 * A failed check blocks signing and says why.
 */
export function ReviewScreen() {
  const current = useReview((s) => s.current);
  if (!current) return null;
  const { item, answer } = current;
  const failed = item.checks.filter((check) => !check.ok);
  const blocked = failed.length > 0;
  return (
    <div className="review-backdrop">
      <section
        className="review"
        role="dialog"
        aria-modal="true"
        aria-labelledby="review-title"
        data-testid="review"
        data-review-id={current.id}
      >
        <p className="muted" data-testid="review-step">
          {item.stepLabel}
        </p>
        <h2 id="review-title" data-testid="review-title">
          {item.title}
        </h2>
        {item.contract && (
          <p data-testid="review-call">
            <strong>{item.contract}</strong>.<code>{item.fn}</code>
          </p>
        )}
        {item.message !== undefined && (
          <pre className="review-message" data-testid="review-message">
            {item.message}
          </pre>
        )}
        {item.fields.length > 0 && (
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
        )}
        <ul className="review-checks" data-testid="review-checks">
          {item.checks.map((check) => (
            <li
              key={`${check.id}:${check.message}`}
              className={check.ok ? 'check-ok' : 'check-failed'}
              data-testid={`check-${check.id}`}
            >
              {check.ok ? '✓' : '✗'} {check.message}
            </li>
          ))}
        </ul>
        {blocked && (
          <p className="error" role="alert" data-testid="review-blocked">
            Signing is blocked: {failed.map((check) => check.message).join(' ')}
          </p>
        )}
        {item.raw && (
          <details>
            <summary>The transaction as signed</summary>
            <pre className="review-raw">{JSON.stringify(item.raw, null, 2)}</pre>
          </details>
        )}
        <p className="review-actions">
          <button type="button" onClick={() => answer(false)} data-testid="review-reject">
            Reject
          </button>{' '}
          <button type="button" disabled={blocked} onClick={() => answer(true)} data-testid="review-sign">
            Sign
          </button>
        </p>
      </section>
    </div>
  );
}
