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
import { BSC_FEE_SETTINGS, bscUnderpriced, withBscFees } from './bscFees';
import { DEVNET_BALANCE_WEI, type DevnetContracts, deployDevnet, GENESIS_TIME } from './deployDevnet';
import { createEdrProvider, type EdrProvider, type ForkPoint, RpcError, setNextBlockTimestamp } from './edrProvider';
import { type ForkAddresses, maskedUrl, sourceNetworkOf } from './forkSource';
import { setupFork } from './setupFork';
import { type TestAccount, testAccounts } from './testAccounts';
import { txpoolStatus } from './txpool';

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
  /** Milliseconds between blocks; 0 mines each transaction at once in a block of its own. */
  readonly blockTimeMs: number;
  /**
   * Takes a signed transaction, journaled, and returns its hash. At once (block time 0) it is mined in a block of its
   * own before this returns; at a cadence it waits in the mempool for the next block (see `included`).
   */
  sendRawTransaction(raw: Hex): Promise<Hex>;
  /**
   * The private lane, as a block builder's private RPC serves BSC: takes a signed transaction and holds it outside the
   * mempool (txpool_content, eth_pendingTransactions, a pending-transaction filter and eth_getTransactionByHash never
   * show it), then puts it into the very next block as that block is made. Journaled like the mempool. Refuses at
   * once what the next block could not take (a nonce used or leaving a gap, too little BNB, under BSC's minimum gas
   * price). Without a cadence it is mined at once in a block of its own, like any transaction. Returns its hash.
   */
  sendPrivateRawTransaction(raw: Hex): Promise<Hex>;
  /**
   * Runs a read of the public /rpc so that it never meets the private lane's transactions on their way into a block
   * (they pass through the EVM's mempool for the instant the block is made): reads wait out that instant.
   */
  publicRead<T>(read: () => Promise<T>): Promise<T>;
  /** Whether the transaction came through the private lane: a pending-transaction filter must never list it. */
  sentPrivately(hash: Hex): boolean;
  /** Resolves once the transaction is in a block (at once when it already is); throws if it leaves the mempool. */
  included(hash: Hex): Promise<void>;
  /**
   * Mines a block, journaled, holding what waits in the mempool, at `timestamp` (seconds) when given, else at the
   * chain's clock. Returns the block hash.
   */
  mine(timestamp?: number): Promise<Hex>;
  /** Moves the chain's clock forward by `seconds` (journaled): the next block is that much later. Returns the total jump. */
  increaseTime(seconds: number): Promise<number>;
  /** The next block is made at `timestamp` (seconds, not before the latest block), and the clock goes on from there. */
  setNextBlockTimestamp(timestamp: number): Promise<void>;
  /** The chain's clock in seconds: the wall clock moved by every jump (the next block is at least this late). */
  clock(): number;
  /** Seconds the clock was moved ahead of the wall clock by every jump so far. */
  clockOffset(): number;
  /** Called after every block made through this devnet. Returns the function that unsubscribes. */
  onBlock(listener: (blockNumber: bigint) => void): () => void;
  /**
   * Runs reads between blocks: no block made through this devnet and no throw-away copy (`onCopy`) is under way while
   * `work` runs, so what it reads is the real chain, whole.
   */
  between<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` on a throw-away copy of the chain: a snapshot is taken, `work` may send transactions as any account
   * (impersonated, each mined at once with whatever waits in the mempool), and everything is reverted afterwards.
   * Blocks made through the journal wait meanwhile, so nothing real interleaves with the copy. `send` resolves to the
   * transaction's hash, mined on the copy by then.
   */
  onCopy<T>(
    work: (send: (tx: { from: Address; to: Address; data: Hex; value?: bigint }) => Promise<Hex>) => Promise<T>,
  ): Promise<T>;
  /** Stops the block cadence (the chain stays readable). */
  stop(): void;
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
  /**
   * A block every this many milliseconds, whether or not anything was sent, holding every pending transaction that
   * fits, by priority fee then arrival (BSC: 750). 0, the default, mines each transaction at once in its own block.
   */
  blockTimeMs?: number;
}

/** Empty blocks kept in one journal row at most (a run's timestamps are a short text of 0s and 1s). */
const EMPTY_RUN_MAX = 4096;
/** The latest the chain's clock may be moved to (9999-12-31 UTC): dates past it cannot be written or shown. */
const LATEST_CLOCK = 253_402_300_799;
/** Blocks `included` waits for a transaction before it gives up on it. */
const INCLUDED_MAX_BLOCKS = 200;
/** Hashes of the private lane's transactions kept to be left out of pending-transaction filters (the newest). */
const PRIVATE_HASHES_KEPT = 10_000;

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
  const blockTimeMs = options.blockTimeMs ?? 0;
  const atCadence = blockTimeMs > 0;
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
    // At a cadence, or replaying a journal made at one, several blocks share a second as on BSC.
    sameSecondBlocks: atCadence || (options.journal?.hasCadenceEntries() ?? false),
  });
  const provider = options.bscFees ? withBscFees(evm) : evm;
  const rpc = (method: string, params: unknown[] = []) => provider.request({ method, params } as never);
  const latest = async () => (await rpc('eth_getBlockByNumber', ['latest', false])) as BlockHeader;
  let contracts: DevnetContracts;
  let fork: ForkInfo | undefined;
  if (forked) {
    // The test accounts get their devnet balance on the fork too (whatever they hold on the source).
    for (const account of accounts) {
      await rpc('hardhat_setBalance', [account.address, toHex(DEVNET_BALANCE_WEI)]);
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

  const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
  const listeners = new Set<(blockNumber: bigint) => void>();
  // One block at a time: the timestamp chosen, the transaction sent and the journal entry written belong together.
  let queue: Promise<unknown> = Promise.resolve();
  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  }

  // The chain's clock: the wall clock moved by every jump (evm_increaseTime, a chosen timestamp), so that deadlines,
  // expiries and referral weeks can be rehearsed. A jump is journaled, so the clock is where it was after a restart.
  let offset = 0;
  let pinned: number | undefined;
  const clock = () => now() + offset;
  let automine = true;
  async function setAutomine(on: boolean): Promise<void> {
    if (automine === on) return;
    await rpc('evm_setAutomine', [on]);
    automine = on;
  }
  // Transactions go to the mempool at a cadence; the EVM mines them at once otherwise.
  await setAutomine(!atCadence);

  /** The next block's timestamp, without taking a pinned one. */
  async function upcomingTimestamp(): Promise<number> {
    const previous = Number((await latest()).timestamp);
    if (pinned !== undefined) return Math.max(pinned, previous);
    // At once, every block is a second after the last at least; at a cadence several blocks share a second, as on BSC.
    return Math.max(clock(), atCadence ? previous : previous + 1);
  }
  async function nextTimestamp(): Promise<number> {
    const chosen = await upcomingTimestamp();
    pinned = undefined;
    return chosen;
  }
  async function sendRaw(raw: Hex): Promise<{ txHash: Hex; blockHash: Hex; blockNumber: bigint }> {
    const txHash = (await rpc('eth_sendRawTransaction', [raw])) as Hex;
    const receipt = (await rpc('eth_getTransactionReceipt', [txHash])) as {
      blockHash: Hex;
      blockNumber: Hex;
    } | null;
    if (!receipt) throw new RpcError(-32000, `transaction ${txHash} was accepted but not mined`);
    return { txHash, blockHash: receipt.blockHash, blockNumber: BigInt(receipt.blockNumber) };
  }
  async function mineBlock(): Promise<{ blockHash: Hex; blockNumber: bigint }> {
    await rpc('evm_mine');
    const block = await latest();
    return { blockHash: block.hash, blockNumber: BigInt(block.number) };
  }
  /** Transactions the next block can take: those waiting for a nonce gap to fill cannot make it non-empty. */
  const executable = async () => Number((await txpoolStatus(rpc)).pending);
  function announce(blockNumber: bigint): void {
    for (const listener of listeners) {
      try {
        listener(blockNumber);
      } catch (error) {
        log.error(`devnet block listener failed: ${String(error)}`);
      }
    }
  }

  /** The private lane: signed transactions held outside the EVM's mempool until the next block, in arrival order. */
  const lane: { raw: Hex; hash: Hex; from: Address; nonce: number }[] = [];
  async function heldOf(raw: Hex): Promise<(typeof lane)[number]> {
    const from = await recoverTransactionAddress({ serializedTransaction: raw as never });
    return { raw, hash: keccak256(raw), from, nonce: parseTransaction(raw).nonce ?? 0 };
  }
  /** Every hash sent through the lane (the newest PRIVATE_HASHES_KEPT), lower case. */
  const privateHashes = new Set<string>();
  function rememberPrivate(hash: Hex): void {
    privateHashes.add(hash.toLowerCase());
    if (privateHashes.size > PRIVATE_HASHES_KEPT) {
      privateHashes.delete(privateHashes.values().next().value as string);
    }
  }
  // Reads of the public /rpc, and the instant the lane's transactions sit in the EVM's mempool on their way into a
  // block: one excludes the other, so no public read can ever see them pending.
  let publicReads = 0;
  let hiding: Promise<void> | undefined;
  let readsDone: (() => void) | undefined;
  async function publicRead<T>(read: () => Promise<T>): Promise<T> {
    while (hiding) await hiding;
    publicReads++;
    try {
      return await read();
    } finally {
      publicReads--;
      if (publicReads === 0) readsDone?.();
    }
  }
  /** Runs `work` with public reads held (those under way finish first). Called from serialized work only. */
  async function hidden<T>(work: () => Promise<T>): Promise<T> {
    let release = () => {};
    hiding = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      if (publicReads > 0) {
        await new Promise<void>((resolve) => {
          readsDone = resolve;
        });
      }
      readsDone = undefined;
      return await work();
    } finally {
      hiding = undefined;
      release();
    }
  }
  /**
   * Lets the lane's transactions into the EVM's mempool for the block about to be made (each a sender's nonces in
   * order). One the chain no longer takes (its nonce used meanwhile, its BNB spent) is dropped, as a builder drops it;
   * one that would leave a gap is dropped too rather than wait in the mempool where everyone would see it. The same
   * checks run on replay, so a replay drops what the run dropped.
   */
  async function admitPrivate(raws: readonly Hex[]): Promise<void> {
    await setAutomine(false);
    for (const raw of raws) {
      try {
        const from = await recoverTransactionAddress({ serializedTransaction: raw as never });
        const nonce = parseTransaction(raw).nonce ?? 0;
        const next = Number(await rpc('eth_getTransactionCount', [from, 'pending']));
        if (nonce > next) throw new RpcError(-32000, `nonce too high: ${from} is at nonce ${next}, it has ${nonce}`);
        await rpc('eth_sendRawTransaction', [raw]);
      } catch (error) {
        log.warn(`devnet: the private transaction ${keccak256(raw)} was dropped: ${reason(error)}`);
      }
    }
  }

  const replay: ReplayReport = { blocks: 0, mismatches: 0, foreign: options.journal?.countForeign(fingerprint) ?? 0 };
  const replayed = (hash: Hex | null, made: Hex) => {
    if (hash !== null && made !== hash) replay.mismatches++;
    replay.blocks++;
  };
  // The private lane's transactions as the journal gives them back: each waits for the next block, as it did.
  const replayLane: Hex[] = [];
  for (const entry of options.journal?.entries(fingerprint) ?? []) {
    try {
      if (entry.kind === 'time') {
        offset = entry.timestamp;
      } else if (entry.kind === 'private' && entry.raw) {
        replayLane.push(entry.raw);
      } else if (entry.kind === 'pool' && entry.raw) {
        await setAutomine(false);
        await rpc('eth_sendRawTransaction', [entry.raw]);
      } else if (entry.kind === 'empty') {
        if (replayLane.length > 0) await admitPrivate(replayLane.splice(0));
        let timestamp = entry.timestamp;
        let made: Hex | undefined;
        for (const delta of [0, ...(entry.times ?? [])]) {
          timestamp += delta;
          await setNextBlockTimestamp(provider, timestamp);
          made = (await mineBlock()).blockHash;
          replay.blocks++;
        }
        replay.blocks--;
        replayed(entry.blockHash, made as Hex);
      } else {
        await setNextBlockTimestamp(provider, entry.timestamp);
        // Live, the lane is let into the mempool once the block's timestamp is set, just before the block is made.
        if (replayLane.length > 0) await admitPrivate(replayLane.splice(0));
        if (entry.kind === 'tx' && entry.raw) {
          await setAutomine(true);
          replayed(entry.blockHash, (await sendRaw(entry.raw)).blockHash);
        } else {
          replayed(entry.blockHash, (await mineBlock()).blockHash);
        }
      }
    } catch (error) {
      replay.mismatches++;
      log.warn(
        `devnet replay: journal entry (${entry.kind}) after block ${replay.blocks} could not be replayed: ${String(error)}`,
      );
    }
  }
  await setAutomine(!atCadence);
  // What the lane held at the stop waits for the next block again (mined at once below, without a cadence).
  for (const raw of replayLane) {
    try {
      const held = await heldOf(raw);
      lane.push(held);
      rememberPrivate(held.hash);
    } catch (error) {
      log.warn(`devnet replay: a private transaction left waiting could not be read: ${reason(error)}`);
    }
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

  /** The journal row of the run of empty blocks being made, while nothing else was journaled after it. */
  let emptyRun: { seq: number; blocks: number; last: number } | undefined;

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

  /** Makes one empty block at a cadence, kept with the run of empty blocks before it in one journal row. */
  async function emptyBlock(): Promise<{ blockHash: Hex; blockNumber: bigint }> {
    const journal = options.journal;
    if (!journal) return journaled({ kind: 'empty', raw: null }, mineBlock);
    const timestamp = await nextTimestamp();
    let seq: number;
    if (emptyRun && emptyRun.blocks < EMPTY_RUN_MAX) {
      const run = emptyRun;
      try {
        journal.extendEmptyRun(run.seq, timestamp - run.last);
      } catch (error) {
        throw new RpcError(-32603, `the devnet could not record the block (${reason(error)}), so nothing was mined`);
      }
      run.blocks++;
      run.last = timestamp;
      seq = run.seq;
    } else {
      seq = writeAhead(journal, { kind: 'empty', raw: null, timestamp });
      emptyRun = { seq, blocks: 1, last: timestamp };
    }
    await setNextBlockTimestamp(provider, timestamp);
    const made = await mineBlock();
    forget(
      () => journal.complete(seq, null, made.blockHash),
      `block ${made.blockNumber} is journaled without its hash`,
    );
    announce(made.blockNumber);
    return made;
  }

  function writeAhead(journal: DevnetJournal, entry: Omit<JournalEntry, 'txHash' | 'blockHash' | 'times'>): number {
    emptyRun = undefined;
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

  /** Records the clock's offset, so a restart resumes the chain's time where it was. */
  function journalClock(): void {
    const journal = options.journal;
    if (!journal) return;
    const seq = writeAhead(journal, { kind: 'time', raw: null, timestamp: offset });
    forget(() => journal.complete(seq, null, '0x'), 'the clock offset is journaled without its mark');
  }

  async function checkNonce(raw: Hex): Promise<void> {
    const notSigned = (error: unknown) =>
      new RpcError(
        -32602,
        `not a signed transaction: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    let nonce: number | undefined;
    try {
      nonce = parseTransaction(raw).nonce;
    } catch (error) {
      throw notSigned(error);
    }
    // At a cadence the EVM's mempool takes it as a node does, checking the signature itself: recovering the sender
    // here as well would cost this thread about 3 ms of every send, the bots' and all the traffic's.
    if (atCadence) return;
    let from: Address;
    try {
      from = await recoverTransactionAddress({ serializedTransaction: raw as never });
    } catch (error) {
      throw notSigned(error);
    }
    const expected = Number(await rpc('eth_getTransactionCount', [from, 'pending']));
    // Mining each transaction at once, the devnet refuses one that would wait for a gap to fill rather than leave it
    // pending where the journal cannot order it. At a cadence it waits in the mempool, as on a node.
    if (nonce !== undefined && nonce > expected) {
      throw new RpcError(-32000, `nonce too high: ${from} is at nonce ${expected}, the transaction has ${nonce}`);
    }
  }

  /** Puts a signed transaction in the mempool, journaled ahead: a refused one (replacement underpriced...) is taken back. */
  async function toMempool(raw: Hex): Promise<Hex> {
    const journal = options.journal;
    const seq = journal ? writeAhead(journal, { kind: 'pool', raw, timestamp: 0 }) : undefined;
    let hash: Hex;
    try {
      hash = (await rpc('eth_sendRawTransaction', [raw])) as Hex;
    } catch (error) {
      if (journal && seq !== undefined)
        forget(() => journal.discard(seq), 'a refused transaction stays in the journal');
      throw error;
    }
    if (journal && seq !== undefined)
      forget(() => journal.complete(seq, hash, '0x'), 'a pending transaction is journaled without its hash');
    return hash;
  }

  /**
   * Refuses at once, in a node's words, a transaction the next block could not take, since the lane's sender is told
   * it was taken: not signed for this chain, a nonce already used or leaving a gap (after the mempool and the lane),
   * more gas than a block holds, too little BNB for its gas and value, or under BSC's minimum gas price.
   */
  async function checkPrivate(raw: Hex): Promise<void> {
    let tx: ReturnType<typeof parseTransaction>;
    let from: Address;
    try {
      tx = parseTransaction(raw);
      from = await recoverTransactionAddress({ serializedTransaction: raw as never });
    } catch (error) {
      throw new RpcError(
        -32602,
        `not a signed transaction: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    }
    if (tx.chainId !== chainId) {
      throw new RpcError(-32000, `invalid chain id: the transaction is for chain ${tx.chainId}, this is ${chainId}`);
    }
    const underpriced = options.bscFees ? bscUnderpriced(raw) : null;
    if (underpriced) throw new RpcError(-32000, underpriced);
    const gas = tx.gas ?? 0n;
    if (gas > DEVNET_BLOCK_GAS_LIMIT) {
      throw new RpcError(-32000, `exceeds block gas limit: ${gas} gas, a block holds ${DEVNET_BLOCK_GAS_LIMIT}`);
    }
    const [mined, pending, balance] = await Promise.all([
      rpc('eth_getTransactionCount', [from, 'latest']).then(Number),
      rpc('eth_getTransactionCount', [from, 'pending']).then(Number),
      rpc('eth_getBalance', [from, 'latest']).then((wei) => BigInt(wei as Hex)),
    ]);
    const nonce = tx.nonce ?? 0;
    // The sender's next nonce after the mempool and what it already holds in the lane.
    let next = pending;
    for (const held of lane) if (held.from === from && held.nonce === next) next++;
    if (nonce < mined) throw new RpcError(-32000, `nonce too low: ${from} is at nonce ${mined}, it has ${nonce}`);
    if (nonce > next) throw new RpcError(-32000, `nonce too high: ${from} is at nonce ${next}, it has ${nonce}`);
    const cost = gas * (tx.maxFeePerGas ?? tx.gasPrice ?? 0n) + (tx.value ?? 0n);
    if (balance < cost) {
      throw new RpcError(-32000, `insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}`);
    }
  }

  /** Holds a signed transaction in the private lane for the next block, journaled ahead (no mempool, no filter). */
  async function toLane(raw: Hex): Promise<Hex> {
    const hash = keccak256(raw);
    if (lane.some((held) => held.hash === hash)) return hash;
    await checkPrivate(raw);
    const journal = options.journal;
    if (journal) {
      const seq = writeAhead(journal, { kind: 'private', raw, timestamp: 0 });
      forget(() => journal.complete(seq, hash, '0x'), 'a private transaction is journaled without its hash');
    }
    lane.push(await heldOf(raw));
    rememberPrivate(hash);
    return hash;
  }

  /** The lane's transactions into the mempool and a block made of them and the mempool, with public reads held. */
  function mineWithLane(): Promise<{ blockHash: Hex; blockNumber: bigint }> {
    return hidden(async () => {
      await admitPrivate(lane.splice(0).map((held) => held.raw));
      const made = await mineBlock();
      await setAutomine(!atCadence);
      return made;
    });
  }

  async function mineNow(timestamp?: number): Promise<Hex> {
    if (timestamp !== undefined) await pin(timestamp);
    if (lane.length > 0) return (await journaled({ kind: 'mine', raw: null }, mineWithLane)).blockHash;
    const empty = atCadence && (await executable()) === 0;
    const mined = empty ? await emptyBlock() : await journaled({ kind: 'mine', raw: null }, mineBlock);
    return mined.blockHash;
  }

  /** Fixes the next block's timestamp and moves the clock on from it; never before the latest block. */
  async function pin(timestamp: number): Promise<void> {
    if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
      throw new RpcError(-32602, `a timestamp is whole seconds since 1970, not ${timestamp}`);
    }
    if (timestamp > LATEST_CLOCK) {
      throw new RpcError(
        -32602,
        `timestamp ${timestamp} is past the year 9999; the chain's clock goes up to ${LATEST_CLOCK}`,
      );
    }
    const previous = Number((await latest()).timestamp);
    const earliest = atCadence ? previous : previous + 1;
    if (timestamp < earliest) {
      throw new RpcError(
        -32000,
        `timestamp ${timestamp} is before the latest block's (${previous}); the chain's clock only moves forward`,
      );
    }
    offset = timestamp - now();
    pinned = timestamp;
    journalClock();
  }

  // A pending transaction left from a cadence run (in the mempool or the private lane) is mined now when this run
  // mines each transaction at once.
  if (!atCadence && (lane.length > 0 || ((await rpc('eth_pendingTransactions')) as unknown[]).length > 0)) {
    await journaled({ kind: 'mine', raw: null }, mineWithLane);
    log.info('devnet: mined the transactions left pending by the last run');
  }

  let cadence: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  if (atCadence) {
    // Blocks on a fixed schedule: a late block (a long replay, a busy core) is made at once, and the schedule skips
    // the slots it missed instead of bunching blocks up.
    let due = Date.now() + blockTimeMs;
    const tick = async () => {
      cadence = undefined;
      try {
        await serialized(() => mineNow());
      } catch (error) {
        log.warn(`devnet: a block could not be made: ${reason(error)}`);
      }
      if (stopped) return;
      const moment = Date.now();
      due += blockTimeMs;
      if (due <= moment) due = moment + blockTimeMs - ((moment - due) % blockTimeMs);
      cadence = setTimeout(tick, due - moment);
      cadence.unref?.();
    };
    cadence = setTimeout(tick, blockTimeMs);
    cadence.unref?.();
    log.info(`devnet: a block every ${blockTimeMs} ms, holding the mempool by priority fee then arrival`);
  }

  return {
    provider,
    chainId,
    ...(fork ? { fork } : {}),
    contracts,
    accounts,
    fingerprint,
    replay,
    blockTimeMs,
    sendRawTransaction: (raw) =>
      serialized(async () => {
        await checkNonce(raw);
        if (atCadence) return toMempool(raw);
        const mined = await journaled({ kind: 'tx', raw }, () => sendRaw(raw));
        return mined.txHash;
      }),
    sendPrivateRawTransaction: (raw) =>
      serialized(async () => {
        if (atCadence) return toLane(raw);
        await checkNonce(raw);
        rememberPrivate(keccak256(raw));
        const mined = await journaled({ kind: 'tx', raw }, () => sendRaw(raw));
        return mined.txHash;
      }),
    publicRead,
    sentPrivately: (hash) => privateHashes.has(hash.toLowerCase()),
    async included(hash) {
      for (let blocks = 0; ; ) {
        const receipt = await rpc('eth_getTransactionReceipt', [hash]);
        if (receipt) return;
        const waiting = lane.some((held) => held.hash === hash.toLowerCase());
        const known = waiting || (await rpc('eth_getTransactionByHash', [hash]));
        if (!known) throw new RpcError(-32000, `transaction ${hash} is neither mined nor waiting in the mempool`);
        if (stopped) throw new RpcError(-32000, `transaction ${hash} is pending and the devnet has stopped`);
        if (++blocks > INCLUDED_MAX_BLOCKS) {
          throw new RpcError(-32000, `transaction ${hash} is still pending after ${INCLUDED_MAX_BLOCKS} blocks`);
        }
        await new Promise<void>((resolve) => {
          const once = () => {
            listeners.delete(once);
            resolve();
          };
          listeners.add(once);
        });
      }
    },
    mine: (timestamp) => serialized(() => mineNow(timestamp)),
    increaseTime: (seconds) =>
      serialized(async () => {
        if (!Number.isSafeInteger(seconds) || seconds < 0) {
          throw new RpcError(-32602, `the clock moves forward by whole seconds, not ${seconds}`);
        }
        if (clock() + seconds > LATEST_CLOCK) {
          throw new RpcError(
            -32602,
            `moving the clock ${seconds} seconds would take it past the year 9999; at most ${LATEST_CLOCK - clock()} more`,
          );
        }
        offset += seconds;
        journalClock();
        return offset;
      }),
    setNextBlockTimestamp: (timestamp) => serialized(() => pin(timestamp)),
    clock,
    clockOffset: () => offset,
    onBlock(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    between: (work) => serialized(work),
    onCopy: (work) =>
      serialized(async () => {
        const snapshot = await rpc('evm_snapshot');
        const impersonated = new Set<Address>();
        // The copy's transactions are mined as they are sent, with what waits in the mempool (it is reverted with the rest).
        const cadenceWas = !automine;
        try {
          if (cadenceWas) await setAutomine(true);
          return await work(async ({ from, to, data, value = 0n }) => {
            if (!impersonated.has(from)) {
              await rpc('hardhat_impersonateAccount', [from]);
              impersonated.add(from);
            }
            // A copy's block is made at the time the chain's next block would be, so time-dependent results (the
            // buy-back's average price, deadlines) are what sending it now gives.
            await rpc('evm_setNextBlockTimestamp', [await upcomingTimestamp()]);
            return (await rpc('eth_sendTransaction', [{ from, to, data, value: `0x${value.toString(16)}` }])) as Hex;
          });
        } finally {
          await rpc('evm_revert', [snapshot]);
          if (cadenceWas) await setAutomine(false);
          for (const account of impersonated) {
            await rpc('hardhat_stopImpersonatingAccount', [account]);
          }
        }
      }),
    stop() {
      stopped = true;
      if (cadence) clearTimeout(cadence);
      cadence = undefined;
    },
  };
}
