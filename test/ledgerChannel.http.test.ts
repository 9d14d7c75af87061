import { type Hex, recoverMessageAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { ledgerAccess } from '../src-main/signer/ledger/ledgerAccess';
import { LedgerEmulator } from './support/ledgerEmulator';
import { startTradingFixture, type TradingFixture } from './support/tradingFixture';

const TOKEN = 'ledger-channel-token-0123456789';
const emulator = new LedgerEmulator();
// The emulator holds the test mnemonic: the legacy path's account 11 is test account 11.
const ACCOUNT = testAccounts()[11] as TestAccount;
const PATH = "44'/60'/0'/0/11";

let f: TradingFixture;

beforeAll(async () => {
  f = await startTradingFixture({ appToken: TOKEN, ledger: ledgerAccess(async () => emulator) });
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
  return (await response.json()) as { result?: any; error?: { code: string } };
}

describe('the app signing with a Ledger (an emulated device speaking the Ethereum app APDUs)', () => {
  it('lists accounts on a path, signs a challenge and a trade, and the devnet accepts the trade', async () => {
    const listed = await call('ledger.addresses', { template: 'legacy', from: 10, count: 2 });
    expect(listed.result.map((a: { path: string }) => a.path)).toEqual(["44'/60'/0'/0/10", PATH]);
    expect(listed.result[1].address).toBe(ACCOUNT.address);
    expect((await call('ledger.use', { path: PATH })).result).toMatchObject({
      active: 'ledger',
      address: ACCOUNT.address,
    });

    const signed = await call('message.sign', { message: 'Launchpad Companion: hello', kind: 'register', title: 'x' });
    expect(
      await recoverMessageAddress({ message: 'Launchpad Companion: hello', signature: signed.result.signature as Hex }),
    ).toBe(ACCOUNT.address);

    const buy = (await (
      await fetch(`${f.service.url}/build/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallet: ACCOUNT.address, token: f.bnbToken.token, amount: '0.1' }),
      })
    ).json()) as { tx: Record<string, unknown> };
    const sent = await call('tx.send', { tx: buy.tx, step: 'main', kind: 'buy', title: 'Buy with the Ledger' });
    const settled = await call('tx.wait', { id: sent.result.id });
    expect(settled.result.status).toBe('confirmed');
    const receipt = await f.client.getTransactionReceipt({ hash: sent.result.hash });
    expect(receipt.from).toBe(ACCOUNT.address.toLowerCase());
    // The trade's call data went to the device in more than one chunk.
    expect(emulator.receivedFor(0x04).length).toBeGreaterThan(1);
  });

  it.each([
    ['locked', 'LEDGER_LOCKED'],
    ['app-not-open', 'LEDGER_APP_NOT_OPEN'],
    ['reject-next', 'LEDGER_REJECTED'],
    ['disconnected', 'LEDGER_DISCONNECTED'],
  ] as const)('answers a %s device with %s, and records the refusal in the activity list', async (state, code) => {
    emulator.state = state;
    try {
      const refused = await call('message.sign', {
        message: 'Launchpad Companion: again',
        kind: 'register',
        title: state,
      });
      expect(refused.error?.code).toBe(code);
    } finally {
      emulator.state = 'ready';
    }
    const [latest] = (await call('activity.list', { limit: 1 })).result;
    expect(latest).toMatchObject({ title: state, status: 'failed' });
  });
});
