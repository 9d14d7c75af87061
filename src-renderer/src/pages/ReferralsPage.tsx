import { useQuery } from '@tanstack/react-query';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { EarningsTable } from '../referrals/EarningsTable';
import { LifetimeShare } from '../referrals/LifetimeShare';
import { ReferralLinks } from '../referrals/ReferralLinks';
import { ReferrerStanding } from '../referrals/ReferrerStanding';
import { fetchReferrer } from '../referrals/referralsApi';
import { Link } from '../router/Link';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { activeAddress, useWallet } from '../wallet/walletStore';

function ReferralRecordView({ wallet }: { wallet: Address }) {
  const {
    data: record,
    error,
    refetch,
  } = useQuery({
    queryKey: ['referrals', wallet],
    queryFn: () => fetchReferrer(wallet),
  });
  const load = () => void refetch();

  if (error && !record) {
    return <ErrorPanel title="Could not read the referral record" error={failureOf(error)} onRetry={load} />;
  }
  if (!record) return <p className="text-muted">Loading…</p>;
  return (
    <div className="flex flex-col gap-4">
      <ReferrerStanding record={record} onRegistered={load} />
      <ReferralLinks record={record} />
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <EarningsTable earnings={record.instant.earnings} />
        <LifetimeShare lifetime={record.lifetime} onClaimed={load} />
      </div>
    </div>
  );
}

/** The signer's wallet as a referrer: standing and registering, links, instant earnings and the lifetime share. */
export function ReferralsPage() {
  const wallet = useWallet(activeAddress);
  return (
    <>
      <PageHeader
        title="Referrals"
        description="Share a link: every trade made through it pays you an instant cut, and the wallets it brings pay you a share of the site's income for life."
      />
      {wallet ? (
        <ReferralRecordView key={wallet} wallet={wallet} />
      ) : (
        <Card>
          <Empty title="No signer yet" testId="no-signer">
            Set up a signer in <Link to="/settings">Settings</Link> to see its referral record.
          </Empty>
        </Card>
      )}
    </>
  );
}
