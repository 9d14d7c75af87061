import { BaseError } from 'viem';

/**
 * Why an eth_getLogs was refused, when a smaller range cannot help: the RPC does not serve the method at all (public
 * endpoints answer -32601 "method not found" or "eth_getLogs is disabled"), or it asks to slow down (429). Null for
 * anything else: a range too wide or an answer too large, in the many wordings providers use.
 */
export function logsRefusal(error: unknown): 'no-logs' | 'rate-limited' | null {
  let found: 'no-logs' | 'rate-limited' | null = null;
  const look = (e: unknown) => {
    const { code, status, message, details } = e as {
      code?: number;
      status?: number;
      message?: string;
      details?: string;
    };
    const text = `${message ?? ''} ${details ?? ''}`;
    if (
      code === -32601 ||
      /method not found|eth_getLogs\b.*\b(does not exist|not available)|getLogs is disabled/i.test(text)
    ) {
      found = 'no-logs';
    } else if (status === 429 || code === 429 || /too many requests|rate limit/i.test(text)) found ??= 'rate-limited';
    return false;
  };
  if (error instanceof BaseError) error.walk(look);
  else look(error);
  return found;
}
