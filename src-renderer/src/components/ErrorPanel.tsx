/** A refused request as the person sees it: what was wrong, what to do, and the stable code. */
export function ErrorPanel({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: { code: string; message: string; fix?: string };
  onRetry?: () => void;
}) {
  return (
    <section className="panel error" role="alert" data-testid="error" data-code={error.code}>
      <h3>{title}</h3>
      <p data-testid="error-message">{error.message}</p>
      {error.fix && <p data-testid="error-fix">{error.fix}</p>}
      <p className="muted" data-testid="error-code">
        {error.code}
      </p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </section>
  );
}
