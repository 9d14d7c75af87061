import type { MouseEvent, ReactNode } from 'react';
import { Link } from '../router/Link';
import { TokenLogo } from '../ui/TokenLogo';
import { loadableLogo } from './loadableLogo';

/**
 * A token list's first cell: logo, the name as the link to its page, and the symbol with `children` under it. The
 * test ids are `<testIds>-logo`, `-link` and `-symbol`.
 */
export function TokenNameCell({
  token,
  to,
  testIds,
  children,
}: {
  token: { address: string; name: string; symbol: string; image: string | null };
  to: string;
  testIds: string;
  children: ReactNode;
}) {
  return (
    <td>
      <div className="flex min-w-0 items-center gap-3">
        <TokenLogo
          src={loadableLogo(token.image)}
          symbol={token.symbol}
          address={token.address}
          testId={`${testIds}-logo`}
        />
        <div className="min-w-0">
          <Link
            to={to}
            testId={`${testIds}-link`}
            className="block truncate font-semibold text-fg no-underline hover:underline"
          >
            {token.name}
          </Link>
          <div className="flex items-center gap-1.5 text-xs text-muted">
            <span data-testid={`${testIds}-symbol`} className="font-semibold">
              {token.symbol}
            </span>
            <span aria-hidden="true">·</span>
            {children}
          </div>
        </div>
      </div>
    </td>
  );
}

/**
 * A row's click handler that opens its token, as in every trading list, unless the click was on a link or button
 * (which does its own) or ended a text selection.
 */
export const opensOnClick = (open: () => void) => (event: MouseEvent) => {
  if ((event.target as Element).closest('a, button') || window.getSelection()?.toString()) return;
  open();
};
