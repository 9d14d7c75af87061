/*
 * The private RPC URL (a block builder's endpoint that takes a signed transaction without putting it in the public
 * mempool), checked the same by main (flags, variables, saved settings) and the settings form.
 */

/** The longest private RPC URL taken, as for the RPC URL. */
export const PRIVATE_RPC_URL_MAX = 2048;

/**
 * Why `text` cannot be a private RPC URL, or null when it can: an http:// or https:// address with a host (a path,
 * query or credentials, where the builder puts an API key, allowed), no spaces, at most 2,048 characters. ws:// is not
 * taken: one signed transaction is one POST.
 *
 * @example privateRpcUrlProblem('https://builder.example/rpc?key=abc') // null
 * @example privateRpcUrlProblem('wss://builder.example') // 'a private RPC URL starts with http:// or https://…'
 */
export function privateRpcUrlProblem(text: string): string | null {
  if (text.length > PRIVATE_RPC_URL_MAX) return `a private RPC URL is at most ${PRIVATE_RPC_URL_MAX} characters`;
  if (!/^https?:\/\/[^\s]+$/i.test(text)) {
    return "a private RPC URL starts with http:// or https://, like https://rpc.builder.example (the block builder's address)";
  }
  try {
    if (!new URL(text).hostname) return 'a private RPC URL names a host, like https://rpc.builder.example';
  } catch {
    return 'a private RPC URL is a whole address, like https://rpc.builder.example';
  }
  return null;
}
