import type { Earnings, ReferrerRecord } from './referralsApi';

const PERIODS: { key: keyof ReferrerRecord['instant']['earnings']; label: string }[] = [
  { key: 'h24', label: 'Last 24 hours' },
  { key: 'd7', label: 'Last 7 days' },
  { key: 'd30', label: 'Last 30 days' },
  { key: 'all', label: 'All time' },
];

/** Dollars as the API counted them (each cut at its trade's price); shown, never computed with. */
const dollars = (usd: number): string => `$${usd.toFixed(2)}`;

function ByCurrency({ earnings }: { earnings: Earnings }) {
  if (earnings.byCurrency.length === 0) return <span className="muted">nothing yet</span>;
  return (
    <ul className="acct-plain-list">
      {earnings.byCurrency.map((total) => (
        <li key={total.currency.address} data-testid={`earned-${total.currency.symbol}`}>
          {total.amount} {total.currency.symbol}{' '}
          <span className="muted">
            ({total.trades} {total.trades === 1 ? 'trade' : 'trades'}
            {total.usd === null ? ', no dollar price' : `, ${dollars(total.usd)}`})
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The instant cuts earned on trades through the referrer, per period, in dollars and in each currency. */
export function EarningsTable({ earnings }: { earnings: ReferrerRecord['instant']['earnings'] }) {
  return (
    <section className="panel">
      <h3>Instant earnings</h3>
      <table data-testid="earnings">
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col">In dollars</th>
            <th scope="col">By currency</th>
          </tr>
        </thead>
        <tbody>
          {PERIODS.map(({ key, label }) => (
            <tr key={key} data-testid={`earnings-${key}`}>
              <th scope="row">{label}</th>
              <td data-testid={`earnings-${key}-usd`}>
                {dollars(earnings[key].usd)}
                {earnings[key].unpriced.length > 0 && <span className="muted"> plus unpriced currencies</span>}
              </td>
              <td>
                <ByCurrency earnings={earnings[key]} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
