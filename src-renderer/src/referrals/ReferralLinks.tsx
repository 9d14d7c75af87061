import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isShareableLink } from '../../../src-shared/publicLinkBase';
import { ADDRESS_PATTERN as ADDRESS } from '../../../src-shared/schema/common';
import { fetchLaunches } from '../api/launches';
import { ErrorPanel } from '../components/ErrorPanel';
import { NoShareLink } from '../components/NoShareLink';
import { failureOf } from '../failureOf';
import { Link } from '../router/Link';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import type { WalletFailure } from '../wallet/walletStore';
import { CopyButton } from './CopyButton';
import { fetchReferralLink, type ReferrerRecord } from './referralsApi';

function LinkRow({ name, label, link, note }: { name: string; label: string; link: string; note?: string }) {
  return (
    <div data-testid={`referral-link-${name}`} className="flex flex-wrap items-start gap-x-4 gap-y-1.5 py-3">
      <div className="w-40 shrink-0 pt-1 text-[0.8125rem] font-medium">{label}</div>
      <div className="min-w-0 flex-1">
        <code
          className="block rounded-md bg-raised px-2 py-1 font-mono text-xs break-all"
          data-testid={`referral-link-${name}-value`}
        >
          {link}
        </code>
        {note && <p className="mt-1 text-xs text-muted">{note}</p>}
      </div>
      <CopyButton text={link} testId={`referral-link-${name}-copy`} />
    </div>
  );
}

/**
 * A token's page with the referrer, for a token picked from the launches or pasted: the link comes from the service
 * (which checks the address and puts it under the public link base), never from editing `{token}` by hand.
 */
function TokenLink({ referrer, shareable }: { referrer: ReferrerRecord['address']; shareable: boolean }) {
  const id = useId();
  const [picked, setPicked] = useState('');
  const [pasted, setPasted] = useState('');
  const launches = useQuery({ queryKey: ['launches', 'newest'], queryFn: () => fetchLaunches(), staleTime: 30_000 });
  const token = ADDRESS.test(pasted.trim()) ? pasted.trim() : picked;
  const link = useQuery({
    queryKey: ['referrals', referrer, 'link', `/token/${token}`],
    queryFn: () => fetchReferralLink(referrer, `/token/${token}`),
    enabled: shareable && ADDRESS.test(token),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const chosen = launches.data?.launches.find((launch) => launch.token.toLowerCase() === token.toLowerCase());
  return (
    <div className="py-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-56 flex-1 flex-col gap-1.5">
          <label htmlFor={`${id}-pick`} className="text-[0.8125rem] font-medium">
            A token's page
          </label>
          <select
            id={`${id}-pick`}
            value={picked}
            onChange={(event) => {
              setPicked(event.target.value);
              setPasted('');
            }}
            data-testid="referral-token-pick"
          >
            <option value="">Choose a launch…</option>
            {launches.data?.launches.map((launch) => (
              <option key={launch.token} value={launch.token}>
                {launch.symbol} · {launch.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-56 flex-1 flex-col gap-1.5">
          <label htmlFor={`${id}-paste`} className="text-[0.8125rem] font-medium">
            or paste its address
          </label>
          <input
            id={`${id}-paste`}
            value={pasted}
            placeholder="0x…"
            spellCheck={false}
            onChange={(event) => setPasted(event.target.value)}
            aria-invalid={pasted.trim() !== '' && !ADDRESS.test(pasted.trim())}
            data-testid="referral-token-address"
            className="font-mono"
          />
        </div>
      </div>
      {pasted.trim() !== '' && !ADDRESS.test(pasted.trim()) && (
        <p className="mt-1 text-xs text-down" role="alert">
          A token address is 0x and 40 hex digits.
        </p>
      )}
      {link.data && isShareableLink(link.data.link) && (
        <LinkRow name="token" label={chosen ? `${chosen.symbol}'s page` : 'The token’s page'} link={link.data.link} />
      )}
      {!shareable && ADDRESS.test(token) && (
        <div className="mt-3">
          <NoShareLink token={token} testId="referral-token-no-link" explained />
        </div>
      )}
      {link.error && <ErrorPanel title="Could not make that link" error={failureOf(link.error)} />}
    </div>
  );
}

/**
 * The referrer's links: the launch page, any token's page (picked, not typed into a template), and a link to
 * whichever page of the app the person names. A wallet that trades through one is bound to the referrer for life.
 * Without a public link base there are no links others could open: it says what they need, and a picked token's
 * address and explorer page stand in.
 */
export function ReferralLinks({ record }: { record: ReferrerRecord }) {
  const id = useId();
  const [path, setPath] = useState('/');
  const [picked, setPicked] = useState<string | null>(null);
  const [failure, setFailure] = useState<WalletFailure | null>(null);
  // Made under the public base: without one they would open for nobody else, and are not offered.
  const shareable = isShareableLink(record.links.launch);

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
    <Card title="Your links" testId="referral-links">
      {!record.eligible && (
        <p className="mb-2 rounded-lg bg-warn-soft px-3 py-2 text-warn" data-testid="referral-links-not-eligible">
          Register first: until then, trades through these links are refused rather than paying you.
        </p>
      )}
      {!shareable && (
        <div className="mb-2 rounded-lg bg-raised px-3 py-2" data-testid="referral-links-no-base">
          <p className="font-semibold">No links to share yet</p>
          <p className="text-muted">
            A referral link others can open needs the public base of shared links: an https:// site that serves this
            app's pages, set in <Link to="/settings">Settings</Link>. Without one, a link would point at this computer
            or at the app's own scheme, which open for nobody else. Meanwhile, pick a token for its address and explorer
            page.
          </p>
        </div>
      )}
      <div className="divide-y divide-line">
        {shareable && <LinkRow name="launch" label="Launch a token" link={record.links.launch} />}
        {shareable && <LinkRow name="home" label="The launches" link={record.links.base} />}
        <TokenLink referrer={record.address} shareable={shareable} />
        {shareable && (
          <div className="py-3">
            <form
              className="flex flex-wrap items-end gap-3"
              onSubmit={(event) => {
                event.preventDefault();
                void makeLink();
              }}
            >
              <div className="flex min-w-56 flex-1 flex-col gap-1.5">
                <label htmlFor={`${id}-path`} className="text-[0.8125rem] font-medium">
                  Another page of the app
                </label>
                <input
                  id={`${id}-path`}
                  value={path}
                  onChange={(event) => setPath(event.target.value)}
                  placeholder="/activity"
                  data-testid="referral-path"
                  className="font-mono"
                />
              </div>
              <Button type="submit" disabled={!path.trim().startsWith('/')} testId="referral-path-make">
                Make the link
              </Button>
            </form>
            {picked && isShareableLink(picked) && <LinkRow name="picked" label="That page" link={picked} />}
            {failure && <ErrorPanel title="Could not make that link" error={failure} />}
          </div>
        )}
      </div>
    </Card>
  );
}
