import { Globe, Send } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Address } from 'viem';
import { formatAmount, formatExact, formatUsd } from '../../../src-shared/format/numbers';
import { formatAge, formatLocalTime } from '../../../src-shared/format/times';
import { priceUsd } from '../api/dollars';
import type { TokenInfo, TokenMarket } from '../api/tokens';
import { shortAddress } from '../format';
import { Badge } from '../ui/Badge';
import { Card } from '../ui/Card';
import { Stat } from '../ui/Stat';
import { TokenLogo } from '../ui/TokenLogo';
import { CreatorStar, TokenStar } from '../watchlist/StarButton';
import { CopyIcon } from './CopyIcon';
import { feeTierText } from './LaunchListRow';
import { loadableLogo } from './loadableLogo';
import { ChangeText } from './PriceChange';
import { TokenShare } from './TokenShare';
import { type DayStats, dayVolumeText, TRADES_READ } from './tokenDayStats';

/** The X logo, as lucide has no brand icons. */
function XMark() {
  return (
    <svg viewBox="0 0 24 24" width="13" height="13" aria-hidden="true" fill="currentColor">
      <path d="M18.244 2.25h3.308l-7.227 8.26 8.502 11.24H16.17l-5.214-6.817L4.99 21.75H1.68l7.73-8.835L1.254 2.25H8.08l4.713 6.231zm-1.161 17.52h1.833L7.084 4.126H5.117z" />
    </svg>
  );
}

function SocialLink({
  href,
  testId,
  icon,
  children,
}: {
  href: string;
  testId: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      data-testid={testId}
      title={href}
      className="inline-flex items-center gap-1.5 rounded-full border border-line px-2.5 py-1 text-xs font-semibold text-fg no-underline hover:bg-raised"
    >
      {icon}
      {children}
    </a>
  );
}

/** "x.com/name" or "t.me/name" from a stored link, for a short label. */
function linkLabel(href: string): string {
  try {
    const url = new URL(href);
    return `${url.host.replace(/^www\./, '')}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return href;
  }
}

/**
 * What the token is and what it is worth now: logo, name, pair and fee tier, contract and creator, the metadata's
 * description and links, a share link; then price, cap, the last 24 h and the supply.
 */
export function TokenFacts({
  token,
  market,
  day,
  pairUsd,
  creatorHoldsWei,
  wallet,
  now,
}: {
  token: TokenInfo;
  market: TokenMarket | null;
  day: DayStats | null;
  pairUsd: number | null;
  /** The creator's token balance as the chain has it now; null until read (or unreadable). */
  creatorHoldsWei: bigint | null;
  wallet: Address | null;
  now: number;
}) {
  const pair = token.quote;
  const details = token.details ?? {};
  const price = market ? priceUsd(market.priceWei, pair.decimals, pairUsd) : null;
  const supply = market ? BigInt(market.supplyWei) : null;
  const loading = <span className="text-muted">…</span>;
  const creatorShare =
    creatorHoldsWei !== null && supply ? Number((creatorHoldsWei * 1_000_000n) / supply) / 10_000 : null;
  return (
    <Card testId="token-facts">
      <div className="flex flex-wrap items-start gap-4">
        <TokenLogo
          src={loadableLogo(token.image)}
          symbol={token.symbol}
          address={token.address}
          size="xl"
          testId="token-logo"
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="truncate" data-testid="token-name">
              {token.name}
            </h1>
            <TokenStar address={token.address} />
            <Badge testId="token-symbol">{token.symbol}</Badge>
            <Badge tone="primary" title="The pair currency the token trades against">
              {pair.symbol} pair
            </Badge>
            <Badge title="The pool's fee tier">{feeTierText(token.fee)} fee</Badge>
          </div>
          <dl className="mt-1.5 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted">
            <div className="flex items-center gap-1">
              <dt>Contract</dt>
              <dd className="flex items-center">
                <code data-testid="token-address" title={token.address} className="text-fg">
                  {shortAddress(token.address)}
                </code>
                <CopyIcon text={token.address} label="Copy the contract address" testId="token-copy-address" />
              </dd>
            </div>
            <div className="flex items-center gap-1">
              <dt>Creator</dt>
              <dd className="flex items-center">
                <code title={token.creator} data-testid="token-creator" className="text-fg">
                  {shortAddress(token.creator)}
                </code>
                <CopyIcon text={token.creator} label="Copy the creator's address" />
                <CreatorStar address={token.creator} />
              </dd>
            </div>
            {token.launchedAt && (
              <div className="flex items-center gap-1">
                <dt>Launched</dt>
                <dd className="text-fg" title={formatLocalTime(token.launchedAt)}>
                  {formatAge(token.launchedAt, now)}
                </dd>
              </div>
            )}
          </dl>
          {details.description && (
            <p className="mt-2.5 max-w-3xl text-sm whitespace-pre-line" data-testid="token-description">
              {details.description}
            </p>
          )}
          {(details.website || details.x || details.telegram) && (
            <div className="mt-2.5 flex flex-wrap gap-2" data-testid="token-links">
              {details.website && (
                <SocialLink href={details.website} testId="token-website" icon={<Globe size={13} aria-hidden="true" />}>
                  {linkLabel(details.website)}
                </SocialLink>
              )}
              {details.x && (
                <SocialLink href={details.x} testId="token-x" icon={<XMark />}>
                  {linkLabel(details.x)}
                </SocialLink>
              )}
              {details.telegram && (
                <SocialLink
                  href={details.telegram}
                  testId="token-telegram"
                  icon={<Send size={13} aria-hidden="true" />}
                >
                  {linkLabel(details.telegram)}
                </SocialLink>
              )}
            </div>
          )}
        </div>
        <TokenShare token={token.address} wallet={wallet} />
      </div>
      <div className="mt-4 grid grid-cols-3 gap-x-6 gap-y-3 border-t border-line pt-4 xl:grid-cols-6">
        <Stat
          label="Price"
          sub={market ? `${formatAmount(BigInt(market.priceWei), pair.decimals)} ${pair.symbol}` : undefined}
        >
          <span
            data-testid="token-price"
            data-wei={market?.priceWei}
            title={market ? `${formatExact(BigInt(market.priceWei), pair.decimals)} ${pair.symbol}` : undefined}
          >
            {market
              ? price !== null
                ? formatUsd(price)
                : `${formatAmount(BigInt(market.priceWei), pair.decimals)} ${pair.symbol}`
              : loading}
          </span>
        </Stat>
        <Stat
          label="Market cap"
          sub={
            market
              ? `${formatAmount(BigInt(market.marketCap.wei), pair.decimals, { compact: true })} ${pair.symbol}`
              : undefined
          }
        >
          <span
            data-testid="token-market-cap"
            data-wei={market?.marketCap.wei}
            title={market ? `${formatExact(BigInt(market.marketCap.wei), pair.decimals)} ${pair.symbol}` : undefined}
          >
            {market
              ? market.marketCapUsd !== null
                ? formatUsd(market.marketCapUsd)
                : `${formatAmount(BigInt(market.marketCap.wei), pair.decimals, { compact: true })} ${pair.symbol}`
              : loading}
          </span>
        </Stat>
        <Stat
          label={<span title="The pool price now against the price at the start of the last 24 h">24h change</span>}
        >
          <span data-testid="token-change">{day ? <ChangeText pct={day.changePct} /> : loading}</span>
        </Stat>
        <Stat
          label="24h volume"
          sub={
            day
              ? day.complete
                ? `${day.trades} trade${day.trades === 1 ? '' : 's'}`
                : `latest ${TRADES_READ} trades only`
              : undefined
          }
        >
          <span data-testid="token-volume" data-wei={day?.volumeWei.toString()}>
            {day ? dayVolumeText(day, pair, pairUsd) : loading}
          </span>
        </Stat>
        <Stat label="Supply" sub={token.symbol}>
          <span data-testid="token-supply" title={supply !== null ? formatExact(supply, token.decimals) : undefined}>
            {supply !== null ? formatAmount(supply, token.decimals) : loading}
          </span>
        </Stat>
        <Stat
          label={<span title="The creator's balance as the chain has it now">Creator holds</span>}
          sub={
            creatorShare !== null
              ? `${creatorShare.toLocaleString('en-US', { maximumFractionDigits: 2 })}% of supply`
              : undefined
          }
        >
          <span data-testid="token-creator-holds" data-wei={creatorHoldsWei?.toString()}>
            {creatorHoldsWei !== null ? formatAmount(creatorHoldsWei, token.decimals, { compact: true }) : loading}
          </span>
        </Stat>
      </div>
    </Card>
  );
}
