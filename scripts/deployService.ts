/**
 * Sends a DeployPlan: each contract signed by the deployer's signer (a local key or a Ledger), sent, followed to its
 * receipt, and checked on chain (its code is this build's, its immutables are what its constructor was given) before
 * the next one goes. Nonces come from the plan and are taken again from the chain when another transaction took one
 * (a previous run's, still pending), so a rerun never collides with what an interrupted one left behind.
 */
import {
  type Address,
  getAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  type PublicClient,
  parseAbi,
  serializeTransaction,
  type TransactionReceipt,
} from 'viem';
import { CodeMismatchError, checkDeployedCode } from '../src-main/chain/deployedCode';
import type { SignableCreation } from '../src-main/signer/signer';
import { formatExact } from '../src-shared/format/numbers';
import { DeployError, reasonOf } from './deployError';
import {
  type ContractName,
  constructorArguments,
  DEPLOY_ORDER,
  type Deployed,
  type DeployPlan,
  deployData,
} from './deployPlan';

/** Signs for the deployer: a local key, or a Ledger asked once per transaction. */
export interface DeploySigner {
  /** How the plan names it: "local key from DEPLOYER_PRIVATE_KEY", "Ledger, 44'/60'/0'/0/0". */
  description: string;
  address: Address;
  sign(tx: SignableCreation): Promise<Hex>;
}

export interface DeployedContract {
  name: ContractName;
  address: Address;
  transaction: Hex;
  nonce: number;
  block: number;
  gasUsed: bigint;
  /** keccak256 of the code on chain, what EXTCODEHASH answers. */
  codeHash: Hex;
  args: { name: string; value: Address | number }[];
}

export interface DeployOptions {
  client: PublicClient;
  signer: DeploySigner;
  log: (line: string) => void;
  /** How often a receipt is asked for (500 ms by default). */
  pollMs?: number;
  /** How long a sent transaction may go without a receipt before the deploy stops (5 minutes by default). */
  receiptTimeoutMs?: number;
}

/** Times a taken nonce is given up on and the transaction signed again with the next free one. */
const NONCE_ATTEMPTS = 5;
/** Times a read is asked again when the node answering it has not got the block yet (load-balanced public nodes). */
const READ_ATTEMPTS = 20;

const getters = parseAbi([
  'function owner() view returns (address)',
  'function fees() view returns (uint16, uint16, uint16, address)',
  'function config() view returns (address)',
  'function poolDeployer() view returns (address)',
  'function pancakeFactory() view returns (address)',
  'function wbnb() view returns (address)',
  'function permit2() view returns (address)',
]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deploys the plan's four contracts in order; throws a DeployError naming the contract and what to do. */
export async function deployService(plan: DeployPlan, options: DeployOptions): Promise<DeployedContract[]> {
  const { client, signer, log } = options;
  const pollMs = options.pollMs ?? 500;
  const deployed: Deployed = {};
  const results: DeployedContract[] = [];
  let nonce = plan.nonce;

  /** Reads through a node that may be a block or two behind: asked again while it errs (never on a real answer). */
  async function settled<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await read();
      } catch (error) {
        const answered = error instanceof CodeMismatchError || error instanceof DeployError;
        if (answered || attempt >= READ_ATTEMPTS) throw error;
        await sleep(pollMs);
      }
    }
  }

  for (const [i, name] of DEPLOY_ORDER.entries()) {
    const planned = plan.contracts[i];
    if (!planned || planned.name !== name) throw new Error(`the plan does not hold ${name} in place ${i + 1}`);
    const args = constructorArguments(name, plan, deployed);
    const { hash, receipt, usedNonce } = await sendCreation(name, args, planned.gas);
    if (receipt.status !== 'success' || !receipt.contractAddress) {
      throw new DeployError(
        'REVERTED',
        `${name}'s deployment ${hash} reverted in block ${receipt.blockNumber}.`,
        'Nothing was written. Look the transaction up on the explorer for the reason, then deploy again.',
      );
    }
    const address = getAddress(receipt.contractAddress);
    log(`${name}: mined in block ${receipt.blockNumber} at ${address} (gas used ${formatExact(receipt.gasUsed, 0)})`);
    if (!isAddressEqual(address, planned.address)) {
      log(`${name}: it is at ${address}, not at ${planned.address} as planned, since its nonce moved`);
    }
    const codeHash = await settled(() =>
      checkDeployedCode(client, { name, address, blockNumber: receipt.blockNumber }),
    ).catch((error: unknown) => {
      if (error instanceof CodeMismatchError) {
        throw new DeployError('CODE_MISMATCH', error.message, error.fix, { cause: error });
      }
      throw error;
    });
    await checkWiring(name, address, receipt.blockNumber);
    log(`${name}: its code on chain is this build (code hash ${codeHash}) and its constructor's values are set`);
    deployed[name] = address;
    results.push({
      name,
      address,
      transaction: hash,
      nonce: usedNonce,
      block: Number(receipt.blockNumber),
      gasUsed: receipt.gasUsed,
      codeHash,
      args,
    });
  }
  return results;

  /** Signs and sends one creation, taking the next free nonce when another transaction took this one. */
  async function sendCreation(
    name: ContractName,
    args: ReturnType<typeof constructorArguments>,
    gas: bigint,
  ): Promise<{ hash: Hex; receipt: TransactionReceipt; usedNonce: number }> {
    const data = deployData(name, args);
    for (let attempt = 1; ; attempt++) {
      const tx: SignableCreation = {
        type: 'eip1559',
        chainId: plan.chainId,
        nonce,
        gas,
        maxFeePerGas: plan.maxFeePerGas,
        maxPriorityFeePerGas: plan.maxPriorityFeePerGas,
        value: 0n,
        data,
      };
      log(`${name}: signing (nonce ${nonce}, transaction hash to sign ${keccak256(serializeTransaction(tx))})`);
      let raw: Hex;
      try {
        raw = await signer.sign(tx);
      } catch (error) {
        const fix = (error as { fix?: string }).fix;
        throw new DeployError(
          'SIGNER_FAILED',
          `${name} was not signed: ${reasonOf(error)}`,
          `${fix ? `${fix} ` : ''}Nothing was written; the contracts deployed before it stay unused. Deploy again.`,
          { cause: error },
        );
      }
      const hash = keccak256(raw);
      const sent = await send(raw, hash);
      if (sent.sent) {
        log(`${name}: sent ${hash} (nonce ${nonce}); waiting for its receipt`);
        const receipt = await waitForReceipt(name, hash);
        nonce += 1;
        return { hash, receipt, usedNonce: nonce - 1 };
      }
      // The node that refused it may say which nonce is next; a load-balanced node asked again may be behind it.
      const taken = nonce;
      const counted = await client.getTransactionCount({ address: plan.deployer, blockTag: 'pending' });
      nonce = Math.max(taken + 1, counted, sent.next ?? 0);
      if (attempt >= NONCE_ATTEMPTS) {
        throw new DeployError(
          'SEND_FAILED',
          `${name} could not be sent: nonce ${taken} and the next ones were taken by other transactions from ${plan.deployer}.`,
          'Wait until the pending transactions of the deployer are mined (or use a deployer nothing else sends from), then deploy again.',
        );
      }
      log(
        `${name}: nonce ${taken} was already used by another transaction of the deployer (or the node that counted ` +
          `its nonces was behind); signing again with nonce ${nonce}`,
      );
    }
  }

  /**
   * Sends a signed transaction. Not sent when its nonce was used by another transaction (with the next nonce when the
   * node said it); a node that already has this very transaction (the transport sent it twice, or a node mined it
   * meanwhile) counts as sent.
   */
  async function send(raw: Hex, hash: Hex): Promise<{ sent: true } | { sent: false; next?: number }> {
    try {
      await client.sendRawTransaction({ serializedTransaction: raw });
      return { sent: true };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (/already known|known transaction|already imported|already exists/i.test(text)) return { sent: true };
      if (/nonce too low|nonce has already been used|replacement transaction underpriced|already used/i.test(text)) {
        if (await client.getTransaction({ hash }).catch(() => null)) return { sent: true };
        // geth: "nonce too low: address 0x…, tx: 2 state: 4"; EDR: "Nonce too low. Expected nonce to be 4 but got 2."
        const next = /(?:state:?|expected nonce to be(?: at least)?)\s*(\d+)/i.exec(text)?.[1];
        return next === undefined ? { sent: false } : { sent: false, next: Number(next) };
      }
      throw new DeployError(
        'SEND_FAILED',
        `The RPC refused the transaction ${hash}: ${reasonOf(error)}`,
        "Nothing was written. Check the deployer's balance and the RPC, then deploy again.",
        { cause: error },
      );
    }
  }

  /** The receipt, asked for until it comes: public nodes answer null for a while after a transaction is mined. */
  async function waitForReceipt(name: ContractName, hash: Hex): Promise<TransactionReceipt> {
    const timeoutMs = options.receiptTimeoutMs ?? 300_000;
    const started = Date.now();
    let lastError: unknown;
    while (Date.now() - started < timeoutMs) {
      try {
        const receipt = await client.getTransactionReceipt({ hash });
        if (receipt) return receipt;
      } catch (error) {
        // TransactionReceiptNotFoundError (not mined, or not seen by this node yet), or the RPC failing for a moment.
        lastError = error;
      }
      await sleep(pollMs);
    }
    throw new DeployError(
      'NO_RECEIPT',
      `${name} was sent (${hash}) but no receipt came within ${Math.round(timeoutMs / 1000)} s` +
        `${lastError ? ` (last answer: ${reasonOf(lastError)})` : ''}.`,
      'Nothing was written. Look the transaction up on the explorer: once it is mined or dropped, deploy again ' +
        '(with --force if a record was written meanwhile); the next run takes the next free nonce.',
    );
  }

  /** Reads back what the constructor stored (the immutables the code check leaves out, and the config's settings). */
  async function checkWiring(name: ContractName, address: Address, blockNumber: bigint): Promise<void> {
    const read = (functionName: (typeof getters)[number]['name']) =>
      client.readContract({ address, abi: getters, functionName, blockNumber } as never) as Promise<unknown>;
    const expected: [string, unknown][] =
      name === 'ServiceConfig'
        ? [
            ['owner', plan.deployer],
            ['fees', [plan.fees.siteFeeBps, plan.fees.referrerBps, plan.fees.lifetimeReferralBps, plan.feeRecipient]],
          ]
        : ([
            ['config', deployed.ServiceConfig],
            ...(name === 'TradeRouter'
              ? [
                  ['poolDeployer', plan.exchange.poolDeployer],
                  ['wbnb', plan.exchange.wbnb],
                  ['permit2', plan.exchange.permit2],
                ]
              : []),
            ...(name === 'LaunchFactory'
              ? [
                  ['pancakeFactory', plan.exchange.pancakeFactory],
                  ['wbnb', plan.exchange.wbnb],
                ]
              : []),
          ] as [string, unknown][]);
    for (const [getter, value] of expected) {
      const answer = await settled(() => read(getter as (typeof getters)[number]['name']));
      if (JSON.stringify(normalise(answer)) !== JSON.stringify(normalise(value))) {
        throw new DeployError(
          'WIRING_MISMATCH',
          `${name} at ${address} answers ${getter}() = ${String(answer)}, not ${String(value)}.`,
          'Nothing was written. Check that the RPC serves the chain you chose, then deploy again.',
        );
      }
    }
  }
}

/** Addresses compared without their checksum case. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  return typeof value === 'string' ? value.toLowerCase() : value;
}
