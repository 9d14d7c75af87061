import type { Hex } from 'viem';

/**
 * The revert data a mined transaction stopped with, from the node's tracer (`debug_traceTransaction`, with memory,
 * stack and storage left out): what the transaction met in its block, which a call replayed afterwards may not. '0x'
 * for a revert without data; undefined when the trace says it did not fail or carries no return value. Throws what the node answers when it
 * does not trace (many public BSC nodes).
 *
 * @example const data = await tracedRevertData((method, params) => client.request({ method, params } as never), hash)
 */
export async function tracedRevertData(
  request: (method: string, params: unknown[]) => Promise<unknown>,
  hash: Hex,
): Promise<Hex | undefined> {
  const trace = (await request('debug_traceTransaction', [
    hash,
    { disableMemory: true, disableStack: true, disableStorage: true },
  ])) as { failed?: boolean; returnValue?: string } | null;
  if (!trace?.failed || typeof trace.returnValue !== 'string') return undefined;
  const value = trace.returnValue;
  return (value.startsWith('0x') ? value : `0x${value}`) as Hex;
}
