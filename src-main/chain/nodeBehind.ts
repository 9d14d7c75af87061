import { BaseError } from 'viem';

/**
 * What a node answers when asked for a block it does not have yet: geth's "header not found" (a number) and "header
 * for hash not found" (an EIP-1898 hash), "unknown block", and eth_getLogs' "block range extends beyond current head
 * block". Asked of a block at or below a head another node already reported, it means the node answering is behind.
 */
const BEHIND = /header not found|header for hash not found|unknown block|block not found|beyond current head/i;

/** Whether an RPC error says the answering node does not have the block asked for (see BEHIND). */
export function saysNodeBehind(error: unknown): boolean {
  let found = false;
  const look = (e: unknown) => {
    const { message, details, shortMessage } = e as { message?: string; details?: string; shortMessage?: string };
    if (BEHIND.test(`${details ?? ''} ${shortMessage ?? ''} ${message ?? ''}`)) found = true;
    return false;
  };
  if (error instanceof BaseError) error.walk(look);
  else look(error);
  return found;
}
