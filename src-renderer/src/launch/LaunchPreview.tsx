import { Badge } from '../ui/Badge';
import { TokenLogo } from '../ui/TokenLogo';
import { capText } from './shapeScale';

/**
 * The token as it will look in the launches list while the form is filled in: logo, name and symbol, the opening
 * cap in dollars (or in the pair without a price), and the pair and fee tier badges.
 */
export function LaunchPreview({
  image,
  name,
  symbol,
  cap,
  pairSymbol,
  feeTierLabel,
}: {
  image: string | null;
  name: string;
  symbol: string;
  cap: { usd: number | null; pair: number | null };
  pairSymbol: string;
  feeTierLabel: string;
}) {
  const shownSymbol = symbol.trim() || 'SYMBOL';
  return (
    <div
      className="flex items-center gap-3 rounded-lg border border-line bg-canvas/60 p-3"
      data-testid="launch-preview"
    >
      {image ? (
        <TokenLogo key={image} src={image} symbol={shownSymbol} address="0x7a3c9e" size="md" />
      ) : (
        <span
          aria-hidden="true"
          className="inline-grid size-9 shrink-0 place-items-center rounded-full bg-primary-soft text-xs font-bold text-link"
        >
          {shownSymbol.slice(0, 3).toUpperCase()}
        </span>
      )}
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold" data-testid="launch-preview-name">
          {name.trim() || <span className="text-muted">Token name</span>}
        </p>
        <p className="flex items-center gap-1.5 text-xs text-muted">
          <span className="truncate">{shownSymbol}</span>
          <Badge className="!px-1.5 !py-0 text-2xs">{pairSymbol}</Badge>
          <Badge className="!px-1.5 !py-0 text-2xs">{feeTierLabel}</Badge>
        </p>
      </div>
      <div className="text-right">
        <p className="font-semibold tabular" data-testid="launch-preview-cap">
          {cap.usd !== null ? capText(cap.usd, '$') : cap.pair !== null ? capText(cap.pair, pairSymbol) : '—'}
        </p>
        <p className="text-2xs text-muted">cap · just now</p>
      </div>
    </div>
  );
}
