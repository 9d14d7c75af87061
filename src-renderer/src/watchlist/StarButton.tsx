import { Star } from 'lucide-react';
import { cn } from '../ui/cn';
import { useBusyAction } from '../ui/useBusyAction';
import { appChannelAvailable } from '../wallet/appChannel';
import { unwatchCreator, unwatchToken, useWatchlist, watchCreator, watchToken } from './watchlistApi';
import { askNotificationPermission } from './webNotifications';

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * A star that adds a token or a creator to the watchlist, or takes it off. Only the app's own page changes the
 * watchlist, so a page opened without the run's token shows none. Starring asks the browser for leave to notify, the
 * first time it is needed.
 */
function StarButton({
  starred,
  what,
  size,
  testId,
  onChange,
}: {
  starred: boolean | null;
  /** "this token", "this creator": the button's name. */
  what: string;
  size: number;
  testId: string;
  onChange(star: boolean): Promise<unknown>;
}) {
  const { busy, failure, run } = useBusyAction();
  if (!appChannelAvailable) return null;
  const label = starred ? `Unwatch ${what}` : `Watch ${what}`;
  const toggle = () => {
    if (!starred) void askNotificationPermission();
    return run(() => onChange(!starred));
  };
  return (
    <button
      type="button"
      aria-pressed={starred ?? false}
      aria-label={label}
      title={failure?.message ?? label}
      disabled={busy || starred === null}
      onClick={() => void toggle()}
      data-testid={testId}
      data-starred={starred ? 'yes' : 'no'}
      className={cn(
        'inline-flex shrink-0 cursor-pointer items-center justify-center rounded-md p-1 hover:bg-raised disabled:cursor-wait',
        starred ? 'text-warn' : failure ? 'text-down' : 'text-muted hover:text-fg',
      )}
    >
      <Star size={size} aria-hidden="true" fill={starred ? 'currentColor' : 'none'} />
    </button>
  );
}

/** The star of a token; unstarring drops its alert rule too. */
export function TokenStar({ address, size = 18 }: { address: string; size?: number }) {
  const watchlist = useWatchlist();
  const starred = watchlist.data ? watchlist.data.tokens.some((token) => sameAddress(token.address, address)) : null;
  return (
    <StarButton
      starred={starred}
      what="this token"
      size={size}
      testId="star-token"
      onChange={(star) => (star ? watchToken(address, null) : unwatchToken(address))}
    />
  );
}

/** The star of a creator: each of the wallet's launches then raises a notification. */
export function CreatorStar({ address, size = 14 }: { address: string; size?: number }) {
  const watchlist = useWatchlist();
  const starred = watchlist.data
    ? watchlist.data.creators.some((creator) => sameAddress(creator.address, address))
    : null;
  return (
    <StarButton
      starred={starred}
      what="this creator"
      size={size}
      testId="star-creator"
      onChange={(star) => (star ? watchCreator(address) : unwatchCreator(address))}
    />
  );
}
