import { readerLocale } from '../../../src-shared/format/locale';
import { Amount, Usd } from '../ui/Amount';
import { Card } from '../ui/Card';
import type { Earnings, ReferrerRecord } from './referralsApi';

const PERIODS: { key: keyof ReferrerRecord['instant']['earnings']; label: string }[] = [
  { key: 'h24', label: 'Last 24 hours' },
  { key: 'd7', label: 'Last 7 days' },
  { key: 'd30', label: 'Last 30 days' },
  { key: 'all', label: 'All time' },
];

function ByCurrency({ earnings }: { earnings: Earnings }) {
  if (earnings.byCurrency.length === 0) return <span className="text-muted">nothing yet</span>;
  return (
    <ul className="m-0 flex list-none flex-col items-end gap-0.5 p-0">
      {earnings.byCurrency.map((total) => (
        <li key={total.currency.address} data-testid={`earned-${total.currency.symbol}`} className="whitespace-nowrap">
          <Amount wei={total.wei} decimals={total.currency.decimals} symbol={total.currency.symbol} significant={5} />{' '}
          <span className="text-xs text-muted">
            · {total.trades.toLocaleString(readerLocale())} {total.trades === 1 ? 'trade' : 'trades'}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The instant cuts earned on trades through the referrer, per period: in dollars (as the API counted them, each cut at
 * its trade's price) and in each currency.
 */
export function EarningsTable({ earnings }: { earnings: ReferrerRecord['instant']['earnings'] }) {
  return (
    <Card title="Instant earnings" flush>
      <table data-testid="earnings" className="w-full">
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col" className="num">
              In dollars
            </th>
            <th scope="col" className="num">
              By currency
            </th>
          </tr>
        </thead>
        <tbody>
          {PERIODS.map(({ key, label }) => (
            <tr key={key} data-testid={`earnings-${key}`}>
              <th scope="row" className="font-medium">
                {label}
              </th>
              <td data-testid={`earnings-${key}-usd`} className="num font-semibold">
                <Usd value={earnings[key].usd} />
                {earnings[key].unpriced.length > 0 && (
                  <div className="text-xs font-normal text-muted">plus unpriced currencies</div>
                )}
              </td>
              <td className="num">
                <ByCurrency earnings={earnings[key]} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
