import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
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
import { LedgerError, type LedgerReason, toLedgerError } from '../src-main/signer/ledger/ledgerErrors';
import {
  createLedgerSigner,
  LEDGER_LIVE_PATH_TEMPLATE,
  LEGACY_PATH_TEMPLATE,
  listLedgerAddresses,
} from '../src-main/signer/ledger/ledgerSigner';
import { type LedgerTransportOpener, openLedgerTransport } from '../src-main/signer/ledger/openLedgerTransport';
import type { SignableTransaction } from '../src-main/signer/signer';
import type { SignerErrorCode } from '../src-main/signer/signerError';
import { LedgerEmulator, type LedgerEmulatorState } from './support/ledgerEmulator';
import { startTestService, type TestService } from './support/startTestService';

const requireCjs = createRequire(import.meta.url);
const INS_SIGN = 0x04;
const INS_SIGN_PERSONAL_MESSAGE = 0x08;
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
    ['blind-signing-disabled', 'blind-signing-disabled', 'LEDGER_BLIND_SIGNING_DISABLED'],
    ['disconnected', 'disconnected', 'LEDGER_DISCONNECTED'],
  ];

  it.each(cases)('maps the device %s to the reason %s', async (state, reason, code) => {
    const emulator = new LedgerEmulator();
    emulator.state = state;
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(0) });
    const failure = await signer.signTransaction(CONTRACT_CALL).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LedgerError);
    expect(failure).toMatchObject({ reason });
    expect((failure as LedgerError).toSignerError().code).toBe(code);
  });

  it('rejects only the next request, and signs transfers while blind signing is off', async () => {
    const emulator = new LedgerEmulator();
    const signer = createLedgerSigner({ transport: emulator, path: legacyPath(0) });
    emulator.state = 'reject-next';
    await expect(signer.signMessage('no')).rejects.toMatchObject({ reason: 'rejected' });
    await expect(signer.signMessage('yes')).resolves.toMatch(/^0x[0-9a-f]{130}$/);

    emulator.state = 'blind-signing-disabled';
    const { data: _, ...transfer } = CONTRACT_CALL;
    await expect(signer.signTransaction({ ...transfer, value: 1n })).resolves.toMatch(/^0x02/);
    await expect(signer.signTransaction(CONTRACT_CALL)).rejects.toMatchObject({ reason: 'blind-signing-disabled' });
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
      [new TransportStatusError(0x6a80), 'blind-signing-disabled'],
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

  it('hands over the transport it opened', async () => {
    const emulator = new LedgerEmulator();
    const transport = await openLedgerTransport({ loadTransport: () => ({ open: async () => emulator }) });
    expect(transport).toBe(emulator);
  });
});
