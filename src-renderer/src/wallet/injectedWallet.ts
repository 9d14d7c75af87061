import type { Address, Hex } from 'viem';
import type { UnsignedTxJson } from '../../../src-shared/schema/unsignedTx';
import { revertDataOf, revertNameOf } from './revertName';

/** An EIP-1193 provider a browser extension injects as `window.ethereum`. */
interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

const RECEIPT_POLL_MS = 1000;
const RECEIPT_TIMEOUT_MS = 10 * 60_000;

/** The browser's wallet, when one is injected (headless mode in a browser with a wallet extension). */
export function injectedProvider(): Eip1193Provider | undefined {
  const candidate = (window as { ethereum?: unknown }).ethereum;
  return candidate && typeof (candidate as Eip1193Provider).request === 'function'
    ? (candidate as Eip1193Provider)
    : undefined;
}

function provider(): Eip1193Provider {
  const found = injectedProvider();
  if (!found) throw new Error('No browser wallet is injected in this page.');
  return found;
}

const hex = (digits: string) => `0x${BigInt(digits).toString(16)}`;

/** Asks the wallet for its account, and refuses one on another chain than the service's. */
export async function connectInjected(chainId: number): Promise<Address> {
  const [account] = (await provider().request({ method: 'eth_requestAccounts' })) as Address[];
  if (!account) throw new Error('The browser wallet shared no account.');
  const walletChain = Number(await provider().request({ method: 'eth_chainId' }));
  if (walletChain !== chainId) {
    throw new Error(`The browser wallet is on chain ${walletChain}; switch it to chain ${chainId} and connect again.`);
  }
  return account;
}

/** Has the wallet sign and send `tx` (an injected wallet broadcasts itself); returns the hash. */
export async function sendWithInjected(tx: UnsignedTxJson, from: Address): Promise<Hex> {
  return (await provider().request({
    method: 'eth_sendTransaction',
    params: [
      {
        from,
        to: tx.to,
        data: tx.data,
        value: hex(tx.value),
        chainId: hex(String(tx.chainId)),
        ...(tx.gas ? { gas: hex(tx.gas) } : {}),
      },
    ],
  })) as Hex;
}

/** A mined transaction as the wallet's RPC reports it. */
export interface InjectedReceipt {
  status: 'confirmed' | 'reverted';
  /** The block that holds it, as the RPC wrote it (hex). */
  blockNumber: Hex;
  /** Gas used times the price paid, in wei; null when the RPC leaves the price out. */
  feeWei: string | null;
}

/** Follows `hash` through the wallet's own RPC until it is mined. */
export async function waitInjected(hash: Hex): Promise<InjectedReceipt> {
  const started = Date.now();
  while (Date.now() - started < RECEIPT_TIMEOUT_MS) {
    const receipt = (await provider().request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      status?: string;
      blockNumber: Hex;
      gasUsed?: Hex;
      effectiveGasPrice?: Hex;
    } | null;
    if (receipt?.status) {
      const { gasUsed, effectiveGasPrice } = receipt;
      return {
        status: receipt.status === '0x1' ? 'confirmed' : 'reverted',
        blockNumber: receipt.blockNumber,
        feeWei: gasUsed && effectiveGasPrice ? (BigInt(gasUsed) * BigInt(effectiveGasPrice)).toString() : null,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
  }
  throw new Error(`No receipt for ${hash} after ten minutes; look it up in the wallet.`);
}

/**
 * The contract error a transaction the wallet sent reverted with: wallets give no trace, so its call is replayed
 * through the wallet's RPC at the end of its block (a pool priced first is still priced there) and the revert
 * decoded. Null when it passes there, or the RPC gives no revert data.
 */
export async function revertOfInjected(tx: UnsignedTxJson, from: Address, blockNumber: Hex): Promise<string | null> {
  try {
    await provider().request({
      method: 'eth_call',
      params: [
        { from, to: tx.to, data: tx.data, value: hex(tx.value), ...(tx.gas ? { gas: hex(tx.gas) } : {}) },
        blockNumber,
      ],
    });
    return null;
  } catch (refusal) {
    const data = revertDataOf(refusal);
    return data === undefined ? null : revertNameOf(data);
  }
}

/** EIP-191 personal_sign of a UTF-8 message by `from`. */
export async function personalSignInjected(message: string, from: Address): Promise<Hex> {
  const data = `0x${Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  return (await provider().request({ method: 'personal_sign', params: [data, from] })) as Hex;
}
