import type { UsdPerUnit } from '../api/dollars';
import type { LaunchListItem } from '../api/launches';
import { LaunchListRow } from './LaunchListRow';
import type { DayStats } from './tokenDayStats';

/** The launches in the order given, one row each, logo first, figures right-aligned. */
export function LaunchList({
  launches,
  now,
  usdPerUnit,
  days,
  fresh,
  always,
}: {
  launches: LaunchListItem[];
  now: number;
  usdPerUnit: UsdPerUnit;
  days: ReadonlyMap<string, DayStats>;
  fresh: ReadonlySet<string>;
  /** Read every row's market now, not as it scrolls into view (the list is sorted by them). */
  always: boolean;
}) {
  return (
    <table data-testid="launches" className="w-full table-fixed">
      <colgroup>
        <col />
        <col className="w-[8.5rem]" />
        <col className="w-[7rem]" />
        <col className="w-[6rem]" />
        <col className="w-[7rem]" />
        <col className="w-[7rem]" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">Token</th>
          <th scope="col" className="num">
            Price
          </th>
          <th scope="col" className="num">
            Market cap
          </th>
          <th scope="col" className="num" title="The pool price now against the price at the start of the last 24 h">
            24h
          </th>
          <th scope="col" className="num" title="Traded in the last 24 h, from the indexed trades">
            24h vol
          </th>
          <th scope="col" className="num">
            Age
          </th>
        </tr>
      </thead>
      <tbody>
        {launches.map((launch) => (
          <LaunchListRow
            key={launch.token}
            launch={launch}
            now={now}
            usdPerUnit={usdPerUnit}
            day={days.get(launch.token) ?? null}
            fresh={fresh.has(launch.token)}
            always={always}
          />
        ))}
      </tbody>
    </table>
  );
}
