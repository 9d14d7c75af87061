import type { Hex } from 'viem';
import { maskedUrl } from './devnet/forkSource';

/** How long the private RPC may take to answer one send before it counts as unreachable (as the RPC's default). */
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Why a send to the private RPC failed: it answered and said no (`refused`: a JSON-RPC error, a 4xx, an answer that
 * is not JSON-RPC), or it could not be reached or did not answer in time (`unreachable`: connection refused or
 * reset, no such host, a timeout, a 5xx). `message` says it in words, without the URL's credentials.
 */
export class PrivateRpcError extends Error {
  override name = 'PrivateRpcError';
  constructor(
    readonly reason: 'refused' | 'unreachable',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/** A block builder's private RPC: it takes a signed transaction and includes it without the public mempool. */
export interface PrivateRpc {
  /** The URL with what may be a key in it masked, for the log and Settings. */
  readonly shownUrl: string;
  /** Sends one signed transaction (`eth_sendRawTransaction`); throws PrivateRpcError when it is not taken. */
  send(raw: Hex): Promise<void>;
}

/**
 * The client of a private RPC: one JSON-RPC POST per transaction, no retry (a second send of the same transaction is
 * the caller's choice), no batching, and nothing else is ever asked of it: reads and receipts stay on the public RPC.
 *
 * @example await privateRpc('https://rpc.builder.example', { timeoutMs: 5_000 }).send(signedRaw)
 */
export function privateRpc(url: string, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): PrivateRpc {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fetchFn = options.fetch ?? fetch;
  const shownUrl = maskedUrl(url);
  return {
    shownUrl,
    async send(raw) {
      let response: Response;
      try {
        response = await fetchFn(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        throw new PrivateRpcError('unreachable', unreachableReason(cause, timeoutMs), { cause });
      }
      const text = await response.text().catch(() => '');
      if (response.status >= 500) {
        throw new PrivateRpcError('unreachable', `it answered HTTP ${response.status} ${excerpt(text)}`.trim());
      }
      if (!response.ok) {
        throw new PrivateRpcError('refused', `it answered HTTP ${response.status} ${excerpt(text)}`.trim());
      }
      let answer: { result?: unknown; error?: { code?: unknown; message?: unknown } };
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        throw new PrivateRpcError('refused', `its answer is not JSON-RPC: ${excerpt(text) || '(empty)'}`);
      }
      if (answer?.error) {
        const message = typeof answer.error.message === 'string' ? answer.error.message : JSON.stringify(answer.error);
        throw new PrivateRpcError('refused', excerpt(message));
      }
      // Taken. Whatever hash it answers, the receipt is followed by the transaction's own, on the public RPC.
      if (typeof answer !== 'object' || answer === null || !('result' in answer)) {
        throw new PrivateRpcError('refused', `its answer is not JSON-RPC: ${excerpt(text)}`);
      }
    },
  };
}

function unreachableReason(cause: unknown, timeoutMs: number): string {
  const error = cause as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError') {
    // The request left: the builder may have taken it and still include it (a new build then reuses its nonce).
    return `no answer within ${Math.round(timeoutMs / 1000)} s (it may still include the transaction)`;
  }
  const code = error?.cause?.code;
  if (code === 'ECONNREFUSED') return 'the connection was refused (nothing listens there)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name does not resolve';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed before it answered';
  return excerpt(error?.cause?.message ?? error?.message ?? String(cause));
}

/** At most 200 characters of what the endpoint said, on one line. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
