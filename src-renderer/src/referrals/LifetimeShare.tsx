import { useState } from 'react';
import { readerLocale } from '../../../src-shared/format/locale';
import { formatAmount } from '../../../src-shared/format/numbers';
import { ActionProgressView } from '../components/ActionProgressView';
import { Amount } from '../ui/Amount';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { type ActionProgress, sendBuild } from '../wallet/sendBuild';
import { buildClaim, type ReferrerRecord } from './referralsApi';
import { useBnbUsd } from './useBnbUsd';

function Bnb({ wei, usd }: { wei: string | bigint; usd: number | null }) {
  return <Amount wei={wei} decimals={18} symbol="BNB" usdPerUnit={usd} significant={5} />;
}

function WeekRow({ week, usd }: { week: ReferrerRecord['lifetime']['claimableWeeks'][number]; usd: number | null }) {
  const state = week.paid ? 'paid' : week.claimable ? 'claimable' : 'waiting';
  return (
    <tr data-testid="lifetime-week" data-week={week.week} data-state={state}>
      <td>Week {week.week}</td>
      <td className="num">
        <Bnb wei={week.amount} usd={usd} />
      </td>
      <td className="text-right">
        {week.paid ? (
          <Badge tone="up">paid</Badge>
        ) : week.claimable ? (
          <Badge tone="primary">claimable</Badge>
        ) : (
          <Badge title="The week is not posted yet">waiting</Badge>
        )}
      </td>
    </tr>
  );
}

function Fact({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-1.5">
      <dt className="text-muted">{label}</dt>
      <dd className="m-0 text-right tabular" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * The lifetime side: wallets bound, the weekly cap and backlog, what was paid, and the weeks with their state; one
 * Claim sends a single transaction for every claimable week.
 */
export function LifetimeShare({
  lifetime,
  onClaimed,
}: {
  lifetime: ReferrerRecord['lifetime'];
  onClaimed: () => void;
}) {
  const usd = useBnbUsd();
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const claimable = lifetime.claimableWeeks.filter((week) => week.claimable);
  const claimableWei = claimable.reduce((sum, week) => sum + BigInt(week.amount), 0n);
  const running = progress !== null && !['done', 'rejected', 'failed'].includes(progress.stage);

  async function claim() {
    const result = await sendBuild({
      title: `Claim ${formatAmount(claimableWei, 18, { significant: 6 })} BNB of lifetime referral share`,
      request: { kind: 'claim' },
      build: buildClaim,
      onProgress: setProgress,
    });
    if (result.progress.stage === 'done') onClaimed();
  }

  return (
    <Card title="Lifetime share" testId="lifetime">
      <dl className="m-0 divide-y divide-line">
        <Fact label="Wallets bound to you" testId="lifetime-referred">
          {lifetime.referred.toLocaleString(readerLocale())}
        </Fact>
        <Fact label="Paid to you so far" testId="lifetime-paid">
          <Bnb wei={lifetime.allTimePaidWei} usd={usd} />
        </Fact>
        <Fact label="Today so far (estimate)" testId="lifetime-today">
          {lifetime.todayEstimateWei === null ? (
            <span className="text-muted">none: no wallet is bound to you</span>
          ) : (
            <Bnb wei={lifetime.todayEstimateWei} usd={usd} />
          )}
        </Fact>
        <Fact label="Most paid in one week" testId="lifetime-cap">
          <Bnb wei={lifetime.weeklyCapWei} usd={usd} />
        </Fact>
        <Fact label="Carried over the weekly cap" testId="lifetime-backlog">
          {lifetime.backlog === null ? (
            <span className="text-muted">nothing</span>
          ) : (
            <>
              <Bnb wei={lifetime.backlog.owedWei} usd={usd} />
              <div className="text-xs text-muted">
                since week {lifetime.backlog.sinceWeek}, last added week {lifetime.backlog.lastAddedWeek}; paid in later
                weeks
              </div>
            </>
          )}
        </Fact>
      </dl>
      {lifetime.claimableWeeks.length === 0 ? (
        <p className="mt-3 text-muted" data-testid="lifetime-no-weeks">
          No week has paid you a share yet.
        </p>
      ) : (
        <table data-testid="lifetime-weeks" className="mt-3 w-full">
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col" className="text-right">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {lifetime.claimableWeeks.map((week) => (
              <WeekRow key={week.week} week={week} usd={usd} />
            ))}
          </tbody>
        </table>
      )}
      {claimable.length > 0 && (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <Button variant="primary" disabled={running} onClick={() => void claim()} testId="lifetime-claim">
            Claim {formatAmount(claimableWei, 18, { significant: 6 })} BNB ({claimable.length}{' '}
            {claimable.length === 1 ? 'week' : 'weeks'})
          </Button>
          <span className="text-xs text-muted">One transaction; you pay its gas, the referral vault pays you.</span>
        </div>
      )}
      <ActionProgressView progress={progress} />
    </Card>
  );
}
