import { useState } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import type { WalletFailure } from '../wallet/walletStore';
import { CopyButton } from './CopyButton';
import { fetchReferralLink, type ReferrerRecord } from './referralsApi';

function LinkRow({ name, label, link, note }: { name: string; label: string; link: string; note?: string }) {
  return (
    <tr data-testid={`referral-link-${name}`}>
      <th scope="row">{label}</th>
      <td>
        <code className="acct-link" data-testid={`referral-link-${name}-value`}>
          {link}
        </code>
        {note && <div className="muted">{note}</div>}
      </td>
      <td>
        <CopyButton text={link} testId={`referral-link-${name}-copy`} />
      </td>
    </tr>
  );
}

/**
 * The referrer's links: the launch page, any token page, and a link to whichever page of the app the person picks.
 * A wallet that trades through one is bound to the referrer for life.
 */
export function ReferralLinks({ record }: { record: ReferrerRecord }) {
  const [path, setPath] = useState('/');
  const [picked, setPicked] = useState<string | null>(null);
  const [failure, setFailure] = useState<WalletFailure | null>(null);

  async function makeLink() {
    setFailure(null);
    setPicked(null);
    try {
      setPicked((await fetchReferralLink(record.address, path.trim())).link);
    } catch (cause) {
      setFailure(failureOf(cause));
    }
  }

  return (
    <section className="panel" data-testid="referral-links">
      <h3>Your links</h3>
      {!record.eligible && (
        <p className="muted" data-testid="referral-links-not-eligible">
          Register first: until then, trades through these links are refused rather than paying you.
        </p>
      )}
      <table>
        <tbody>
          <LinkRow name="launch" label="Launch a token" link={record.links.launch} />
          <LinkRow
            name="token"
            label="A token's page"
            link={record.links.token}
            note="Replace {token} with the token's address."
          />
          {picked && <LinkRow name="picked" label={`The page ${path.trim()}`} link={picked} />}
        </tbody>
      </table>
      <form
        className="acct-inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void makeLink();
        }}
      >
        <label>
          A link to another page of the app{' '}
          <input
            value={path}
            onChange={(event) => setPath(event.target.value)}
            placeholder="/token/0x…"
            data-testid="referral-path"
          />
        </label>{' '}
        <button type="submit" disabled={!path.trim().startsWith('/')} data-testid="referral-path-make">
          Make the link
        </button>
      </form>
      {failure && <ErrorPanel title="Could not make that link" error={failure} />}
    </section>
  );
}
