import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { type Address, parseUnits } from 'viem';
import { useDollars } from '../api/dollars';
import { fetchQuote, fetchToken, type TokenInfo, type TradeQuote } from '../api/tokens';
import { Link } from '../router/Link';
import { Amount } from '../ui/Amount';
import { TokenLogo } from '../ui/TokenLogo';
import type { UserRequest } from '../wallet/sendBuild';

type TradeRequest = Extract<UserRequest, { kind: 'buy' | 'sell' }>;

/** How often a waiting request's other side is quoted again: it moves with the pool. */
const QUOTE_REFRESH_MS = 15_000;

interface Leg {
  wei: bigint;
  decimals: number;
  symbol: string;
  usdPerUnit: number | null;
}

/** `text` in wei of `decimals`, or null for something that is not a decimal amount (a bot may send anything). */
function weiOf(text: string, decimals: number): bigint | null {
  try {
    return /^\d+(\.\d+)?$/.test(text.trim()) ? parseUnits(text.trim(), decimals) : null;
  } catch {
    return null;
  }
}

/** A build or a quote has both sides; the request itself only the one the bot fixed. */
function quoteOf(build: unknown): TradeQuote | null {
  const b = build as Partial<TradeQuote> | null | undefined;
  return b?.pay?.wei && b.receive?.wei && b.token?.pair ? (b as TradeQuote) : null;
}

function LegView({ leg, testId, estimate }: { leg: Leg | null; testId: string; estimate?: boolean }) {
  if (!leg) return <span className="text-muted">—</span>;
  return (
    <span className="inline-flex items-baseline gap-1" data-testid={testId}>
      {estimate && (
        <span className="text-muted" title="At the price now; the review shows the limit written into the trade">
          ~
        </span>
      )}
      <Amount wei={leg.wei} decimals={leg.decimals} symbol={leg.symbol} usdPerUnit={leg.usdPerUnit} significant={5} />
    </span>
  );
}

/**
 * A bot's buy or sell as a trader reads it: the token by its logo and symbol, and what goes out and comes in, in whole
 * units and dollars. The side the bot fixed is its own figure; the other is the build's, or a fresh quote while the
 * request waits (marked as an estimate).
 */
export function RequestTrade({ request, build, open }: { request: TradeRequest; build: unknown; open: boolean }) {
  const { usdPerUnit } = useDollars();
  const token = useQuery({
    queryKey: ['token', request.token],
    queryFn: () => fetchToken(request.token),
    staleTime: 60_000,
  });
  const built = quoteOf(build);
  const ask = {
    token: request.token as Address,
    side: request.kind,
    amount: request.amount,
    exact: request.exact,
    slippageBps: request.slippageBps,
  };
  const quote = useQuery({
    queryKey: ['token', request.token, 'quote', ask],
    queryFn: () => fetchQuote(ask),
    enabled: open && built === null && token.data !== undefined,
    refetchInterval: QUOTE_REFRESH_MS,
  });
  const info: TokenInfo | undefined = token.data;
  const both = built ?? quote.data ?? null;
  const pair = both?.token.pair ?? info?.quote ?? null;
  const pairUsd = pair ? usdPerUnit(pair.address) : null;
  const tokenDecimals = info?.decimals ?? 18;
  const symbol = info?.symbol ?? both?.token.symbol ?? null;

  // One token is worth what the pair side pays for it, in the quote or build at hand.
  const pairSide = both ? (request.kind === 'buy' ? both.pay : both.receive) : null;
  const tokenSide = both ? (request.kind === 'buy' ? both.receive : both.pay) : null;
  const tokenUsd =
    pairUsd !== null && pair && pairSide && tokenSide && BigInt(tokenSide.wei) > 0n
      ? ((Number(pairSide.wei) / 10 ** pair.decimals) * pairUsd) / (Number(tokenSide.wei) / 10 ** tokenDecimals)
      : null;
  const pairLeg = (wei: bigint | null): Leg | null =>
    wei !== null && pair ? { wei, decimals: pair.decimals, symbol: pair.symbol, usdPerUnit: pairUsd } : null;
  const tokenLeg = (wei: bigint | null): Leg | null =>
    wei !== null && symbol ? { wei, decimals: tokenDecimals, symbol, usdPerUnit: tokenUsd } : null;

  // The fixed side: what the bot typed (exact in: what is paid; exact out: what comes back).
  const pays = request.kind === 'buy' ? 'pair' : 'token';
  const fixedIsPay = request.exact === 'in';
  const fixedUnit = fixedIsPay === (pays === 'pair') ? 'pair' : 'token';
  const fixedWei = weiOf(request.amount, fixedUnit === 'pair' ? (pair?.decimals ?? 18) : tokenDecimals);
  const fixed = fixedUnit === 'pair' ? pairLeg(fixedWei) : tokenLeg(fixedWei);
  const otherWei = both ? BigInt((fixedIsPay ? both.receive : both.pay).wei) : null;
  const other = fixedUnit === 'pair' ? tokenLeg(otherWei) : pairLeg(otherWei);
  const pay = fixedIsPay ? fixed : other;
  const receive = fixedIsPay ? other : fixed;
  const estimate = built === null;

  return (
    <div className="flex min-w-0 items-center gap-3">
      <TokenLogo src={info?.image ?? null} symbol={symbol ?? '?'} address={request.token} size="sm" />
      <div className="flex min-w-0 flex-col gap-0.5">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-semibold capitalize">{request.kind}</span>
          <Link to={`/token/${request.token}`} className="font-semibold no-underline" testId="request-token">
            {symbol ?? `${request.token.slice(0, 8)}…`}
          </Link>
          {info && <span className="truncate text-xs text-muted">{info.name}</span>}
        </div>
        <div className="flex flex-wrap items-baseline gap-x-2 text-[0.8125rem]">
          <span className="text-muted">Pay</span>
          <LegView leg={pay} testId="request-pay" estimate={estimate && !fixedIsPay} />
          <ArrowRight size={13} aria-hidden="true" className="self-center text-muted" />
          <span className="text-muted">get</span>
          <LegView leg={receive} testId="request-receive" estimate={estimate && fixedIsPay} />
          <span className="text-xs text-muted">· slippage {request.slippageBps / 100}%</span>
        </div>
      </div>
    </div>
  );
}
