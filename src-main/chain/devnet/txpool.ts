import { type Address, getAddress, type Hex } from 'viem';

/** A pending transaction as the EVM answers eth_pendingTransactions (the fields read here). */
interface PendingTx {
  hash: Hex;
  from: Address;
  nonce: Hex;
  [field: string]: unknown;
}

type Request = (method: string, params?: unknown[]) => Promise<unknown>;

/** What geth's txpool_content answers: per sender and nonce, what can be mined next (`pending`) and what waits for a gap (`queued`). */
export interface TxpoolContent {
  pending: Record<Address, Record<string, PendingTx>>;
  queued: Record<Address, Record<string, PendingTx>>;
}

/**
 * The devnet's mempool in geth's txpool shape, which searchers' tools read: a sender's transactions from its mined
 * nonce on without a gap are `pending`, the rest `queued`.
 */
export async function txpoolContent(request: Request): Promise<TxpoolContent> {
  const waiting = (await request('eth_pendingTransactions', [])) as PendingTx[];
  const bySender = new Map<Address, PendingTx[]>();
  for (const tx of waiting) {
    // Keyed by the checksummed address, as geth answers.
    const sender = getAddress(tx.from);
    const list = bySender.get(sender) ?? [];
    list.push(tx);
    bySender.set(sender, list);
  }
  const content: TxpoolContent = { pending: {}, queued: {} };
  for (const [sender, list] of bySender) {
    let next = BigInt((await request('eth_getTransactionCount', [sender, 'latest'])) as Hex);
    list.sort((a, b) => (BigInt(a.nonce) < BigInt(b.nonce) ? -1 : 1));
    for (const tx of list) {
      const nonce = BigInt(tx.nonce);
      const side = nonce === next ? 'pending' : 'queued';
      if (side === 'pending') next++;
      content[side][sender] ??= {};
      (content[side][sender] as Record<string, PendingTx>)[nonce.toString()] = tx;
    }
  }
  return content;
}

/** geth's txpool_status: how many transactions are pending and queued, as hex quantities. */
export async function txpoolStatus(request: Request): Promise<{ pending: Hex; queued: Hex }> {
  const content = await txpoolContent(request);
  const count = (side: TxpoolContent['pending']) =>
    Object.values(side).reduce((sum, byNonce) => sum + Object.keys(byNonce).length, 0);
  return { pending: `0x${count(content.pending).toString(16)}`, queued: `0x${count(content.queued).toString(16)}` };
}
