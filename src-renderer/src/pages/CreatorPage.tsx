import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { type CreatorLaunches, fetchCreatorLaunches } from '../creator/creatorApi';
import { LaunchEarnings } from '../creator/LaunchEarnings';
import { failureOf } from '../failureOf';
import { Link } from '../router/Link';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { activeAddress, useWallet } from '../wallet/walletStore';

/** The figures move with every trade: read them again this often while the page is open. */
const REFRESH_MS = 15_000;
/** After a collect is mined, read every second until the indexer has its event (the collected figures move). */
const AFTER_COLLECT_MS = 1_000;

/** What a launch's collects took so far; a new collect changes it once the indexer has the collect's block. */
function collectedOf(answer: CreatorLaunches | undefined, token: Address): string | null {
  const launch = answer?.launches.find((l) => l.token.address.toLowerCase() === token.toLowerCase());
  return launch ? `${launch.fees.pair.collected.wei}/${launch.fees.token.collected.wei}` : null;
}

function CreatorLaunchesView({ wallet }: { wallet: Address }) {
  const [awaiting, setAwaiting] = useState<{ token: Address; collected: string | null } | null>(null);
  const { data, error, refetch } = useQuery({
    queryKey: ['creator-launches', wallet],
    queryFn: () => fetchCreatorLaunches(wallet),
    refetchInterval: (query) => {
      if (awaiting && collectedOf(query.state.data, awaiting.token) === awaiting.collected) return AFTER_COLLECT_MS;
      return REFRESH_MS;
    },
  });
  if (awaiting && data && collectedOf(data, awaiting.token) !== awaiting.collected) setAwaiting(null);

  if (error && !data) {
    return <ErrorPanel title="Could not read your launches" error={failureOf(error)} onRetry={() => void refetch()} />;
  }
  if (!data) return <p className="text-muted">Loading…</p>;
  if (data.launches.length === 0) {
    return (
      <Card>
        <Empty title="No launches yet" testId="creator-none">
          Tokens this wallet launches show here with what their liquidity earns.{' '}
          <Link to="/launch">Launch a token</Link>.
        </Empty>
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-4" data-testid="creator-launches" data-block={data.block}>
      {data.launches.map((launch) => (
        <LaunchEarnings
          key={launch.token.address}
          launch={launch}
          wallet={wallet}
          onCollected={(token) => {
            setAwaiting({ token, collected: collectedOf(data, token) });
            void refetch();
          }}
        />
      ))}
    </div>
  );
}

/** The signer's wallet as a creator: each token it launched, what its liquidity earned, and Collect. */
export function CreatorPage() {
  const wallet = useWallet(activeAddress);
  return (
    <>
      <PageHeader
        title="Your launches"
        description="What the locked liquidity of each token you launched earned in trading fees, the royalty paid, the tokens bought back and burned, and where the first buy went. Collect takes the waiting fees."
      />
      {wallet ? (
        <CreatorLaunchesView key={wallet} wallet={wallet} />
      ) : (
        <Card>
          <Empty title="No signer yet" testId="no-signer">
            Set up a signer in <Link to="/settings">Settings</Link> to see the tokens it launched.
          </Empty>
        </Card>
      )}
    </>
  );
}
