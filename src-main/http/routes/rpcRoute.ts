import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Hex } from 'viem';
import { RpcError } from '../../chain/devnet/edrProvider';
import type { Devnet } from '../../chain/devnet/startDevnet';
import { txpoolContent, txpoolStatus } from '../../chain/devnet/txpool';
import { requireJsonType } from '../middleware/jsonBody';

/** Methods that only read, passed to the EVM unchanged. */
const READ_METHODS = new Set([
  'web3_clientVersion',
  'net_version',
  'eth_chainId',
  'eth_syncing',
  'eth_blockNumber',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_call',
  'eth_estimateGas',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getLogs',
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_newPendingTransactionFilter',
  'eth_pendingTransactions',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
  'debug_traceCall',
  'debug_traceTransaction',
]);

/**
 * The devnet's stand-in for a block builder's private RPC: a signed transaction held outside the mempool and put into
 * the next block (see Devnet.sendPrivateRawTransaction). Not a standard method; a builder takes eth_sendRawTransaction
 * at an address of its own.
 */
const PRIVATE_SEND = 'devnet_sendPrivateRawTransaction';

const RPC_BODY_LIMIT = 1024 * 1024;
const MAX_BATCH = 100;

type RpcAnswer = {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

/** A whole number of seconds as a JSON number, a decimal string or a 0x quantity; undefined when it is none. */
function secondsOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !/^(0x[0-9a-fA-F]{1,13}|\d{1,15})$/.test(value)) return undefined;
  const seconds = Number(value);
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

function failure(id: unknown, code: number, message: string, data?: unknown): RpcAnswer {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

function rpcOf(devnet: Devnet) {
  return (method: string, params: unknown[] = []) => devnet.provider.request({ method, params } as never);
}

async function answer(devnet: Devnet, request: unknown): Promise<RpcAnswer> {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return failure(null, -32600, 'Invalid request: expected a JSON-RPC request object');
  }
  const { id = null, method, params = [] } = request as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof method !== 'string') return failure(id, -32600, 'Invalid request: method must be a string');
  if (!Array.isArray(params)) return failure(id, -32602, 'Invalid params: params must be an array');
  try {
    if (method === 'eth_sendRawTransaction' || method === PRIVATE_SEND) {
      const raw = params[0];
      if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(raw)) {
        return failure(id, -32602, 'Invalid params: expected one signed transaction as 0x-hex');
      }
      const sent =
        method === PRIVATE_SEND ? devnet.sendPrivateRawTransaction(raw as Hex) : devnet.sendRawTransaction(raw as Hex);
      return { jsonrpc: '2.0', id, result: await sent };
    }
    if (method === 'evm_mine') {
      // Hardhat's form: evm_mine, or evm_mine(timestamp) to mine the block at that time and go on from it.
      const given = params[0];
      const timestamp = given === undefined || given === null ? undefined : secondsOf(given);
      if (given !== undefined && given !== null && timestamp === undefined) {
        return failure(id, -32602, 'Invalid params: evm_mine takes nothing, or a timestamp in whole seconds');
      }
      await devnet.mine(timestamp);
      return { jsonrpc: '2.0', id, result: '0x0' };
    }
    if (method === 'evm_increaseTime') {
      const seconds = secondsOf(params[0]);
      if (seconds === undefined) {
        return failure(id, -32602, 'Invalid params: evm_increaseTime takes a whole number of seconds to move forward');
      }
      return { jsonrpc: '2.0', id, result: (await devnet.increaseTime(seconds)).toString() };
    }
    if (method === 'evm_setNextBlockTimestamp') {
      const timestamp = secondsOf(params[0]);
      if (timestamp === undefined) {
        return failure(id, -32602, 'Invalid params: evm_setNextBlockTimestamp takes a timestamp in whole seconds');
      }
      await devnet.setNextBlockTimestamp(timestamp);
      return { jsonrpc: '2.0', id, result: timestamp.toString() };
    }
    if (method === 'txpool_content') {
      return { jsonrpc: '2.0', id, result: await devnet.publicRead(() => txpoolContent(rpcOf(devnet))) };
    }
    if (method === 'txpool_status') {
      return { jsonrpc: '2.0', id, result: await devnet.publicRead(() => txpoolStatus(rpcOf(devnet))) };
    }
    if (!READ_METHODS.has(method)) {
      return failure(
        id,
        -32601,
        `Method ${method} is not available on the devnet RPC: it serves reads, eth_sendRawTransaction, the mempool (txpool_content, txpool_status, eth_newPendingTransactionFilter), ${PRIVATE_SEND} (a block builder's private lane), evm_mine, evm_increaseTime and evm_setNextBlockTimestamp`,
      );
    }
    const reply = await devnet.publicRead(() => devnet.provider.raw(method, params));
    if (reply.error) return failure(id, reply.error.code, reply.error.message, reply.error.data);
    // A pending-transaction filter lists what entered the EVM's mempool, the private lane's too on their way into
    // their block: those were never public, so they are left out (blocks' and logs' filters answer no such hash).
    const result =
      method === 'eth_getFilterChanges' && Array.isArray(reply.result)
        ? reply.result.filter((item) => typeof item !== 'string' || !devnet.sentPrivately(item as Hex))
        : reply.result;
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    if (error instanceof RpcError) return failure(id, error.code, error.shortMessage, error.data);
    return failure(id, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `POST /rpc` on the devnet: the chain's JSON-RPC for bots and tests. Reads pass through (the mempool and the `pending`
 * tag included, as a searcher reads a BSC node); signed transactions, `evm_mine` and the clock's moves go through the
 * devnet's journal, so what is sent here survives a restart. `devnet_sendPrivateRawTransaction` is the private lane a
 * block builder's private RPC would be. Batches are answered in order.
 *
 * Only JSON is read (`Content-Type: application/json`, as every JSON-RPC client sends it; INVALID_BODY otherwise): a
 * page on another origin can make a browser POST text/plain without asking first, and it would then mine blocks, move
 * the chain's clock and send transactions signed with the public test keys. A JSON POST from such a page needs a CORS
 * preflight, which this server never grants, and any request it makes carries its origin (refused by ownPagesOnly, in
 * front of every route). A wallet extension (MetaMask and the like) calls from its own `chrome-extension://` or
 * `moz-extension://` origin and is let through: no web page can send that origin, and the extension's calls are the
 * person's, like a bot's. So the API's rule for writes (only this server's own Origin, or none) is not applied here.
 */
export function rpcRoute(app: Hono, devnet: Devnet): void {
  app.post(
    '/rpc',
    async (c, next) => {
      requireJsonType(c.req.header('content-type'));
      await next();
    },
    bodyLimit({
      maxSize: RPC_BODY_LIMIT,
      onError: (c) => c.json(failure(null, -32600, `Invalid request: body over ${RPC_BODY_LIMIT} bytes`), 413),
    }),
    async (c) => {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        return c.json(failure(null, -32700, 'Parse error: the body is not valid JSON'));
      }
      if (!Array.isArray(body)) return c.json(await answer(devnet, body));
      if (body.length === 0 || body.length > MAX_BATCH) {
        return c.json(failure(null, -32600, `Invalid request: a batch holds 1 to ${MAX_BATCH} requests`));
      }
      const answers: RpcAnswer[] = [];
      for (const request of body) answers.push(await answer(devnet, request));
      return c.json(answers);
    },
  );
}
