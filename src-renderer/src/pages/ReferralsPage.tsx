import { useCallback } from 'react';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { useLoaded } from '../components/useLoaded';
import { EarningsTable } from '../referrals/EarningsTable';
import { LifetimeShare } from '../referrals/LifetimeShare';
import { ReferralLinks } from '../referrals/ReferralLinks';
import { ReferrerStanding } from '../referrals/ReferrerStanding';
import { fetchReferrer } from '../referrals/referralsApi';
import { Link } from '../router/Link';
import { activeAddress, useWallet } from '../wallet/walletStore';

function ReferralRecordView({ wallet }: { wallet: Address }) {
  const { data: record, failure, reload: load } = useLoaded(useCallback(() => fetchReferrer(wallet), [wallet]));

  return (
    <>
      {failure && <ErrorPanel title="Could not read the referral record" error={failure} onRetry={() => void load()} />}
      {!record && !failure && <p className="muted">Loading…</p>}
      {record && (
        <>
          <ReferrerStanding record={record} onRegistered={() => void load()} />
          <ReferralLinks record={record} />
          <EarningsTable earnings={record.instant.earnings} />
          <LifetimeShare lifetime={record.lifetime} onClaimed={() => void load()} />
        </>
      )}
    </>
  );
}

/** The signer's wallet as a referrer: standing and registering, links, instant earnings and the lifetime share. */
export function ReferralsPage() {
  const wallet = useWallet(activeAddress);
  return (
    <>
      <h2>Referrals</h2>
      {wallet ? (
        <ReferralRecordView key={wallet} wallet={wallet} />
      ) : (
        <p data-testid="no-signer">
          Set up a signer in <Link to="/settings">Settings</Link> to see its referral record.
        </p>
      )}
    </>
  );
}
