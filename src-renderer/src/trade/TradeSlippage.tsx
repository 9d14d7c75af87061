/** The slippage tolerance in per cent, the settings' default until one is typed, and why a typed one is refused. */
export function TradeSlippage({
  inputId,
  text,
  bps,
  maxBps,
  onChange,
}: {
  inputId: string;
  text: string;
  /** `text` in basis points; null when it is refused. */
  bps: number | null;
  maxBps: number;
  onChange(text: string): void;
}) {
  return (
    <>
      <div className="flex items-center justify-between gap-2 text-sm">
        <label htmlFor={inputId} className="text-muted">
          Slippage tolerance
        </label>
        <span className="inline-flex items-center gap-1">
          <input
            id={inputId}
            className="w-16 text-right tabular"
            inputMode="decimal"
            value={text}
            onChange={(event) => onChange(event.target.value)}
            aria-invalid={bps === null}
            data-testid="trade-slippage"
          />
          <span className="text-muted">%</span>
        </span>
      </div>
      {bps === null && (
        <p className="text-xs text-down" role="alert" data-testid="trade-slippage-error" data-code="INVALID_SLIPPAGE">
          Slippage must be from 0.01% to {maxBps / 100}%, with two decimal places at most.
        </p>
      )}
    </>
  );
}
