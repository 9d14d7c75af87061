import { type Address, parseEther, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;
let s: ServiceDrivers;
let token: Address;
let pool: Address;

const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
const USER = 6;

beforeAll(async () => {
  service = await startTestService();
  s = await serviceDrivers(service);
  const launched = await s.launcher.launch({ creator: 2, saltSeed: 'intents' });
  if (launched.result !== 'ok' || !launched.pool) throw new Error(`launch failed: ${launched.result}`);
  token = launched.token;
  pool = launched.pool;
});
afterAll(async () => {
  await service?.dispose();
});

const prepareBuy = (extra: Record<string, unknown> = {}) =>
  s.api.post('/intents', { kind: 'prepare_buy', wallet: account(USER).address, token, amount: '0.05', ...extra });

describe('prepared requests', () => {
  it('goes from pending to built, sent and confirmed as the app builds, signs and reports it', async () => {
    const created = await prepareBuy();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'prepare_buy',
      wallet: account(USER).address,
      state: 'pending',
      build: null,
      tx: null,
    });
    const { id } = created.body;
    expect(id).toMatch(/^int_[0-9a-f]{24}$/);
    const listed = await s.api.get(`/intents?wallet=${account(USER).address}&state=pending`);
    expect(listed.body.intents.map((i: { id: string }) => i.id)).toContain(id);

    const built = await s.api.post(`/intents/${id}/build`, {});
    expect(built.status).toBe(200);
    expect(built.body.state).toBe('built');
    expect(built.body.build).toMatchObject({ side: 'buy', wallet: account(USER).address, requires: [] });
    const receipt = await s.api.signAndSend(USER, built.body.build.tx);
    const sent = await s.api.post(`/intents/${id}/sent`, { hash: receipt.transactionHash });
    expect(sent.status).toBe(200);
    // The devnet mines at once, so the report already finds the receipt.
    expect(sent.body).toMatchObject({
      state: 'confirmed',
      tx: { hash: receipt.transactionHash, block: Number(receipt.blockNumber) },
    });
    expect((await s.api.get(`/intents/${id}`)).body.state).toBe('confirmed');
    // The same hash again changes nothing; another one is ALREADY_SENT with the first in detail.tx.
    expect((await s.api.post(`/intents/${id}/sent`, { hash: receipt.transactionHash })).status).toBe(200);
    const other = await s.api.post(`/intents/${id}/sent`, { hash: `0x${'ab'.repeat(32)}` });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'ALREADY_SENT', detail: { tx: receipt.transactionHash } });
    expect((await s.api.post(`/intents/${id}/build`, {})).body.error.code).toBe('ALREADY_SENT');
  });

  it('checks a reported hash on chain: format, seen, sender and contract', async () => {
    const { id } = (await prepareBuy()).body;
    const bad = await s.api.post(`/intents/${id}/sent`, { hash: '0x1234' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_HASH');
    const unseen = await s.api.post(`/intents/${id}/sent`, { hash: `0x${'cd'.repeat(32)}` });
    expect(unseen.status).toBe(409);
    expect(unseen.body.error.code).toBe('NOT_SEEN_YET');
    // A trade of the router, but by another wallet.
    const foreign = await s.driver.trade(
      7,
      'buyExactIn',
      s.driver.params({ token, pair: s.contracts.wbnb as Address, pool }, parseEther('0.01'), 0n),
      parseEther('0.01'),
    );
    const wrongSender = await s.api.post(`/intents/${id}/sent`, { hash: foreign.hash });
    expect(wrongSender.body.error.code).toBe('WRONG_SENDER');
    // The user's wallet, but a plain transfer rather than a trade of ours.
    const transfer = await s.api.signAndSend(USER, { to: account(8).address, data: '0x', value: '1' });
    const wrongContract = await s.api.post(`/intents/${id}/sent`, { hash: transfer.transactionHash });
    expect(wrongContract.status).toBe(400);
    expect(wrongContract.body.error.code).toBe('WRONG_CONTRACT');
    expect((await s.api.get(`/intents/${id}`)).body.state).toBe('pending');
  });

  it("builds a bot's request with its API key's wallet as the default referrer, as the build endpoint would", async () => {
    const signed = async (path: string) => {
      const challenge = await s.api.get(`${path}?address=${account(3).address}`);
      return {
        nonce: challenge.body.nonce,
        signature: await account(3).signMessage({ message: challenge.body.message }),
      };
    };
    expect((await s.api.post('/referrals/register', await signed('/referrals/challenge'))).status).toBe(200);
    const key = (await s.api.post('/keys', { ...(await signed('/keys/challenge')), label: 'bot' })).body.key;
    const created = await fetch(`${service.url}/intents`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'prepare_buy', wallet: account(USER).address, token, amount: '0.05' }),
    }).then((r) => r.json() as Promise<any>);
    expect(created.keyWallet).toBe(account(3).address);
    // The app builds it without the key: the request remembers whose key made it.
    const built = await s.api.post(`/intents/${created.id}/build`, {});
    expect(built.body.build.referrer, built.body.build.referrerNote).toEqual({ address: account(3).address, bps: 20 });
  });

  it('records a rejection, and refuses an unknown kind or id', async () => {
    const { id } = (await prepareBuy()).body;
    const rejected = await s.api.post(`/intents/${id}/reject`, { reason: 'not today' });
    expect(rejected.body).toMatchObject({ state: 'failed', reason: 'rejected by the user: not today' });
    const kind = await s.api.post('/intents', { kind: 'prepare_swap', wallet: account(USER).address });
    expect(kind.status).toBe(400);
    expect(kind.body.error).toMatchObject({ code: 'INVALID_KIND', field: 'kind' });
    expect((await s.api.post('/intents', { kind: 'prepare_sell', wallet: 'me' })).body.error.code).toBe(
      'INVALID_ADDRESS',
    );
    for (const id of ['int_nope', `int_${'0'.repeat(24)}`]) {
      const unknown = await s.api.get(`/intents/${id}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('UNKNOWN_INTENT');
    }
  });

  it("builds with the matching build's errors, leaving the request pending", async () => {
    const { id } = (await prepareBuy({ token: zeroAddress })).body;
    const failed = await s.api.post(`/intents/${id}/build`, {});
    expect(failed.body.error.code).toBe('UNKNOWN_TOKEN');
    expect((await s.api.get(`/intents/${id}`)).body.state).toBe('pending');
  });

  it('prepares a launch, built like POST /build/launch', async () => {
    const upload = await fetch(`${service.url}/media/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    const image = ((await upload.json()) as { uri: string }).uri;
    const { id } = (
      await s.api.post('/intents', {
        kind: 'prepare_launch',
        wallet: account(USER).address,
        name: 'Prepared',
        symbol: 'PREP',
        marketCapPair: '30',
        image,
      })
    ).body;
    const built = await s.api.post(`/intents/${id}/build`, {});
    expect(built.status).toBe(200);
    expect(built.body.build).toMatchObject({ name: 'Prepared', symbol: 'PREP', wallet: account(USER).address });
    const receipt = await s.api.signAndSend(USER, built.body.build.tx);
    const sent = await s.api.post(`/intents/${id}/sent`, { hash: receipt.transactionHash });
    expect(sent.body.state).toBe('confirmed');
  });
});
