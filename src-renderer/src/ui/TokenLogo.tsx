import { useState } from 'react';
import { cn } from './cn';

const SIZES = { sm: 'size-7 text-[0.625rem]', md: 'size-9 text-xs', lg: 'size-14 text-base', xl: 'size-20 text-xl' };

/** Hue from the address, so a token without a logo still has a colour of its own. */
function hueOf(address: string): number {
  return Number.parseInt(address.slice(2, 8) || '0', 16) % 360;
}

/** A token's logo, or its symbol's first letters on a colour of its own while there is none. */
export function TokenLogo({
  src,
  symbol,
  address,
  size = 'md',
  testId,
}: {
  src: string | null | undefined;
  symbol: string;
  address: string;
  size?: keyof typeof SIZES;
  testId?: string;
}) {
  const [broken, setBroken] = useState(false);
  if (src && !broken) {
    return (
      <img
        src={src}
        alt={`${symbol} logo`}
        data-testid={testId}
        onError={() => setBroken(true)}
        className={cn('shrink-0 rounded-full bg-raised object-cover', SIZES[size])}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn('inline-flex shrink-0 items-center justify-center rounded-full font-bold text-white', SIZES[size])}
      style={{ background: `oklch(0.48 0.14 ${hueOf(address)})` }}
    >
      {symbol.slice(0, 3).toUpperCase()}
    </span>
  );
}
