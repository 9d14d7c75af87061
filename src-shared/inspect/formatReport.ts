import type { TxSummary } from './decodeCall';
import { BNB, formatAmount, formatBps, formatDeadline, formatFeeTier } from './humanUnits';
import type { InspectedTx, InspectResult } from './inspectBuild';

/**
 * The inspection as plain text, for a terminal or a log: each step and then the main transaction, with its contract,
 * function, arguments in human units, value, gas, deadline, referrer and fees, and every check marked ✓ or ✗ with
 * its id, so what failed can be acted on (and searched for) by its id.
 */
export function formatReport(result: InspectResult, now: number): string {
  const lines: string[] = [];
  const heading =
    result.kind === 'invalid'
      ? 'Not a build the inspector reads'
      : `${KIND_TITLES[result.kind]}${result.wallet ? ` for wallet ${result.wallet}, which must sign every transaction` : ''}${result.intentId ? ` (prepared request ${result.intentId})` : ''}`;
  lines.push(heading);
  result.steps.forEach((step, i) => {
    lines.push('', `Step ${i + 1} of ${result.steps.length}: ${step.step}`);
    transaction(lines, step, now);
  });
  lines.push('', result.steps.length > 0 ? 'Main transaction (after the steps)' : 'Transaction');
  transaction(lines, result.main, now);
  const checks = [...result.steps.flatMap((s) => s.checks), ...result.main.checks];
  const failed = checks.filter((c) => !c.ok);
  lines.push(
    '',
    result.ok
      ? `OK: all ${checks.length} checks pass`
      : `NOT OK: ${failed.length} of ${checks.length} checks failed: ${[...new Set(failed.map((c) => c.id))].join(', ')}`,
  );
  return `${lines.join('\n')}\n`;
}

const KIND_TITLES = {
  trade: 'Trade build',
  launch: 'Launch build',
  claim: 'Referral claim build',
  collect: "Collect build (a launch's fees)",
  unsigned: 'Unsigned transaction',
} as const;

function transaction(lines: string[], item: InspectedTx, now: number): void {
  if (item.summary) summaryLines(lines, item.summary, now);
  lines.push('  checks:');
  for (const check of item.checks) lines.push(`    ${check.ok ? '✓' : '✗'} ${check.id}: ${check.message}`);
}

function summaryLines(lines: string[], s: TxSummary, now: number): void {
  lines.push(`  chain: ${s.chainId}`);
  lines.push(`  contract: ${s.contractLabel} at ${s.to}`);
  lines.push(`  function: ${s.function ?? (s.call.kind === 'undecoded' ? `not decoded: ${s.call.reason}` : '?')}`);
  for (const arg of s.args) lines.push(`    ${arg.name}: ${arg.display}`);
  lines.push(`  value: ${s.value.display}`);
  lines.push(`  gas: ${s.gas ?? 'not given (sent after the steps)'}`);
  if (s.deadline !== null) lines.push(`  deadline: ${formatDeadline(BigInt(s.deadline), now)}`);
  if (s.call.kind === 'trade' || s.call.kind === 'claim') lines.push(`  referrer: ${s.referrer ?? 'none'}`);
  const fees = feeLine(s);
  if (fees) lines.push(`  fees: ${fees}`);
  for (const note of s.notes) lines.push(`  note: ${note}`);
}

function feeLine(s: TxSummary): string {
  const { poolFeeTier, siteFeeBps, referrerBps, burnBps, launchFeeWei } = s.fees;
  const parts: string[] = [];
  if (poolFeeTier !== null) parts.push(`pool tier ${formatFeeTier(poolFeeTier)}`);
  if (siteFeeBps !== null) parts.push(`site fee ${formatBps(siteFeeBps)}`);
  if (referrerBps !== null) parts.push(`referrer cut ${formatBps(referrerBps)} (out of the site fee)`);
  if (burnBps !== null) parts.push(`royalty burn ${formatBps(burnBps)}`);
  if (launchFeeWei !== null) parts.push(`launch fee ${formatAmount(BigInt(launchFeeWei), BNB)}`);
  return parts.join(', ');
}
