import { useState } from 'react';
import { ActionProgressView } from '../components/ActionProgressView';
import { displayUnits } from '../format';
import { type ActionProgress, sendBuild } from '../wallet/sendBuild';
import { buildClaim, type ReferrerRecord } from './referralsApi';

const bnb = (wei: string | bigint): string => `${displayUnits(wei)} BNB`;

function WeekRow({ week }: { week: ReferrerRecord['lifetime']['claimableWeeks'][number] }) {
  const state = week.paid ? 'paid' : week.claimable ? 'claimable' : 'waiting';
  return (
    <tr data-testid="lifetime-week" data-week={week.week} data-state={state}>
      <td>week {week.week}</td>
      <td>{bnb(week.amount)}</td>
      <td>{week.paid ? 'yes' : 'no'}</td>
      <td>{week.claimable ? 'yes' : week.paid ? 'no' : 'not yet (the week is not posted)'}</td>
    </tr>
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
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const claimable = lifetime.claimableWeeks.filter((week) => week.claimable);
  const claimableWei = claimable.reduce((sum, week) => sum + BigInt(week.amount), 0n);
  const running = progress !== null && !['done', 'rejected', 'failed'].includes(progress.stage);

  async function claim() {
    const result = await sendBuild({
      title: `Claim ${bnb(claimableWei)} of lifetime referral share`,
      request: { kind: 'claim' },
      build: buildClaim,
      onProgress: setProgress,
    });
    if (result.progress.stage === 'done') onClaimed();
  }

  return (
    <section className="panel" data-testid="lifetime">
      <h3>Lifetime share</h3>
      <table>
        <tbody>
          <tr>
            <th scope="row">Wallets bound to you</th>
            <td data-testid="lifetime-referred">{lifetime.referred}</td>
          </tr>
          <tr>
            <th scope="row">Most paid in one week</th>
            <td data-testid="lifetime-cap">{bnb(lifetime.weeklyCapWei)}</td>
          </tr>
          <tr>
            <th scope="row">Paid to you so far</th>
            <td data-testid="lifetime-paid">{bnb(lifetime.allTimePaidWei)}</td>
          </tr>
          <tr>
            <th scope="row">Today so far (estimate)</th>
            <td data-testid="lifetime-today">
              {lifetime.todayEstimateWei === null ? (
                <span className="muted">none: no wallet is bound to you</span>
              ) : (
                bnb(lifetime.todayEstimateWei)
              )}
            </td>
          </tr>
          <tr>
            <th scope="row">Carried over the weekly cap</th>
            <td data-testid="lifetime-backlog">
              {lifetime.backlog === null ? (
                <span className="muted">nothing</span>
              ) : (
                <>
                  {bnb(lifetime.backlog.owedWei)}{' '}
                  <span className="muted">
                    (since week {lifetime.backlog.sinceWeek}, last added week {lifetime.backlog.lastAddedWeek}; paid in
                    later weeks)
                  </span>
                </>
              )}
            </td>
          </tr>
        </tbody>
      </table>
      {lifetime.claimableWeeks.length === 0 ? (
        <p className="muted" data-testid="lifetime-no-weeks">
          No week has paid you a share yet.
        </p>
      ) : (
        <table data-testid="lifetime-weeks">
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col">Amount</th>
              <th scope="col">Paid</th>
              <th scope="col">Claimable</th>
            </tr>
          </thead>
          <tbody>
            {lifetime.claimableWeeks.map((week) => (
              <WeekRow key={week.week} week={week} />
            ))}
          </tbody>
        </table>
      )}
      {claimable.length > 0 && (
        <p>
          <button type="button" disabled={running} onClick={() => void claim()} data-testid="lifetime-claim">
            Claim {bnb(claimableWei)} ({claimable.length} {claimable.length === 1 ? 'week' : 'weeks'})
          </button>{' '}
          <span className="muted">One transaction; you pay its gas, the referral vault pays you.</span>
        </p>
      )}
      <ActionProgressView progress={progress} />
    </section>
  );
}
