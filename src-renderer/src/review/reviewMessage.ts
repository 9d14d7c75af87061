import type { ReviewCheck, ReviewItem } from './reviewStore';

/**
 * A challenge message on the review screen, checked line by line: it is one of this service's challenges, for the
 * signer's wallet, on this chain, not expired. Anything else (a message that could be a permit or an order) is
 * blocked.
 */
export function reviewChallenge(request: {
  title: string;
  message: string;
  wallet: string;
  chainId: number;
  now?: number;
}): ReviewItem {
  const { message, wallet, chainId } = request;
  const lines = message.split('\n');
  const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
  const expires = Date.parse(field('Expires') ?? '');
  const now = request.now ?? Date.now();
  const checks: ReviewCheck[] = [
    {
      id: 'message-ours',
      ok:
        lines[0]?.startsWith('Launchpad Companion: ') === true &&
        lines.at(-1) === 'Signing costs nothing and moves nothing.',
      message: "It is one of this service's challenges, which move nothing.",
    },
    {
      id: 'wallet-matches',
      ok: field('Wallet')?.toLowerCase() === wallet.toLowerCase(),
      message: `It names the signer's wallet ${wallet} (it says ${field('Wallet') ?? 'none'}).`,
    },
    {
      id: 'chain-id',
      ok: field('Chain') === String(chainId),
      message: `It is for chain ${chainId} (it says ${field('Chain') ?? 'none'}).`,
    },
    {
      id: 'not-expired',
      ok: Number.isFinite(expires) && expires > now,
      message: Number.isFinite(expires) ? `It expires ${new Date(expires).toLocaleTimeString()}.` : 'It has no expiry.',
    },
  ];
  return { title: request.title, stepLabel: 'A message to sign (no gas, moves nothing)', fields: [], message, checks };
}
