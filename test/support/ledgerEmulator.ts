import { pbkdf2Sync } from 'node:crypto';
import { createRequire } from 'node:module';
import type TransportType from '@ledgerhq/hw-transport';
import { bytesToHex, getAddress, type Hex, hashMessage, keccak256, parseTransaction } from 'viem';
import { HDKey, privateKeyToAccount, sign } from 'viem/accounts';
import { TEST_MNEMONIC } from '../../src-main/chain/devnet/testAccounts';

const requireCjs = createRequire(import.meta.url);
const Transport = (requireCjs('@ledgerhq/hw-transport') as { default: typeof TransportType }).default;
const { DisconnectedDevice } = requireCjs('@ledgerhq/errors') as { DisconnectedDevice: new () => Error };
const { identifyUSBProductId } = requireCjs('@ledgerhq/devices') as {
  identifyUSBProductId(productId: number): TransportType['deviceModel'];
};

/**
 * What the emulated device is doing. 'reject-next' rejects the next signature (or displayed address) as a person
 * pressing Reject would, then turns back to 'ready'. 'interrupt-next' has the next review interrupted by another
 * program speaking to the device (status 0x6980), then turns back to 'ready'.
 */
export type LedgerEmulatorState =
  | 'ready'
  | 'locked'
  | 'app-not-open'
  | 'reject-next'
  | 'interrupt-next'
  | 'disconnected';

export interface ReceivedApdu {
  cla: number;
  ins: number;
  p1: number;
  p2: number;
  data: Buffer;
}

const CLA = 0xe0;
const INS = { GET_PUBLIC_KEY: 0x02, SIGN: 0x04, GET_APP_CONFIGURATION: 0x06, SIGN_PERSONAL_MESSAGE: 0x08 } as const;
const P1_FIRST = 0x00;
const P1_MORE = 0x80;
const APP_FLAG_DATA_ALLOWED = 0x01;
/** The version the recorded exchanges in test/fixtures/ledger-transcripts come from. */
const APP_VERSION = [1, 22, 0];
/** The longest personal message the app takes, in bytes. */
export const EMULATED_MAX_MESSAGE_BYTES = 8_192;

/** The status words the OS and app-ethereum (src/apdu_constants.h) answer. */
const SW = {
  OK: 0x9000,
  LOCKED_DEVICE: 0x5515,
  APP_NOT_SELECTED: 0x6511,
  CONDITION_NOT_SATISFIED: 0x6985,
  REVIEW_INTERRUPTED: 0x6980,
  INVALID_DATA: 0x6a80,
  INVALID_P1_P2: 0x6b00,
  INVALID_INS: 0x6d00,
  INVALID_CLA: 0x6e00,
} as const;

/** A request whose data comes in several APDUs: a transaction, or a personal message of `expected` bytes. */
interface Pending {
  ins: number;
  path: readonly number[];
  bytes: Buffer;
  expected?: number;
}

class InvalidData extends Error {}

/**
 * A Ledger running the Ethereum app, in memory: a Transport that answers the app's APDUs (CLA 0xE0: get address,
 * sign transaction, sign personal message, app configuration) with the status words a real device answers, and signs
 * with keys derived from a mnemonic (the devnet's test mnemonic unless told otherwise). It keeps every APDU it got.
 * It answers the real app's recorded exchanges (test/fixtures/ledger-transcripts) byte for byte: blind signing is off
 * as on a new device, and a transaction carrying data is then refused on the chunk where its data starts.
 *
 * hw-app-eth's clear-signing instructions (ERC-20 info 0x0A, plugins 0x12/0x16, NFT 0x14, domain 0x22) are not
 * emulated: with a null resolution hw-app-eth never sends them, and an INS this emulator does not know answers 0x6d00,
 * so a change that starts sending them fails loudly.
 */
export class LedgerEmulator extends Transport {
  state: LedgerEmulatorState = 'ready';
  /** The app's Blind signing setting: off by default, as on a real Ledger. */
  blindSigning = false;
  readonly received: ReceivedApdu[] = [];
  private root: HDKey;
  private pending: Pending | undefined;

  /**
   * `usbProductId` names the model as a real device's USB product id does (0x7011 a Flex, 0x5011 a Nano S Plus, 0x6011
   * a Stax), through Ledger's own device list, as main's opener does for a real one.
   */
  constructor(mnemonic: string = TEST_MNEMONIC, { usbProductId = 0x7011 }: { usbProductId?: number } = {}) {
    super();
    this.root = rootOf(mnemonic);
    this.deviceModel = identifyUSBProductId(usbProductId);
  }

  /** Plugs in another model with the same seed. */
  useModel(usbProductId: number): void {
    this.deviceModel = identifyUSBProductId(usbProductId);
  }

  /** Puts another seed on the device, as if a different Ledger had been plugged in. */
  useMnemonic(mnemonic: string): void {
    this.root = rootOf(mnemonic);
  }

  /** The APDUs received with instruction `ins`, in order. */
  receivedFor(ins: number): ReceivedApdu[] {
    return this.received.filter((apdu) => apdu.ins === ins);
  }

  override async exchange(apdu: Buffer): Promise<Buffer> {
    if (this.state === 'disconnected') throw new DisconnectedDevice();
    const [cla = 0, ins = 0, p1 = 0, p2 = 0, length = 0] = apdu;
    const data = Buffer.from(apdu.subarray(5, 5 + length));
    this.received.push({ cla, ins, p1, p2, data });
    // The OS answers the PIN screen's status to everything; the dashboard does not know the app's instructions.
    if (this.state === 'locked') return answer(SW.LOCKED_DEVICE);
    if (this.state === 'app-not-open') return answer(SW.APP_NOT_SELECTED);
    if (cla !== CLA) return answer(SW.INVALID_CLA);
    try {
      switch (ins) {
        case INS.GET_APP_CONFIGURATION:
          return this.appConfiguration();
        case INS.GET_PUBLIC_KEY:
          return this.publicKey(p1, p2, data);
        case INS.SIGN:
          return await this.signTransactionChunk(p1, data);
        case INS.SIGN_PERSONAL_MESSAGE:
          return await this.signMessageChunk(p1, data);
        default:
          return answer(SW.INVALID_INS);
      }
    } catch (error) {
      if (!(error instanceof InvalidData)) throw error;
      this.pending = undefined;
      return answer(SW.INVALID_DATA);
    }
  }

  /** flags (bit 0: blind signing allowed) || major || minor || patch. */
  private appConfiguration(): Buffer {
    const flags = this.blindSigning ? APP_FLAG_DATA_ALLOWED : 0;
    return answer(SW.OK, Buffer.from([flags, ...APP_VERSION]));
  }

  /** P1 1 shows the address for the person to confirm; P2 1 adds the chain code. */
  private publicKey(p1: number, p2: number, data: Buffer): Buffer {
    if (p1 > 1 || p2 > 1) return answer(SW.INVALID_P1_P2);
    // Anything after the path is the chain id hw-app-eth may append for the display: not needed here.
    const { path } = readPath(data);
    if (p1 === 1 && this.takeRejection()) return answer(SW.CONDITION_NOT_SATISFIED);
    const key = this.keyAt(path);
    const account = privateKeyToAccount(key.privateKey);
    const publicKey = Buffer.from(account.publicKey.slice(2), 'hex');
    const address = Buffer.from(getAddress(account.address).slice(2), 'ascii');
    const chainCode = p2 === 1 ? Buffer.from(key.chainCode) : Buffer.alloc(0);
    return answer(
      SW.OK,
      Buffer.concat([Buffer.from([publicKey.length]), publicKey, Buffer.from([address.length]), address, chainCode]),
    );
  }

  /**
   * P1 0x00 carries the path then the start of the raw transaction, P1 0x80 the rest. Like the app, the end is known
   * from the transaction's own envelope (type byte, RLP list length); intermediate chunks answer 0x9000 alone. With
   * blind signing off, the chunk in which the data field's first byte arrives answers 0x6a80, as the real app does.
   */
  private async signTransactionChunk(p1: number, data: Buffer): Promise<Buffer> {
    const pending = this.collect(INS.SIGN, p1, data, (rest) => ({ bytes: rest }));
    if (!pending) return answer(SW.INVALID_P1_P2);
    const dataField = dataFieldOf(pending.bytes);
    if (!this.blindSigning && dataField && dataField.length > 0 && dataField.start < pending.bytes.length) {
      this.pending = undefined;
      return answer(SW.INVALID_DATA);
    }
    const total = transactionLength(pending.bytes);
    if (total === undefined || pending.bytes.length < total) return answer(SW.OK);
    this.pending = undefined;
    if (pending.bytes.length > total) throw new InvalidData();

    const serialized = bytesToHex(pending.bytes);
    const tx = parseUnsigned(serialized);
    const refusal = this.takeRefusal();
    if (refusal !== undefined) return answer(refusal);
    const signature = await this.sign(pending.path, keccak256(serialized));
    // Typed transactions get the parity; legacy ones EIP-155's v, cut to the one byte the app answers.
    const v =
      tx.type !== 'legacy'
        ? signature.yParity
        : tx.chainId
          ? (tx.chainId * 2 + 35 + signature.yParity) & 0xff
          : 27 + signature.yParity;
    return answer(SW.OK, Buffer.concat([Buffer.from([v]), signature.rs]));
  }

  /**
   * P1 0x00 carries the path, the message's length (4 bytes, big-endian) and its start; P1 0x80 the rest. A length
   * over the app's limit is invalid data from the first chunk.
   */
  private async signMessageChunk(p1: number, data: Buffer): Promise<Buffer> {
    const pending = this.collect(INS.SIGN_PERSONAL_MESSAGE, p1, data, (rest) => {
      if (rest.length < 4 || rest.readUInt32BE(0) > EMULATED_MAX_MESSAGE_BYTES) throw new InvalidData();
      return { expected: rest.readUInt32BE(0), bytes: rest.subarray(4) };
    });
    if (!pending) return answer(SW.INVALID_P1_P2);
    const expected = pending.expected ?? 0;
    if (pending.bytes.length < expected) return answer(SW.OK);
    this.pending = undefined;
    if (pending.bytes.length > expected) throw new InvalidData();

    const refusal = this.takeRefusal();
    if (refusal !== undefined) return answer(refusal);
    const signature = await this.sign(pending.path, hashMessage({ raw: pending.bytes }));
    return answer(SW.OK, Buffer.concat([Buffer.from([27 + signature.yParity]), signature.rs]));
  }

  /** Starts a chunked request on P1 0x00, or adds to the one of the same instruction on P1 0x80. */
  private collect(
    ins: number,
    p1: number,
    data: Buffer,
    start: (rest: Buffer) => { bytes: Buffer; expected?: number },
  ): Pending | undefined {
    if (p1 === P1_FIRST) {
      const { path, rest } = readPath(data);
      this.pending = { ins, path, ...start(rest) };
    } else if (p1 === P1_MORE && this.pending?.ins === ins) {
      this.pending.bytes = Buffer.concat([this.pending.bytes, data]);
    } else {
      return undefined;
    }
    return this.pending;
  }

  private takeRejection(): boolean {
    if (this.state !== 'reject-next') return false;
    this.state = 'ready';
    return true;
  }

  /** How the review ends when the person does not approve it: rejected, or interrupted by another program. */
  private takeRefusal(): number | undefined {
    if (this.takeRejection()) return SW.CONDITION_NOT_SATISFIED;
    if (this.state !== 'interrupt-next') return undefined;
    this.state = 'ready';
    return SW.REVIEW_INTERRUPTED;
  }

  private keyAt(path: readonly number[]): { privateKey: Hex; chainCode: Uint8Array } {
    const { privateKey, chainCode } = this.root.derive(
      `m/${path.map((i) => (i >= 0x8000_0000 ? `${i - 0x8000_0000}'` : `${i}`)).join('/')}`,
    );
    if (!privateKey || !chainCode) throw new InvalidData();
    return { privateKey: bytesToHex(privateKey), chainCode };
  }

  private async sign(path: readonly number[], hash: Hex): Promise<{ yParity: number; rs: Buffer }> {
    const { r, s, yParity } = await sign({ hash, privateKey: this.keyAt(path).privateKey });
    return { yParity: yParity ?? 0, rs: Buffer.concat([word(r), word(s)]) };
  }
}

/** The BIP-39 seed's root key (no passphrase), as the device derives it from its recovery phrase. */
function rootOf(mnemonic: string): HDKey {
  return HDKey.fromMasterSeed(pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'));
}

/** A BIP-32 path as the app reads it: a count (1 to 10), then each index as 4 bytes big-endian. */
function readPath(data: Buffer): { path: number[]; rest: Buffer } {
  const count = data[0] ?? 0;
  if (count < 1 || count > 10 || data.length < 1 + 4 * count) throw new InvalidData();
  const path = Array.from({ length: count }, (_, i) => data.readUInt32BE(1 + 4 * i));
  return { path, rest: data.subarray(1 + 4 * count) };
}

/**
 * The whole transaction's length, read from its envelope: a type byte (below 0x80) for typed transactions, then the RLP
 * list header. Undefined until enough bytes have come to tell.
 */
function transactionLength(bytes: Buffer): number | undefined {
  const first = bytes[0];
  if (first === undefined) return undefined;
  const offset = first < 0x80 ? 1 : 0;
  const prefix = bytes[offset];
  if (prefix === undefined) return undefined;
  if (prefix < 0xc0) throw new InvalidData();
  if (prefix <= 0xf7) return offset + 1 + (prefix - 0xc0);
  const lengthOfLength = prefix - 0xf7;
  if (lengthOfLength > 4) throw new InvalidData();
  if (bytes.length < offset + 1 + lengthOfLength) return undefined;
  return offset + 1 + lengthOfLength + bytes.readUIntBE(offset + 1, lengthOfLength);
}

/** One RLP item's header at `offset`: its size and its content's. Undefined until the header has arrived. */
function rlpItemAt(bytes: Buffer, offset: number): { header: number; length: number } | undefined {
  const prefix = bytes[offset];
  if (prefix === undefined) return undefined;
  if (prefix < 0x80) return { header: 0, length: 1 };
  const [shortBase, longBase] = prefix < 0xc0 ? [0x80, 0xb7] : [0xc0, 0xf7];
  if (prefix <= longBase) return { header: 1, length: prefix - shortBase };
  const lengthOfLength = prefix - longBase;
  if (bytes.length < offset + 1 + lengthOfLength) return undefined;
  return { header: 1 + lengthOfLength, length: bytes.readUIntBE(offset + 1, lengthOfLength) };
}

/**
 * Where the transaction's data field starts and how long it is, once the bytes before it have arrived: field 7 of an
 * EIP-1559 transaction, 6 of an EIP-2930 one, 5 of a legacy one.
 */
function dataFieldOf(bytes: Buffer): { start: number; length: number } | undefined {
  const first = bytes[0];
  if (first === undefined) return undefined;
  const typed = first < 0x80;
  const fieldsBefore = !typed ? 5 : first === 0x01 ? 6 : 7;
  let offset = typed ? 1 : 0;
  const list = rlpItemAt(bytes, offset);
  if (!list) return undefined;
  offset += list.header;
  for (let field = 0; field < fieldsBefore; field++) {
    const item = rlpItemAt(bytes, offset);
    if (!item) return undefined;
    offset += item.header + item.length;
  }
  const data = rlpItemAt(bytes, offset);
  return data && { start: offset + data.header, length: data.length };
}

function parseUnsigned(serialized: Hex): ReturnType<typeof parseTransaction> {
  try {
    return parseTransaction(serialized);
  } catch {
    throw new InvalidData();
  }
}

function word(hex: Hex): Buffer {
  return Buffer.from(hex.slice(2).padStart(64, '0'), 'hex');
}

function answer(status: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const sw = Buffer.alloc(2);
  sw.writeUInt16BE(status);
  return Buffer.concat([data, sw]);
}
