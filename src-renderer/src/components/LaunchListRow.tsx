import { useState } from 'react';
import { apiBase } from '../api/apiBase';
import type { LaunchListItem } from '../api/launches';
import type { TokenMarket } from '../api/tokens';
import { age, compact, shortAddress } from '../format';
import { Link } from '../router/Link';
import { useLaunchMarket } from './LaunchListCaps';

/**
 * Only logos the service stored and serves from its `/media`: the CSP allows no other image origin, and the service
 * fetches and checks every remote logo before it names one.
 */
function loadable(image: string | null): image is string {
  if (!image) return false;
  try {
    const url = new URL(image);
    return url.origin === new URL(apiBase).origin && url.pathname.startsWith('/media/') && !url.search;
  } catch {
    return false;
  }
}

function Logo({ image, symbol }: { image: string | null; symbol: string }) {
  const [broken, setBroken] = useState(false);
  if (loadable(image) && !broken) {
    return <img className="tk-logo" src={image} alt="" data-testid="launch-logo" onError={() => setBroken(true)} />;
  }
  return (
    <span className="tk-logo tk-logo-placeholder" aria-hidden="true" data-testid="launch-logo-placeholder">
      {symbol.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** "$12.3k" when the pair has a dollar price, else "4.5 BNB". */
export function marketCapText(market: TokenMarket): string {
  if (market.marketCapUsd !== null) return `$${compact(market.marketCapUsd)}`;
  return `${compact(Number(market.marketCap.amount))} ${market.pair.symbol}`;
}

/** One launch in the list; its market cap is read once the row scrolls into view. */
export function LaunchListRow({ launch, now }: { launch: LaunchListItem; now: number }) {
  const { ref, market, failed } = useLaunchMarket(launch.token);
  const to = `/token/${launch.token}`;
  return (
    <tr ref={ref} className="tk-launch-row" data-testid="launch-row" data-token={launch.token}>
      <td>
        <Logo image={launch.image} symbol={launch.symbol} />
      </td>
      <td>
        <Link to={to} testId="launch-link">
          {launch.name}
        </Link>
      </td>
      <td data-testid="launch-symbol">{launch.symbol}</td>
      <td data-testid="launch-cap" data-ready={market ? 'yes' : 'no'}>
        {market ? marketCapText(market) : <span className="muted">{failed ? 'unavailable' : '…'}</span>}
      </td>
      <td title={launch.launchedAt}>{age(launch.launchedAt, now)}</td>
      <td>
        <code title={launch.creator}>{shortAddress(launch.creator)}</code>
      </td>
    </tr>
  );
}
