import {
  type Address,
  concat,
  type Hex,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  stringToHex,
  toHex,
} from 'viem';
import type { ForkInfo } from '../../../src-shared/appChannelTypes';
import { type Logger, silentLogger } from '../../log/createLogger';
import type { DevnetJournal, JournalEntry } from '../../store/devnetJournal';
import { FORK_CHAIN_ID } from '../networks';
import { BSC_FEE_SETTINGS, withBscFees } from './bscFees';
import { DEVNET_BALANCE_WEI, type DevnetContracts, deployDevnet, GENESIS_TIME } from './deployDevnet';
import { createEdrProvider, type EdrProvider, type ForkPoint, RpcError, setNextBlockTimestamp } from './edrProvider';
import { type ForkAddresses, maskedUrl, sourceNetworkOf } from './forkSource';
import { setupFork } from './setupFork';
import { type TestAccount, testAccounts } from './testAccounts';

export const DEVNET_CHAIN_ID = 31337;
/** Block gas limit of the devnet, BSC's order of magnitude. */
export const DEVNET_BLOCK_GAS_LIMIT = 140_000_000n;

export interface ReplayReport {
  /** Blocks rebuilt from the journal. */
  blocks: number;
  /** Rebuilt blocks whose hash differs from the one recorded (should be 0). */
  mismatches: number;
  /** Journal entries made on another devnet build, kept but not replayed. */
  foreign: number;
}

export interface Devnet {
  readonly provider: EdrProvider;
  /** 31337, or FORK_CHAIN_ID on a rehearsal. */
  readonly chainId: number;
  /** Present on a rehearsal: what it forked. */
  readonly fork?: ForkInfo;
  readonly contracts: DevnetContracts;
  readonly accounts: readonly TestAccount[];
  /** Hash of the last deployment block: identifies this devnet build. */
  readonly fingerprint: Hex;
  readonly replay: ReplayReport;
  /** Mines a signed transaction in a block of its own and records it in the journal. Returns the transaction hash. */
  sendRawTransaction(raw: Hex): Promise<Hex>;
  /** Mines an empty block and records it. Returns the block hash. */
  mine(): Promise<Hex>;
  /** Called after every block made through this devnet. Returns the function that unsubscribes. */
  onBlock(listener: (blockNumber: bigint) => void): () => void;
  /**
   * Runs reads between blocks: no block made through this devnet and no throw-away copy (`onCopy`) is under way while
   * `work` runs, so what it reads is the real chain, whole.
   */
  between<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` on a throw-away copy of the chain: a snapshot is taken, `work` may send transactions as any account
   * (impersonated), and everything is reverted afterwards. Blocks made through the journal wait meanwhile, so nothing
   * real interleaves with the copy.
   */
  onCopy<T>(
    work: (send: (tx: { from: Address; to: Address; data: Hex; value?: bigint }) => Promise<void>) => Promise<T>,
  ): Promise<T>;
}

export interface DevnetOptions {
  /** Where user blocks are recorded and replayed from; without it nothing survives a restart. */
  journal?: DevnetJournal;
  log?: Logger;
  /** Wall clock in seconds, replaceable in tests. */
  now?: () => number;
  /** Runs as a fork of another chain (a rehearsal) instead of the empty devnet. */
  fork?: { point: ForkPoint; addresses: ForkAddresses };
  /** BSC's fee settings: base fee 0, and transactions under the validators' minimum gas price refused (see bscFees). */
  bscFees?: boolean;
}

interface BlockHeader {
  hash: Hex;
  number: Hex;
  timestamp: Hex;
}

/**
 * Starts the embedded devnet: an in-process EVM with the exchange and the service's contracts at fixed addresses,
 * the 20 test accounts funded, and every block users made on earlier runs replayed from the journal.
 */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const log = options.log ?? silentLogger();
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const accounts = testAccounts();
  const operator = accounts[0];
  if (!operator) throw new Error('the devnet needs its operator account');
  const forked = options.fork;
  const chainId = forked ? FORK_CHAIN_ID : DEVNET_CHAIN_ID;
  const evm = await createEdrProvider({
    chainId,
    genesisTime: GENESIS_TIME,
    balances: accounts.map((a) => ({ address: a.address, wei: DEVNET_BALANCE_WEI })),
    ownedKeys: [operator.privateKey],
    blockGasLimit: DEVNET_BLOCK_GAS_LIMIT,
    ...(forked ? { fork: forked.point } : {}),
    ...(options.bscFees ? BSC_FEE_SETTINGS : {}),
  });
  const provider = options.bscFees ? withBscFees(evm) : evm;
  const latest = async () =>
    (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as BlockHeader;
  let contracts: DevnetContracts;
  let fork: ForkInfo | undefined;
  if (forked) {
    // The test accounts get their devnet balance on the fork too (whatever they hold on the source).
    for (const account of accounts) {
      await provider.request({
        method: 'hardhat_setBalance',
        params: [account.address, toHex(DEVNET_BALANCE_WEI)],
      } as never);
    }
    const setup = await setupFork(provider, accounts, forked.addresses, BigInt((await latest()).timestamp), log);
    contracts = setup.contracts;
    fork = {
      sourceChainId: forked.point.sourceChainId,
      sourceNetwork: sourceNetworkOf(forked.point.sourceChainId) ?? 'devnet',
      block: Number(forked.point.blockNumber),
      url: maskedUrl(forked.point.url),
      contracts: setup.deployed ? 'deployed' : 'found',
    };
  } else {
    contracts = await deployDevnet(provider, accounts);
  }
  const lastSetupBlock = (await latest()).hash;
  // A rehearsal's blocks replay only onto the same source, fork block and set-up: its fingerprint covers all three.
  const fingerprint = forked ? keccak256(concat([lastSetupBlock, stringToHex(forked.point.url)])) : lastSetupBlock;
  if (forked) {
    options.journal?.recordFork(fingerprint, {
      url: forked.point.url,
      sourceChainId: forked.point.sourceChainId,
      block: Number(forked.point.blockNumber),
    });
  }

  const listeners = new Set<(blockNumber: bigint) => void>();
  // One block at a time: the timestamp chosen, the transaction sent and the journal entry written belong together.
  let queue: Promise<unknown> = Promise.resolve();
  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  }

  async function nextTimestamp(): Promise<number> {
    return Math.max(now(), Number((await latest()).timestamp) + 1);
  }
  async function sendRaw(raw: Hex): Promise<{ txHash: Hex; blockHash: Hex; blockNumber: bigint }> {
    const txHash = (await provider.request({ method: 'eth_sendRawTransaction', params: [raw] })) as Hex;
    const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [txHash] })) as {
      blockHash: Hex;
      blockNumber: Hex;
    } | null;
    if (!receipt) throw new RpcError(-32000, `transaction ${txHash} was accepted but not mined`);
    return { txHash, blockHash: receipt.blockHash, blockNumber: BigInt(receipt.blockNumber) };
  }
  async function mineBlock(): Promise<{ blockHash: Hex; blockNumber: bigint }> {
    await provider.request({ method: 'evm_mine', params: [] } as never);
    const block = await latest();
    return { blockHash: block.hash, blockNumber: BigInt(block.number) };
  }
  function announce(blockNumber: bigint): void {
    for (const listener of listeners) {
      try {
        listener(blockNumber);
      } catch (error) {
        log.error(`devnet block listener failed: ${String(error)}`);
      }
    }
  }

  const replay: ReplayReport = { blocks: 0, mismatches: 0, foreign: options.journal?.countForeign(fingerprint) ?? 0 };
  for (const entry of options.journal?.entries(fingerprint) ?? []) {
    await setNextBlockTimestamp(provider, entry.timestamp);
    try {
      const mined = entry.kind === 'tx' && entry.raw ? await sendRaw(entry.raw) : await mineBlock();
      if (entry.blockHash !== null && mined.blockHash !== entry.blockHash) replay.mismatches++;
    } catch (error) {
      replay.mismatches++;
      log.warn(`devnet replay: block ${replay.blocks + 1} could not be rebuilt: ${String(error)}`);
    }
    replay.blocks++;
  }
  if (replay.blocks > 0) log.info(`devnet: replayed ${replay.blocks} blocks from the journal`);
  if (replay.mismatches > 0) log.warn(`devnet: ${replay.mismatches} replayed blocks differ from the recorded ones`);
  const otherForks = options.journal?.foreignForks(fingerprint) ?? [];
  for (const other of otherForks) {
    log.info(
      `devnet: ${other.entries} journal entries belong to a rehearsal forked from ${maskedUrl(other.url)} at block ${other.block}; kept, not replayed (start with that --fork URL and --fork-block ${other.block} to go back to it)`,
    );
  }
  const otherBuilds = replay.foreign - otherForks.reduce((sum, other) => sum + other.entries, 0);
  if (otherBuilds > 0) {
    log.info(`devnet: ${otherBuilds} journal entries were made on another devnet build; kept, not replayed`);
  }

  const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

  /**
   * Makes one block, journaled ahead of it: a journal that cannot be written (the database locked by another program
   * past its busy timeout, or the disk full) refuses the block before anything is mined, so a restart never loses a
   * block its sender was told of. The entry gets the block's hashes afterwards, for the replay to check; should that
   * last write fail, the entry still replays the same block from its transaction and timestamp.
   */
  async function journaled<T extends { blockHash: Hex; blockNumber: bigint; txHash?: Hex }>(
    entry: Pick<JournalEntry, 'kind' | 'raw'>,
    make: () => Promise<T>,
  ): Promise<T> {
    const journal = options.journal;
    const timestamp = await nextTimestamp();
    const seq = journal ? writeAhead(journal, { ...entry, timestamp }) : undefined;
    await setNextBlockTimestamp(provider, timestamp);
    let made: T;
    try {
      made = await make();
    } catch (error) {
      if (journal && seq !== undefined) {
        forget(() => journal.discard(seq), 'a refused transaction stays in the journal (its replay is refused too)');
      }
      throw error;
    }
    if (journal && seq !== undefined) {
      forget(
        () => journal.complete(seq, made.txHash ?? null, made.blockHash),
        `block ${made.blockNumber} is journaled without its hash (it replays all the same)`,
      );
    }
    announce(made.blockNumber);
    return made;
  }

  function writeAhead(journal: DevnetJournal, entry: Omit<JournalEntry, 'txHash' | 'blockHash'>): number {
    try {
      return journal.begin(fingerprint, entry);
    } catch (error) {
      throw new RpcError(
        -32603,
        `the devnet could not record the block (${reason(error)}), so nothing was mined; send again`,
      );
    }
  }

  /** A journal write whose failure is logged, not thrown: the block it concerns is already settled. */
  function forget(write: () => void, consequence: string): void {
    try {
      write();
    } catch (error) {
      log.warn(`devnet: ${consequence}: ${reason(error)}`);
    }
  }

  async function checkNonce(raw: Hex): Promise<void> {
    let from: Address;
    let nonce: number | undefined;
    try {
      nonce = parseTransaction(raw).nonce;
      from = await recoverTransactionAddress({ serializedTransaction: raw as never });
    } catch (error) {
      throw new RpcError(
        -32602,
        `not a signed transaction: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    }
    const expected = Number(await provider.request({ method: 'eth_getTransactionCount', params: [from, 'pending'] }));
    // The devnet mines each transaction at once, so one that would wait for a gap to fill is refused rather than
    // left pending where the journal cannot order it.
    if (nonce !== undefined && nonce > expected) {
      throw new RpcError(-32000, `nonce too high: ${from} is at nonce ${expected}, the transaction has ${nonce}`);
    }
  }

  return {
    provider,
    chainId,
    ...(fork ? { fork } : {}),
    contracts,
    accounts,
    fingerprint,
    replay,
    sendRawTransaction: (raw) =>
      serialized(async () => {
        await checkNonce(raw);
        const mined = await journaled({ kind: 'tx', raw }, () => sendRaw(raw));
        return mined.txHash;
      }),
    mine: () =>
      serialized(async () => {
        const mined = await journaled({ kind: 'mine', raw: null }, mineBlock);
        return mined.blockHash;
      }),
    onBlock(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    between: (work) => serialized(work),
    onCopy: (work) =>
      serialized(async () => {
        const snapshot = await provider.request({ method: 'evm_snapshot', params: [] } as never);
        const impersonated = new Set<Address>();
        try {
          return await work(async ({ from, to, data, value = 0n }) => {
            if (!impersonated.has(from)) {
              await provider.request({ method: 'hardhat_impersonateAccount', params: [from] } as never);
              impersonated.add(from);
            }
            await provider.request({
              method: 'eth_sendTransaction',
              params: [{ from, to, data, value: `0x${value.toString(16)}` }],
            } as never);
          });
        } finally {
          await provider.request({ method: 'evm_revert', params: [snapshot] } as never);
          for (const account of impersonated) {
            await provider.request({ method: 'hardhat_stopImpersonatingAccount', params: [account] } as never);
          }
        }
      }),
  };
}
