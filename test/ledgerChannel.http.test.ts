import { type Hex, recoverMessageAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { ledgerAccess } from '../src-main/signer/ledger/ledgerAccess';
import { LEDGER_MAX_MESSAGE_BYTES } from '../src-main/signer/ledger/ledgerErrors';
import { LedgerEmulator } from './support/ledgerEmulator';
import { startTradingFixture, type TradingFixture } from './support/tradingFixture';

const TOKEN = 'ledger-channel-token-0123456789';
const emulator = new LedgerEmulator();
// The emulator holds the test mnemonic: the legacy path's account 11 is test account 11.
const ACCOUNT = testAccounts()[11] as TestAccount;
const PATH = "44'/60'/0'/0/11";

let f: TradingFixture;

beforeAll(async () => {
  // Started to take the page's confirmation of a message that is not a challenge, as these tests sign such messages.
  f = await startTradingFixture({
    appToken: TOKEN,
    ledger: ledgerAccess(async () => emulator),
    allowWarnedSigning: true,
  });
});
afterAll(async () => {
  await f?.service.dispose();
});

async function call(operation: string, input: unknown = {}) {
  const response = await fetch(`${f.service.origin}/app/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(input),
  });
  return (await response.json()) as { result?: any; error?: { code: string; fix?: string; retry?: boolean } };
}

/** The buy the test account asks the API to build. */
async function buildBuy(amount: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${f.service.url}/build/buy`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: ACCOUNT.address, token: f.bnbToken.token, amount }),
  });
  return ((await response.json()) as { tx: Record<string, unknown> }).tx;
}

/** A buy of `amount` built, prepared by main (as the review has it) and sent to be signed under `title`. */
async function sendBuy(amount: string, title: string) {
  const tx = await buildBuy(amount);
  const prepared = await call('tx.prepare', { tx });
  return call('tx.send', { tx, prepared: prepared.result.id, step: 'main', kind: 'buy', title });
}

describe('the app signing with a Ledger (an emulated device speaking the Ethereum app APDUs)', () => {
  it('lists accounts on a path, signs a challenge and a trade, and the devnet accepts the trade', async () => {
    const listed = await call('ledger.addresses', { template: 'legacy', from: 10, count: 2 });
    expect(listed.result.map((a: { path: string }) => a.path)).toEqual(["44'/60'/0'/0/10", PATH]);
    expect(listed.result[1].address).toBe(ACCOUNT.address);
    // Choosing the account reads the app's configuration: a new Ledger has blind signing off, and the person learns it
    // here, before the first trade.
    expect((await call('ledger.use', { path: PATH })).result).toMatchObject({
      active: 'ledger',
      address: ACCOUNT.address,
      ledgerApp: { blindSigning: false, version: '1.22.0', model: 'flex' },
    });

    // A trade attempted anyway is refused before any of it reaches the device, with the way to turn it on.
    const refused = await sendBuy('0.1', 'Too early');
    expect(refused.error).toMatchObject({
      code: 'LEDGER_BLIND_SIGNING_DISABLED',
      fix: expect.stringContaining('Blind'),
    });
    expect(emulator.receivedFor(0x04)).toEqual([]);
    const [failed] = (await call('activity.list', { limit: 1 })).result;
    expect(failed).toMatchObject({ title: 'Too early', status: 'failed' });

    // The person turns it on on the device and asks again.
    emulator.blindSigning = true;
    expect((await call('ledger.configuration')).result).toMatchObject({
      ledgerApp: { blindSigning: true, version: '1.22.0', model: 'flex' },
    });

    // Not one of the service's challenges: signed only as a message the person confirmed shown in full.
    const signed = await call('message.sign', {
      message: 'Launchpad Companion: hello',
      kind: 'register',
      title: 'x',
      confirmedUnknown: true,
    });
    expect(
      await recoverMessageAddress({ message: 'Launchpad Companion: hello', signature: signed.result.signature as Hex }),
    ).toBe(ACCOUNT.address);

    const sent = await sendBuy('0.1', 'Buy with the Ledger');
    const settled = await call('tx.wait', { id: sent.result.id });
    expect(settled.result.status).toBe('confirmed');
    const receipt = await f.client.getTransactionReceipt({ hash: sent.result.hash });
    expect(receipt.from).toBe(ACCOUNT.address.toLowerCase());
    // The trade's call data went to the device in more than one chunk.
    expect(emulator.receivedFor(0x04).length).toBeGreaterThan(1);
  });

  it.each([
    ['locked', 'LEDGER_LOCKED', false],
    ['app-not-open', 'LEDGER_APP_NOT_OPEN', false],
    ['reject-next', 'LEDGER_REJECTED', false],
    ['interrupt-next', 'LEDGER_BUSY', true],
    ['disconnected', 'LEDGER_DISCONNECTED', false],
  ] as const)(
    'answers a %s device with %s, and records the refusal in the activity list',
    async (state, code, retry) => {
      emulator.state = state;
      try {
        const refused = await call('message.sign', {
          message: 'Launchpad Companion: again',
          kind: 'register',
          title: state,
          confirmedUnknown: true,
        });
        expect(refused.error?.code).toBe(code);
        expect(refused.error?.retry ?? false).toBe(retry);
      } finally {
        emulator.state = 'ready';
      }
      const [latest] = (await call('activity.list', { limit: 1 })).result;
      expect(latest).toMatchObject({ title: state, status: 'failed' });
    },
  );

  it('turns the status to blind signing off when a contract call is refused for it', async () => {
    emulator.blindSigning = false;
    try {
      const refused = await sendBuy('0.05', 'Off again');
      expect(refused.error?.code).toBe('LEDGER_BLIND_SIGNING_DISABLED');
      expect((await call('signer.status')).result).toMatchObject({ ledgerApp: { blindSigning: false } });
    } finally {
      emulator.blindSigning = true;
    }
  });

  it(`refuses a message the Ledger cannot take (over ${LEDGER_MAX_MESSAGE_BYTES} bytes) before sending it`, async () => {
    const before = emulator.receivedFor(0x08).length;
    // 3,000 characters the channel accepts, 9,000 bytes in UTF-8.
    const refused = await call('message.sign', {
      message: '✓'.repeat(3_000),
      kind: 'register',
      title: 'long',
      confirmedUnknown: true,
    });
    expect(refused.error?.code).toBe('LEDGER_MESSAGE_TOO_LONG');
    expect(emulator.receivedFor(0x08).length).toBe(before);
  });
});
