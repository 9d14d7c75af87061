import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  concat,
  createPublicClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  recoverMessageAddress,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializedEIP1559,
  toHex,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MNEMONIC, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { WETH9 } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { ledgerAccess } from '../src-main/signer/ledger/ledgerAccess';
import { readLedgerConfiguration } from '../src-main/signer/ledger/ledgerConfiguration';
import {
  LEDGER_MAX_MESSAGE_BYTES,
  LedgerError,
  type LedgerReason,
  toLedgerError,
} from '../src-main/signer/ledger/ledgerErrors';
import {
  createLedgerSigner,
  LEDGER_LIVE_PATH_TEMPLATE,
  LEGACY_PATH_TEMPLATE,
  listLedgerAddresses,
} from '../src-main/signer/ledger/ledgerSigner';
import {
  hidOpener,
  type LedgerTransportOpener,
  openLedgerTransport,
} from '../src-main/signer/ledger/openLedgerTransport';
import { passphraseCipher } from '../src-main/signer/localKey/keyCipher';
import type { SignableTransaction } from '../src-main/signer/signer';
import { SignerError, type SignerErrorCode } from '../src-main/signer/signerError';
import { Signers } from '../src-main/signer/signers';
import { EMULATED_MAX_MESSAGE_BYTES, LedgerEmulator, type LedgerEmulatorState } from './support/ledgerEmulator';
import { readTranscript, TranscriptTransport, transcriptInputs } from './support/ledgerTranscript';
import { startTestService, type TestService } from './support/startTestService';

const requireCjs = createRequire(import.meta.url);
const INS_SIGN = 0x04;
const INS_SIGN_PERSONAL_MESSAGE = 0x08;
const INS_GET_APP_CONFIGURATION = 0x06;
/** m/44'/60'/0'/0/0 as the app reads a path: the count of indices, then each as 4 bytes big-endian. */
const ACCOUNT0_KEY = testAccounts()[0]?.privateKey as Hex;
const ACCOUNT0_PATH = Buffer.from('058000002c8000003c800000000000000000000000', 'hex');
const OTHER_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

const accounts = testAccounts();
let service: TestService;
let client: PublicClient;
let wbnb: Address;

beforeAll(async () => {
  service = await startTestService();
  client = createPublicClient({
    chain: devnetChain,
    transport: http(`${service.origin}/rpc`),
    pollingInterval: 50,
  }) as PublicClient;
  const settings = (await (await fetch(`${service.url}/settings`)).json()) as { contracts: { wbnb: Address } };
  wbnb = settings.contracts.wbnb;
});

afterAll(async () => {
  await service?.dispose();
});

function legacyPath(index: number): string {
  return LEGACY_PATH_TEMPLATE.replace('{i}', String(index));
}

/** An EIP-1559 transaction from `from`, with nonce, gas and fees as the devnet gives them. */
async function fill(from: Address, call: { to: Address; value?: bigint; data?: Hex }): Promise<SignableTransaction> {
  const [nonce, fees, gas] = await Promise.all([
    client.getTransactionCount({ address: from, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
    client.estimateGas({ account: from, ...call }),
  ]);
  return {
    type: 'eip1559',
    chainId: devnetChain.id,
    nonce,
    gas,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    ...call,
  };
}

/** Runs `run` and reports every HTTP request it caused to a host other than this machine. */
async function outboundRequests<T>(run: () => Promise<T>): Promise<{ result: T; hosts: string[] }> {
  const hosts: string[] = [];
  const note = (host: string) => {
    if (!/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host)) hosts.push(host);
  };
  const onNodeHttp = (message: unknown) => note(String((message as { request: { host?: string } }).request.host));
  const onFetch = (message: unknown) => note(new URL((message as { request: { origin: string } }).request.origin).host);
  subscribe('http.client.request.start', onNodeHttp);
  subscribe('undici:request:create', onFetch);
  try {
    return { result: await run(), hosts };
  } finally {
    unsubscribe('http.client.request.start', onNodeHttp);
    unsubscribe('undici:request:create', onFetch);
  }
}

/** A transaction carrying contract data, for the device states that do not need the chain. */
const CONTRACT_CALL: SignableTransaction = {
  type: 'eip1559',
  chainId: devnetChain.id,
  nonce: 0,
  gas: 100_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
  to: '0x000000000000000000000000000000000000dEaD',
  data: '0xd0e30db0',
};

describe('Ledger accounts', () => {
  it('reads the legacy path as the devnet test accounts', async () => {
    const emulator = new LedgerEmulator();
    const listed = await listLedgerAddresses(emulator, LEGACY_PATH_TEMPLATE, 0, 4);
    expect(listed).toEqual(accounts.slice(0, 4).map((a) => ({ path: legacyPath(a.index), address: a.address })));
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(3) });
    expect(signer.kind).toBe('ledger');
    expect(await signer.getAddress()).toBe(accounts[3]?.address);
  });

  it('reads the Ledger Live path in order from any index, checksummed', async () => {
    const emulator = new LedgerEmulator();
    const listed = await listLedgerAddresses(emulator, LEDGER_LIVE_PATH_TEMPLATE, 2, 3);
    expect(listed.map((a) => a.path)).toEqual(["44'/60'/2'/0/0", "44'/60'/3'/0/0", "44'/60'/4'/0/0"]);
    for (const [n, { address }] of listed.entries()) {
      expect(address).toBe(getAddress(address.toLowerCase()));
      expect(address).toBe(mnemonicToAccount(TEST_MNEMONIC, { accountIndex: 2 + n }).address);
    }
    // Both layouts start at m/44'/60'/0'/0/0.
    const live0 = createLedgerSigner({ transport: emulator, path: LEDGER_LIVE_PATH_TEMPLATE.replace('{i}', '0') });
    expect(await live0.getAddress()).toBe(accounts[0]?.address);
  });

  it('refuses a template without one {i}', async () => {
    await expect(listLedgerAddresses(new LedgerEmulator(), "44'/60'/0'/0/0", 0, 1)).rejects.toBeInstanceOf(RangeError);
  });
});

describe('Ledger signing through hw-app-eth', () => {
  it('signs a BNB transfer that the devnet mines, without any network call', async () => {
    const [sender, receiver] = [accounts[1], accounts[2]];
    if (!sender || !receiver) throw new Error('test accounts missing');
    const signer = createLedgerSigner({ transport: new LedgerEmulator(), path: legacyPath(1) });
    const value = parseEther('1.5');
    const [senderBefore, receiverBefore] = await Promise.all([
      client.getBalance({ address: sender.address }),
      client.getBalance({ address: receiver.address }),
    ]);
    const tx = await fill(sender.address, { to: receiver.address, value });

    const { result: signed, hosts } = await outboundRequests(() => signer.signTransaction(tx));
    expect(hosts).toEqual([]);
    expect(await recoverTransactionAddress({ serializedTransaction: signed as TransactionSerializedEIP1559 })).toBe(
      sender.address,
    );

    const receipt = await client.waitForTransactionReceipt({
      hash: await client.sendRawTransaction({ serializedTransaction: signed }),
    });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(sender.address.toLowerCase());
    expect(await client.getBalance({ address: receiver.address })).toBe(receiverBefore + value);
    expect(await client.getBalance({ address: sender.address })).toBe(
      senderBefore - value - receipt.gasUsed * receipt.effectiveGasPrice,
    );
  });

  it('signs a contract call with more than 255 bytes of data, sent to the device in several chunks', async () => {
    const sender = accounts[1];
    if (!sender) throw new Error('test account missing');
    const emulator = new LedgerEmulator();
    emulator.blindSigning = true;
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(1) });
    // WBNB's deposit() ignores what follows its selector: the padding makes the calldata long, not the call different.
    const data = concat([
      encodeFunctionData({ abi: WETH9.abi, functionName: 'deposit' }),
      toHex(new Uint8Array(300).fill(0xab)),
    ]);
    const value = parseEther('0.25');
    const wrappedBefore = await client.readContract({
      address: wbnb,
      abi: WETH9.abi,
      functionName: 'balanceOf',
      args: [sender.address],
    });
    const tx = await fill(sender.address, { to: wbnb, value, data });

    const { result: signed, hosts } = await outboundRequests(() => signer.signTransaction(tx));
    expect(hosts).toEqual([]);
    const chunks = emulator.receivedFor(INS_SIGN);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.p1)).toEqual([0x00, ...chunks.slice(1).map(() => 0x80)]);
    // The first chunk opens with the path (5 indices), and the chunks together are the unsigned transaction.
    const payload = Buffer.concat(chunks.map((c) => c.data));
    expect(payload[0]).toBe(5);
    expect(toHex(payload.subarray(1 + 5 * 4))).toBe(serializeTransaction(tx));

    const receipt = await client.waitForTransactionReceipt({
      hash: await client.sendRawTransaction({ serializedTransaction: signed }),
    });
    expect(receipt.status).toBe('success');
    expect(
      await client.readContract({ address: wbnb, abi: WETH9.abi, functionName: 'balanceOf', args: [sender.address] }),
    ).toBe(wrappedBefore + value);
  });

  it('signs personal messages, long and non-ASCII ones too, as the key itself would', async () => {
    const account = accounts[4];
    if (!account) throw new Error('test account missing');
    const emulator = new LedgerEmulator();
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(4) });
    const local = privateKeyToAccount(account.privateKey);
    for (const message of ['hello', `Sign in to Launchpad Companion ✓ — nonce ${'7'.repeat(200)}`]) {
      const signature = await signer.signMessage(message);
      expect(await recoverMessageAddress({ message, signature })).toBe(account.address);
      expect(signature).toBe(await local.signMessage({ message }));
    }
    expect(emulator.receivedFor(INS_SIGN_PERSONAL_MESSAGE).length).toBeGreaterThan(2);
  });

  it('refuses a signature made by another seed than the account', async () => {
    const emulator = new LedgerEmulator();
    emulator.blindSigning = true;
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(0) });
    await signer.getAddress();
    emulator.useMnemonic(OTHER_MNEMONIC);
    await expect(signer.signTransaction(CONTRACT_CALL)).rejects.toMatchObject({ reason: 'unknown' });
    await expect(signer.signMessage('hello')).rejects.toBeInstanceOf(LedgerError);
  });
});

describe('Ledger failures', () => {
  const cases: [LedgerEmulatorState, LedgerReason, SignerErrorCode][] = [
    ['locked', 'locked', 'LEDGER_LOCKED'],
    ['app-not-open', 'app-not-open', 'LEDGER_APP_NOT_OPEN'],
    ['reject-next', 'rejected', 'LEDGER_REJECTED'],
    ['interrupt-next', 'busy', 'LEDGER_BUSY'],
    ['disconnected', 'disconnected', 'LEDGER_DISCONNECTED'],
  ];

  it.each(cases)('maps the device %s to the reason %s', async (state, reason, code) => {
    const emulator = new LedgerEmulator();
    emulator.blindSigning = true;
    emulator.state = state;
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(0) });
    const failure = await signer.signTransaction(CONTRACT_CALL).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LedgerError);
    expect(failure).toMatchObject({ reason });
    expect((failure as LedgerError).toSignerError().code).toBe(code);
  });

  it('rejects or interrupts only the next request, and signs transfers and messages while blind signing is off', async () => {
    const emulator = new LedgerEmulator();
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(0) });
    emulator.state = 'reject-next';
    await expect(signer.signMessage('no')).rejects.toMatchObject({ reason: 'rejected' });
    await expect(signer.signMessage('yes')).resolves.toMatch(/^0x[0-9a-f]{130}$/);
    emulator.state = 'interrupt-next';
    const interrupted = await signer.signMessage('later').catch((error: unknown) => error);
    expect(interrupted).toMatchObject({ reason: 'busy', statusCode: 0x6980 });
    expect((interrupted as LedgerError).toSignerError()).toMatchObject({ code: 'LEDGER_BUSY', retry: true });
    await expect(signer.signMessage('later')).resolves.toMatch(/^0x[0-9a-f]{130}$/);

    // Blind signing is off on a new device: a transfer carries no data and signs; a contract call is refused.
    const { data: _, ...transfer } = CONTRACT_CALL;
    await expect(signer.signTransaction({ ...transfer, value: 1n })).resolves.toMatch(/^0x02/);
    const refused = await signer.signTransaction(CONTRACT_CALL).catch((error: unknown) => error);
    // hw-app-eth has turned the 0x6a80 into EthAppPleaseEnableContractData, without the status word.
    expect(refused).toMatchObject({ reason: 'blind-signing-disabled' });
    expect((refused as LedgerError).toSignerError()).toMatchObject({
      code: 'LEDGER_BLIND_SIGNING_DISABLED',
      retry: false,
    });
  });

  it('answers busy to a request made while another is on the device', async () => {
    const signer = createLedgerSigner({ transport: new LedgerEmulator(), path: legacyPath(0) });
    const [first, second] = await Promise.allSettled([signer.signMessage('one'), signer.signMessage('two')]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { reason: 'busy' } });
  });

  it('maps status words and error names from every Ledger library', () => {
    const { TransportStatusError, TransportError } = requireCjs('@ledgerhq/hw-transport');
    const errors = requireCjs('@ledgerhq/errors');
    const { EthAppPleaseEnableContractData } = requireCjs('@ledgerhq/hw-app-eth/errors');
    const table: [unknown, LedgerReason][] = [
      [new TransportStatusError(0x5515), 'locked'],
      [new errors.TransportStatusError(0x5515), 'locked'],
      [new TransportStatusError(0x6b0c), 'locked'],
      [new TransportStatusError(0x6985), 'rejected'],
      [new TransportStatusError(0x5501), 'rejected'],
      [new TransportStatusError(0x6980), 'busy'],
      [new TransportStatusError(0x6a80), 'invalid-data'],
      [new EthAppPleaseEnableContractData('enable it'), 'blind-signing-disabled'],
      [new TransportStatusError(0x6e00), 'app-not-open'],
      [new TransportStatusError(0x6d00), 'app-not-open'],
      [new TransportStatusError(0x6e01), 'app-not-open'],
      [new TransportStatusError(0x6511), 'app-not-open'],
      [new TransportStatusError(0x6807), 'app-not-open'],
      [new errors.DisconnectedDevice(), 'disconnected'],
      [new errors.DisconnectedDeviceDuringOperation('read failed'), 'disconnected'],
      [new errors.CantOpenDevice(), 'disconnected'],
      [new errors.TransportError('NoDevice', 'NoDevice'), 'disconnected'],
      [new errors.TransportRaceCondition('pending'), 'busy'],
      [new TransportError('Ledger Device is busy (lock getAddress)', 'TransportLocked'), 'busy'],
      [new TransportStatusError(0x6f00), 'unknown'],
      [new Error('something else'), 'unknown'],
      ['not even an error', 'unknown'],
    ];
    for (const [error, reason] of table) expect(toLedgerError(error).reason, String(error)).toBe(reason);
    expect(toLedgerError(new TransportStatusError(0x6f00)).statusCode).toBe(0x6f00);
    // 0x6a80 is blind signing only for a transaction; for a message or an address the app found the data invalid.
    const invalidData = new TransportStatusError(0x6a80);
    expect(toLedgerError(invalidData, 'transaction').reason).toBe('blind-signing-disabled');
    expect(toLedgerError(invalidData, 'message').reason).toBe('invalid-data');
    expect(toLedgerError(invalidData, 'address').reason).toBe('invalid-data');
    expect(toLedgerError(invalidData, 'message').toSignerError().code).toBe('LEDGER_INVALID_DATA');
    // Only the interrupted review (busy) passes by itself.
    expect(toLedgerError(new TransportStatusError(0x6980), 'transaction').toSignerError().retry).toBe(true);
    expect(toLedgerError(new TransportStatusError(0x6985), 'transaction').toSignerError().retry).toBe(false);
  });
});

describe('opening the USB transport', () => {
  it('reports a USB layer that cannot load as disconnected', async () => {
    const cause = new Error('libusb-1.0.so.0: cannot open shared object file');
    const failure = await openLedgerTransport({
      loadTransport: () => {
        throw cause;
      },
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ reason: 'disconnected', cause });
  });

  it('reports no device, a device that cannot be opened, and one that does not answer as disconnected', async () => {
    const { TransportError } = requireCjs('@ledgerhq/errors');
    const openers: LedgerTransportOpener[] = [
      { open: () => Promise.reject(new TransportError('NoDevice', 'NoDevice')) },
      { open: () => Promise.reject(new Error('cannot open device with path /dev/hidraw0')) },
      { open: () => new Promise(() => undefined) },
    ];
    for (const opener of openers) {
      await expect(openLedgerTransport({ loadTransport: () => opener, timeoutMs: 50 })).rejects.toMatchObject({
        reason: 'disconnected',
      });
    }
  });

  it("names the model from the first Ledger's USB product id, where the library would name it from its product string", async () => {
    const { identifyUSBProductId } = requireCjs('@ledgerhq/devices');
    const opened: string[] = [];
    // A Flex whose HID product string the library's table does not know: the transport comes back unnamed.
    const unnamed = new LedgerEmulator();
    unnamed.deviceModel = null;
    const opener = hidOpener({
      TransportNodeHid: {
        open: async (path) => {
          opened.push(path);
          return unnamed;
        },
      },
      getDevices: () => [{ path: '/dev/hidraw3', productId: 0x7011 }],
      identifyUSBProductId,
    });
    const transport = await openLedgerTransport({ loadTransport: () => opener });
    expect(opened).toEqual(['/dev/hidraw3']);
    expect((await readLedgerConfiguration(transport)).model).toBe('flex');
    // No Ledger on USB: the library's own open answers, and its NoDevice is reported as disconnected.
    const { TransportError } = requireCjs('@ledgerhq/errors');
    const none = hidOpener({
      TransportNodeHid: { open: () => Promise.reject(new TransportError('NoDevice', 'NoDevice')) },
      getDevices: () => [],
      identifyUSBProductId,
    });
    await expect(openLedgerTransport({ loadTransport: () => none })).rejects.toMatchObject({ reason: 'disconnected' });
  });

  it('hands over the transport it opened', async () => {
    const emulator = new LedgerEmulator();
    const transport = await openLedgerTransport({ loadTransport: () => ({ open: async () => emulator }) });
    expect(transport).toBe(emulator);
  });
});

describe('a refusal on the device, as the app reports it', () => {
  it("keeps the LedgerError and the status word under the Signers' LEDGER_REJECTED, for the log", async () => {
    const emulator = new LedgerEmulator();
    const signers = new Signers(
      mkdtempSync(join(tmpdir(), 'ledger-cause-')),
      passphraseCipher({ n: 2 ** 10, r: 8, p: 1 }),
      ledgerAccess(async () => emulator),
    );
    await signers.useLedger(legacyPath(0));
    emulator.state = 'reject-next';
    const refused = await signers.signMessage('no').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SignerError);
    expect(refused).toMatchObject({ code: 'LEDGER_REJECTED' });
    const ledgerFailure = (refused as SignerError).cause;
    expect(ledgerFailure).toBeInstanceOf(LedgerError);
    expect(ledgerFailure).toMatchObject({ reason: 'rejected', statusCode: 0x6985 });
    // What the transport threw for the device's answer, under that.
    expect((ledgerFailure as LedgerError).cause).toMatchObject({ statusCode: 0x6985 });
  });
});

describe('blind signing, known before the first transaction', () => {
  it('reads the Ethereum app configuration: blind signing off on a new device, on once the person enables it', async () => {
    const emulator = new LedgerEmulator();
    expect(await readLedgerConfiguration(emulator)).toEqual({ blindSigning: false, version: '1.22.0', model: 'flex' });
    emulator.blindSigning = true;
    emulator.useModel(0x5011);
    expect(await readLedgerConfiguration(emulator)).toEqual({ blindSigning: true, version: '1.22.0', model: 'nanoSP' });
    expect(emulator.receivedFor(INS_GET_APP_CONFIGURATION)).toHaveLength(2);
    emulator.state = 'locked';
    await expect(readLedgerConfiguration(emulator)).rejects.toMatchObject({ reason: 'locked' });
  });

  it('refuses a contract call before any of it reaches the device while blind signing is off', async () => {
    const emulator = new LedgerEmulator();
    const access = ledgerAccess(async () => emulator);
    const refused = await access
      .withSigner(legacyPath(0), (signer) => signer.signTransaction(CONTRACT_CALL))
      .catch((error: unknown) => error);
    expect(access.toSignerError(refused)).toMatchObject({ code: 'LEDGER_BLIND_SIGNING_DISABLED' });
    expect(emulator.receivedFor(INS_SIGN)).toEqual([]);
    // A transfer carries no data: nothing to ask, it signs.
    const { data: _, ...transfer } = CONTRACT_CALL;
    await expect(
      access.withSigner(legacyPath(0), (signer) => signer.signTransaction({ ...transfer, value: 1n })),
    ).resolves.toMatch(/^0x02/);
    expect(emulator.receivedFor(INS_GET_APP_CONFIGURATION)).toHaveLength(1);

    emulator.blindSigning = true;
    const signed = await access.withSigner(legacyPath(0), (signer) => signer.signTransaction(CONTRACT_CALL));
    expect(await recoverTransactionAddress({ serializedTransaction: signed as TransactionSerializedEIP1559 })).toBe(
      accounts[0]?.address,
    );
  });

  it('is refused by the emulated device on the chunk where the data starts, not before', async () => {
    // hw-app-eth's first chunk always holds the data's start; cut by hand, the chunk boundary can fall anywhere.
    const serialized = Buffer.from(serializeTransaction(CONTRACT_CALL).slice(2), 'hex');
    const dataStart = serialized.indexOf(Buffer.from('84d0e30db0', 'hex')) + 1;
    const sendChunks = async (emulator: LedgerEmulator, cut: number) => {
      const statuses: number[] = [];
      for (const [i, chunk] of [
        Buffer.concat([ACCOUNT0_PATH, serialized.subarray(0, cut)]),
        serialized.subarray(cut),
      ].entries()) {
        const answer = await emulator.exchange(
          Buffer.concat([Buffer.from([0xe0, INS_SIGN, i === 0 ? 0x00 : 0x80, 0x00, chunk.length]), chunk]),
        );
        statuses.push(answer.readUInt16BE(answer.length - 2));
        if (statuses.at(-1) !== 0x9000) break;
      }
      return statuses;
    };
    // The first chunk ends with the data's header, before its first byte: it passes; the next one is refused.
    expect(await sendChunks(new LedgerEmulator(), dataStart)).toEqual([0x9000, 0x6a80]);
    // The first chunk holds the data's first byte: refused there, as the real app refused the recorded buy.
    expect(await sendChunks(new LedgerEmulator(), dataStart + 1)).toEqual([0x6a80]);
    const enabled = new LedgerEmulator();
    enabled.blindSigning = true;
    const [first, last] = await sendChunks(enabled, dataStart);
    expect([first, last]).toEqual([0x9000, 0x9000]);
  });
});

describe('messages the device cannot take', () => {
  it(`refuses a message over ${LEDGER_MAX_MESSAGE_BYTES} bytes before sending anything, and signs one of exactly that`, async () => {
    const emulator = new LedgerEmulator();
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(0) });
    // 2,731 three-byte characters: 8,193 bytes in UTF-8 although the text is far shorter in characters.
    const tooLong = '✓'.repeat(2_731);
    const refused = await signer.signMessage(tooLong).catch((error: unknown) => error);
    expect(refused).toMatchObject({ reason: 'message-too-long' });
    expect((refused as LedgerError).toSignerError().code).toBe('LEDGER_MESSAGE_TOO_LONG');
    expect(emulator.received).toEqual([]);

    const longest = 'a'.repeat(LEDGER_MAX_MESSAGE_BYTES);
    const signature = await signer.signMessage(longest);
    expect(signature).toBe(await privateKeyToAccount(ACCOUNT0_KEY).signMessage({ message: longest }));
  });

  it('maps the app refusing message data (0x6a80) as invalid data, never as blind signing', async () => {
    const emulator = new LedgerEmulator();
    // What hw-app-eth sends first for a message, declaring one byte more than the app takes.
    const length = Buffer.alloc(4);
    length.writeUInt32BE(EMULATED_MAX_MESSAGE_BYTES + 1);
    const first = Buffer.concat([ACCOUNT0_PATH, length, Buffer.from('a')]);
    const refused = await emulator.send(0xe0, INS_SIGN_PERSONAL_MESSAGE, 0x00, 0x00, first).catch((e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 0x6a80 });
    expect(toLedgerError(refused, 'message')).toMatchObject({ reason: 'invalid-data', statusCode: 0x6a80 });
  });
});

describe("the real Ethereum app's recorded exchanges", () => {
  const inputs = transcriptInputs();
  const tx: SignableTransaction = {
    type: 'eip1559',
    chainId: Number(inputs.tx.chainId),
    nonce: Number(inputs.tx.nonce),
    gas: BigInt(inputs.tx.gas as string),
    maxFeePerGas: BigInt(inputs.tx.maxFeePerGas as string),
    maxPriorityFeePerGas: BigInt(inputs.tx.maxPriorityFeePerGas as string),
    to: inputs.tx.to as Address,
    value: BigInt(inputs.tx.value as string),
    data: inputs.tx.data as Hex,
  };
  const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

  /** The signature the device answered last in a transcript: v || r || s, then the status word. */
  function recordedSignature(name: string): { v: number; r: Hex; s: Hex } {
    const answer = readTranscript(name).at(-1)?.answer ?? Buffer.alloc(0);
    expect(answer.subarray(-2).toString('hex')).toBe('9000');
    return { v: answer[0] ?? -1, r: toHex(answer.subarray(1, 33)), s: toHex(answer.subarray(33, 65)) };
  }

  it('replays the approved buy through the signer: the same APDUs, the identical signature', async () => {
    const transport = new TranscriptTransport(readTranscript('buy-chain56-approved'));
    const signed = await createLedgerSigner({ transport, path: inputs.path }).signTransaction(tx);
    expect(transport.mismatches).toEqual([]);
    expect(transport.finished).toBe(true);
    const { v, r, s } = recordedSignature('buy-chain56-approved');
    expect(signed).toBe(serializeTransaction(tx, { r, s, yParity: v }));
    expect(await recoverTransactionAddress({ serializedTransaction: signed as TransactionSerializedEIP1559 })).toBe(
      ACCOUNT,
    );
  });

  it('replays the approved challenge message: the identical signature, the one the key itself makes', async () => {
    const transport = new TranscriptTransport(readTranscript('challenge-message-approved'));
    const signature = await createLedgerSigner({ transport, path: inputs.path }).signMessage(inputs.message);
    expect(transport.mismatches).toEqual([]);
    expect(transport.finished).toBe(true);
    const { v, r, s } = recordedSignature('challenge-message-approved');
    expect(signature).toBe(concat([r, s, toHex(v, { size: 1 })]));
    expect(signature).toBe(await privateKeyToAccount(ACCOUNT0_KEY).signMessage({ message: inputs.message }));
  });

  it.each([
    ['buy-chain56-rejected', 'transaction', 'rejected', 'LEDGER_REJECTED'],
    ['buy-chain56-blind-signing-off', 'transaction', 'blind-signing-disabled', 'LEDGER_BLIND_SIGNING_DISABLED'],
    ['challenge-message-rejected', 'message', 'rejected', 'LEDGER_REJECTED'],
  ] as const)('replays %s as our %s refusal', async (name, kind, reason, code) => {
    const transport = new TranscriptTransport(readTranscript(name));
    const signer = createLedgerSigner({ transport, path: inputs.path });
    const failure = await (kind === 'transaction' ? signer.signTransaction(tx) : signer.signMessage(inputs.message))
      .then(() => 'signed')
      .catch((error: unknown) => error);
    expect(transport.mismatches).toEqual([]);
    expect(transport.finished).toBe(true);
    expect(failure).toMatchObject({ reason });
    expect((failure as LedgerError).toSignerError().code).toBe(code);
  });

  it("keeps the device's own answer under the refusal, down to the error the Signers report", async () => {
    const transport = new TranscriptTransport(readTranscript('buy-chain56-rejected'));
    const failure = await createLedgerSigner({ transport, path: inputs.path })
      .signTransaction(tx)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LedgerError);
    // What hw-transport threw for the status word the real app answered, kept for the log.
    expect((failure as LedgerError).cause).toMatchObject({ statusCode: 0x6985 });
    const reported = ledgerAccess(async () => transport as never).toSignerError(failure);
    expect(reported).toMatchObject({ code: 'LEDGER_REJECTED' });
    expect(reported?.cause).toBe(failure);
  });

  it('fails the replay on any APDU the real app did not get', async () => {
    const transport = new TranscriptTransport(readTranscript('buy-chain56-approved'));
    const failure = await createLedgerSigner({ transport, path: inputs.path })
      .signTransaction({ ...tx, nonce: tx.nonce + 1 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LedgerError);
    expect(transport.mismatches).toHaveLength(1);
    expect(transport.finished).toBe(false);
  });

  it.each([
    ['buy-chain56-approved', { blindSigning: true }],
    ['buy-chain56-rejected', { blindSigning: true, state: 'reject-next' }],
    ['buy-chain56-blind-signing-off', {}],
    ['challenge-message-approved', {}],
    ['challenge-message-rejected', { state: 'reject-next' }],
  ] as const)('has the emulator answer %s exactly as the real app did', async (name, setup) => {
    const emulator = new LedgerEmulator();
    Object.assign(emulator, setup);
    for (const { apdu, answer } of readTranscript(name)) {
      expect((await emulator.exchange(apdu)).toString('hex')).toBe(answer.toString('hex'));
    }
  });
});
