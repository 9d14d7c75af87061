/**
 * What a person reads when one of their transactions was mined but reverted: why, in the words of what they did, and
 * what to do now. Keyed by the contracts' custom error names (the decoded revert of the transaction replayed at its
 * block); anything else says that it reverted and names the error.
 *
 * @example explainRevert('PoolOccupied', ['0xPool']) // "Someone created and priced this token's pool before…"
 */
export function explainRevert(name: string, args: readonly string[]): string {
  switch (name) {
    case 'PoolOccupied':
      // The launch page says the same in its own panel (launch/PoolTakenPanel.tsx), with a button to launch again.
      return "Someone created and priced this token's pool before your launch was mined, with their own liquidity in the way: they saw it waiting in the mempool. Nothing was launched and only the network fee was spent. Build the launch again: a new build picks another token address, and the launch page keeps your form.";
    case 'LimitNotMet':
      return 'The price moved past your limit before the trade was mined (other trades came first), so nothing was traded and only the network fee was spent. Quote again, and raise the slippage only if you accept the worse price.';
    case 'Expired':
      return 'The trade reached the chain after its deadline, so nothing was traded and only the network fee was spent. Build it again.';
    case 'AlreadyBound':
      return `Your wallet is bound to another referrer${args[0] ? ` (${args[0]})` : ''}, so a trade naming someone else is refused. Trade naming that referrer, or none.`;
    case 'LaunchesPaused':
      return 'Launches are paused by the operator right now; nothing was launched. Try again later.';
    case 'PoolTooThin':
      return 'The pool could not fill the trade (too little liquidity at these prices); nothing was traded. Try a smaller amount.';
    case 'AlreadyClaimed':
      return 'That referral week was claimed already; nothing more was paid. Check your referral page.';
    case 'WeekNotOpen':
      return 'That referral week was posted less than an hour ago: its claims open an hour after posting. Nothing was paid; claim again then.';
    case 'passes now':
      return 'The transaction reverted on chain: something mined before it in its block got in its way, and it would pass now. Nothing it was to do was done and only the network fee was spent. Build it again.';
    default:
      return `The transaction reverted on chain (${name}); nothing it was to do was done, and only the network fee was spent.`;
  }
}
