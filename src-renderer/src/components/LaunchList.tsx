import type { LaunchListItem } from '../api/launches';
import { LaunchListRow } from './LaunchListRow';

/** The launches, newest first, one row each. */
export function LaunchList({ launches, now }: { launches: LaunchListItem[]; now: number }) {
  if (launches.length === 0) {
    return (
      <p className="muted" data-testid="launches-empty">
        No tokens launched yet. New launches appear here within seconds.
      </p>
    );
  }
  return (
    <table className="tk-launches" data-testid="launches">
      <thead>
        <tr>
          <th scope="col">
            <span className="tk-visually-hidden">Logo</span>
          </th>
          <th scope="col">Name</th>
          <th scope="col">Symbol</th>
          <th scope="col">Market cap</th>
          <th scope="col">Launched</th>
          <th scope="col">Creator</th>
        </tr>
      </thead>
      <tbody>
        {launches.map((launch) => (
          <LaunchListRow key={launch.token} launch={launch} now={now} />
        ))}
      </tbody>
    </table>
  );
}
