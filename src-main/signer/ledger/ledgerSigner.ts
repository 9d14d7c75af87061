import { createRequire } from 'node:module';
import type EthApp from '@ledgerhq/hw-app-eth';
import type Transport from '@ledgerhq/hw-transport';
import {
  type Address,
  concat,
  getAddress,
  isAddressEqual,
  numberToHex,
  recoverMessageAddress,
  recoverTransactionAddress,
  serializeTransaction,
} from 'viem';
import type { Signer } from '../signer';
import { LEDGER_MAX_MESSAGE_BYTES, LedgerError, type LedgerOperation, toLedgerError } from './ledgerErrors';

/** Ledger Live's layout: one hardened account index per account. */
export const LEDGER_LIVE_PATH_TEMPLATE = "44'/60'/{i}'/0/0";
/** The legacy layout (MetaMask, most wallets, the devnet's test accounts): one account, many address indices. */
export const LEGACY_PATH_TEMPLATE = "44'/60'/0'/0/{i}";

/**
 * `null` makes hw-app-eth send the transaction as it is (blind-signed when it carries contract data). Leaving it
 * undefined would make hw-app-eth ask Ledger's servers for token and plugin metadata over HTTP first.
 */
const NO_RESOLUTION = null;

const requireCjs = createRequire(import.meta.url);
let ethApp: typeof EthApp | undefined;

/**
 * The Ethereum app's client over `transport`. hw-app-eth is loaded through require on first use: its ES build does not
 * load under Node's ESM loader, and it pulls in ethers and axios that nothing needs until a Ledger is used.
 */
function openEthApp(transport: Transport): EthApp {
  ethApp ??= (requireCjs('@ledgerhq/hw-app-eth') as { default: typeof EthApp }).default;
  return new ethApp(transport);
}

/**
 * A Signer on the Ledger account at `path` (e.g. "44'/60'/0'/0/0") over an open transport. Transactions go to the
 * device as they are, without Ledger's clear-signing metadata (fetching it is a network call), so contract calls need
 * blind signing enabled (readLedgerConfiguration tells beforehand). The address is read from the device once; every
 * signature is checked against it, so another device or seed plugged in meanwhile is caught here rather than by the
 * chain. The APDUs are exactly hw-app-eth's, as the real app's recorded exchanges show. Failures are LedgerErrors.
 */
export function createLedgerSigner(options: { transport: Transport; path: string }): Signer {
  const { path } = options;
  const eth = openEthApp(options.transport);
  let address: Address | undefined;

  const readAddress = async (): Promise<Address> => {
    // Mapped as an address request even inside a signature: there 0x6a80 means a bad path, not blind signing.
    address ??= getAddress((await mapErrors('address', () => eth.getAddress(path, false, false))).address);
    return address;
  };

  return {
    kind: 'ledger',
    getAddress: readAddress,
    signTransaction: (tx) =>
      mapErrors('transaction', async () => {
        const expected = await readAddress();
        const { v, r, s } = await eth.signTransaction(path, serializeTransaction(tx).slice(2), NO_RESOLUTION);
        const signed = serializeTransaction(tx, { r: `0x${r}`, s: `0x${s}`, yParity: yParityOf(v) });
        assertSignedBy(expected, await recoverTransactionAddress({ serializedTransaction: signed }));
        return signed;
      }),
    signMessage: (message) =>
      mapErrors('message', async () => {
        const bytes = Buffer.from(message, 'utf8');
        if (bytes.length === 0) {
          throw new LedgerError('unknown', {
            message: 'The Ledger cannot sign an empty message.',
            fix: 'Sign a message of at least one character.',
          });
        }
        // The device would refuse it with a bare status word: refused here with the reason, before anything is sent.
        if (bytes.length > LEDGER_MAX_MESSAGE_BYTES) {
          throw new LedgerError('message-too-long', {
            message: `The message is ${bytes.length} bytes; the Ledger's Ethereum app refuses messages over ${LEDGER_MAX_MESSAGE_BYTES} bytes.`,
          });
        }
        const expected = await readAddress();
        const { v, r, s } = await eth.signPersonalMessage(path, bytes.toString('hex'));
        const signature = concat([`0x${r}`, `0x${s}`, numberToHex(27 + yParityOf(v), { size: 1 })]);
        assertSignedBy(expected, await recoverMessageAddress({ message, signature }));
        return signature;
      }),
  };
}

/**
 * The addresses at `count` indices from `from` along `pathTemplate` (its `{i}` replaced by the index), read without
 * showing them on the device, for the person to choose an account. Addresses are checksummed.
 *
 * @example listLedgerAddresses(transport, LEDGER_LIVE_PATH_TEMPLATE, 0, 5) // 44'/60'/0'/0/0 ... 44'/60'/4'/0/0
 */
export async function listLedgerAddresses(
  transport: Transport,
  pathTemplate: string,
  from: number,
  count: number,
): Promise<{ path: string; address: Address }[]> {
  if (pathTemplate.split('{i}').length !== 2) throw new RangeError(`"${pathTemplate}" must hold {i} once`);
  if (![from, count].every((n) => Number.isSafeInteger(n) && n >= 0) || from + count > 0x8000_0000) {
    throw new RangeError(`indices ${from} to ${from + count - 1} are outside 0 to 2^31 - 1`);
  }
  const eth = openEthApp(transport);
  const accounts: { path: string; address: Address }[] = [];
  // One at a time: the device answers one APDU at a time, and hw-app-eth refuses a call while another runs.
  for (let index = from; index < from + count; index++) {
    const path = pathTemplate.replace('{i}', String(index));
    const { address } = await mapErrors('address', () => eth.getAddress(path, false, false));
    accounts.push({ path, address: getAddress(address) });
  }
  return accounts;
}

/** Runs one request to the device, its failures mapped as `operation` gives them meaning (see toLedgerError). */
async function mapErrors<T>(operation: LedgerOperation, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toLedgerError(error, operation);
  }
}

/** hw-app-eth hands v over as the device gave it: the parity (0/1) from current apps, 27/28 from some older ones. */
function yParityOf(v: string | number): 0 | 1 {
  const value = typeof v === 'number' ? v : Number.parseInt(v, 16);
  if (value === 0 || value === 27) return 0;
  if (value === 1 || value === 28) return 1;
  throw new LedgerError('unknown', { message: `The Ledger answered a signature with an invalid v (${v}).` });
}

function assertSignedBy(expected: Address, recovered: Address): void {
  if (isAddressEqual(expected, recovered)) return;
  throw new LedgerError('unknown', {
    message: `The Ledger signed as ${recovered}, not as the account ${expected}: another device or seed is connected.`,
    fix: 'Connect the Ledger that holds this account, or choose the account again.',
  });
}
