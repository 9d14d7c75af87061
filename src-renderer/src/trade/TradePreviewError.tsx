import type { ApiError } from '../api/apiRequestError';

/**
 * Why the trade built ahead failed, in the service's words. A wallet short of BNB for the fee is said once the button
 * already says what it lacks.
 */
export function TradePreviewError({ error, short }: { error: ApiError | null; short: string | null }) {
  if (!error) return null;
  if (error.code !== 'INSUFFICIENT_BALANCE') {
    return (
      <p className="text-xs text-down" data-testid="trade-preview-error" data-code={error.code}>
        {error.message}
      </p>
    );
  }
  return short ? <p className="text-xs text-down">{error.message}</p> : null;
}
