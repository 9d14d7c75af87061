import {
  type Address,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  http,
  maxUint160,
  parseEther,
} from 'viem';
import { privateKeyToAccount, toAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../../../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../../../src-main/chain/networks';
import { allowanceTransferAbi, launchFactoryAbi, tradeRouterAbi } from '../../../src-shared/generated/abis';
import { startTradingFixture, type TradingFixture } from '../../../test/support/tradingFixture';
import { CompanionError } from '../src/companionError';
import { type Companion, createCompanion } from '../src/createCompanion';
import { type StandIn, startStandIn } from './standInService';

// The client checks every build against what it asked before signing, with the review's own checks: a stand-in
// service between the bot and the real one changes one thing of each build, and each change is refused, naming the
// field, with nothing signed and nothing sent; the build passed on unchanged is signed and sent.

const TRADER = 7;
const LAUNCHER = 9;
const ATTACKER = '0x00000000000000000000000000000000000a77ac' as Address;
const FIVE_BNB = parseEther('5').toString();

let fixture: TradingFixture;
let standIn: StandIn;
let companion: Companion;
let signatures = 0;

beforeAll(async () => {
  fixture = await startTradingFixture({ rateLimits: false });
  standIn = await startStandIn(fixture.service.origin);
  companion = createCompanion({ baseUrl: standIn.url });
});
afterAll(async () => {
  await standIn?.close();
  await fixture?.service.dispose();
});

/** A wallet of the test account whose every signature is counted. */
function walletOf(index: number) {
  const key = privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
  const account = toAccount({
    address: key.address,
    signMessage: (args) => key.signMessage(args),
    signTypedData: (args) => key.signTypedData(args),
    signTransaction: (tx, options) => {
      signatures++;
      return key.signTransaction(tx, options);
    },
  });
  return createWalletClient({ account, chain: devnetChain, transport: http(`${fixture.service.origin}/rpc`) });
}

const nonceOf = (address: Address) => fixture.client.getTransactionCount({ address, blockTag: 'pending' });

type Json = Record<string, any>;

/** Rewrites the trade call's parameters (and, when given, its function), as a tampering service would. */
function withTrade(build: Json, change: (params: Json) => void, functionName?: string): Json {
  const { functionName: found, args } = decodeFunctionData({ abi: tradeRouterAbi, data: build.tx.data as Hex });
  const params = { ...(args?.[0] as Json) };
  change(params);
  build.tx.data = encodeFunctionData({
    abi: tradeRouterAbi,
    functionName: (functionName ?? found) as never,
    args: [params] as never,
  });
  return build;
}

function withLaunch(build: Json, change: (params: Json) => void): Json {
  const { args } = decodeFunctionData({ abi: launchFactoryAbi, data: build.tx.data as Hex });
  const params = { ...(args?.[0] as Json) };
  change(params);
  build.tx.data = encodeFunctionData({ abi: launchFactoryAbi, functionName: 'launch', args: [params] as never });
  return build;
}

/** Builds answered on `path` are changed by `change`; every other answer passes as it is. */
const onBuild = (path: string, change: (build: Json) => Json) => (answered: string, body: unknown) =>
  answered.endsWith(path) ? change(body as Json) : body;

/** Sends through the stand-in, as altered; answers what the client threw. */
async function refused(send: () => Promise<unknown>, wallet: Address): Promise<CompanionError> {
  const nonce = await nonceOf(wallet);
  const before = signatures;
  const error = await send().then(
    () => new Error('the altered build was sent'),
    (e: unknown) => e,
  );
  expect(signatures, 'a signature was made').toBe(before);
  expect(await nonceOf(wallet), 'a transaction was sent').toBe(nonce);
  expect(error).toBeInstanceOf(CompanionError);
  return error as CompanionError;
}

describe('a buy', () => {
  const wallet = () => walletOf(TRADER).account.address;
  const body = () => ({ wallet: wallet(), token: fixture.bnbToken.token, amount: '0.05', slippageBps: 300 });
  const send = () => companion.sendBuy(body(), { walletClient: walletOf(TRADER), publicClient: fixture.client });

  it('passed on unchanged, is checked, signed and sent', async () => {
    standIn.alter = null;
    const before = signatures;
    const sent = await send();
    expect(sent.receipt.status).toBe('success');
    expect(signatures - before).toBe(1);
  });

  // What each alteration changes, and the field the refusal names.
  const alterations: [string, string, (build: Json) => Json][] = [
    ['sends 5 BNB instead of 0.05', 'value', (b) => ({ ...b, tx: { ...b.tx, value: FIVE_BNB } })],
    [
      'is a plain transfer of 5 BNB to another wallet',
      'contract',
      (b) => ({ ...b, tx: { ...b.tx, to: ATTACKER, data: '0x', value: FIVE_BNB } }),
    ],
    ['is for another wallet', 'wallet', (b) => ({ ...b, wallet: ATTACKER })],
    ['names a referrer in the call only', 'referrer', (b) => withTrade(b, (p) => (p.referrer = ATTACKER))],
    [
      'names a referrer nobody asked for, in the call and the claims',
      'referrer',
      (b) => withTrade({ ...b, referrer: { address: ATTACKER, bps: 10 } }, (p) => (p.referrer = ATTACKER)),
    ],
    [
      'buys another token',
      'token',
      (b) =>
        withTrade(
          { ...b, token: { ...b.token, address: fixture.usdtToken.token } },
          (p) => (p.token = fixture.usdtToken.token),
        ),
    ],
    ['calls another function', 'function', (b) => withTrade(b, () => {}, 'buyExactOut')],
    ['accepts any fill in the call', 'limit', (b) => withTrade(b, (p) => (p.limit = 0n))],
    [
      'accepts any fill in the call and the claims',
      'limit',
      (b) => withTrade({ ...b, limit: { ...b.limit, wei: '0', amount: '0' } }, (p) => (p.limit = 0n)),
    ],
    [
      'pays 5 BNB, in the call, the value and the claims',
      'amount',
      (b) =>
        withTrade(
          { ...b, pay: { ...b.pay, wei: FIVE_BNB, amount: '5' }, tx: { ...b.tx, value: FIVE_BNB } },
          (p) => (p.amount = parseEther('5')),
        ),
    ],
    ['is for another chain', 'chainId', (b) => ({ ...b, tx: { ...b.tx, chainId: 56 } })],
    ['goes to another of the contracts', 'contract', (b) => ({ ...b, tx: { ...b.tx, to: fixture.contracts.factory } })],
    [
      'adds an approval of the bot’s WBNB to another spender',
      'requires',
      (b) => ({
        ...b,
        requires: [
          {
            step: 'approve-router',
            explain: 'Let the router spend your tokens.',
            tx: {
              chainId: b.tx.chainId,
              to: fixture.contracts.permit2,
              data: encodeFunctionData({
                abi: allowanceTransferAbi,
                functionName: 'approve',
                args: [fixture.contracts.wbnb as Address, ATTACKER, maxUint160, 2 ** 40],
              }),
              value: '0',
            },
          },
        ],
      }),
    ],
    ['sells instead of buying, in the claims', 'side', (b) => ({ ...b, side: 'sell' })],
    ['runs until far in the future', 'deadline', (b) => withTrade(b, (p) => (p.deadline += 10n * 365n * 86_400n))],
    ['claims a looser slippage', 'limit', (b) => ({ ...b, slippageBps: 5000 })],
  ];

  for (const [what, field, change] of alterations) {
    it(`that ${what} is refused before signing: BUILD_MISMATCH on ${field}`, async () => {
      standIn.alter = onBuild('/build/buy', (b) => change(structuredClone(b)));
      const error = await refused(send, wallet());
      expect({ code: error.code, field: error.field }).toEqual({ code: 'BUILD_MISMATCH', field });
      expect(error.retry).toBe(false);
      expect(error.fix).toBeTruthy();
    });
  }
});

describe('a first sell, with its approval step', () => {
  const wallet = () => walletOf(TRADER).account.address;
  const body = () => ({ wallet: wallet(), token: fixture.bnbToken.token, amount: '100' });
  const send = () => companion.sendSell(body(), { walletClient: walletOf(TRADER), publicClient: fixture.client });

  it('whose approval names another spender is refused before the approval is signed', async () => {
    standIn.alter = onBuild('/build/sell', (b) => {
      const step = b.requires[0];
      if (!step) throw new Error('the first sell asked for no approval');
      const { args } = decodeFunctionData({ abi: allowanceTransferAbi, data: step.tx.data as Hex });
      const [token, , amount, expiration] = args as readonly [Address, Address, bigint, number];
      step.tx.data = encodeFunctionData({
        abi: allowanceTransferAbi,
        functionName: 'approve',
        args: [token, ATTACKER, amount, expiration],
      });
      return b;
    });
    const error = await refused(send, wallet());
    expect(error).toMatchObject({ code: 'BUILD_MISMATCH', field: 'spender' });
  });

  it('passed on unchanged, sends the approval, builds again and sells', async () => {
    standIn.alter = null;
    const sent = await send();
    expect(sent.steps.map((step) => step.step)).toEqual(['approve-router']);
    expect(sent.receipt.status).toBe('success');
  });
});

describe('a launch', () => {
  const wallet = () => walletOf(LAUNCHER).account.address;
  let image: string;
  beforeAll(async () => {
    const upload = await fetch(`${fixture.service.url}/media/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    image = ((await upload.json()) as { uri: string }).uri;
  });
  let n = 0;
  const send = () => {
    n++;
    return companion.sendLaunch(
      { wallet: wallet(), name: `Checked ${n}`, symbol: `CHK${n}`, marketCapPair: '25', image, firstBuy: '0.1' },
      { walletClient: walletOf(LAUNCHER), publicClient: fixture.client },
    );
  };

  it('whose first buy goes to another wallet is refused: recipient', async () => {
    standIn.alter = onBuild('/build/launch', (b) =>
      withLaunch(b, (p) => (p.firstBuyTo = [{ wallet: ATTACKER, bps: 10_000 }])),
    );
    expect(await refused(send, wallet())).toMatchObject({ code: 'BUILD_MISMATCH', field: 'recipient' });
  });

  it('whose royalty goes to another wallet is refused: royaltyTo', async () => {
    standIn.alter = onBuild('/build/launch', (b) => withLaunch(b, (p) => (p.royaltyTo = ATTACKER)));
    expect(await refused(send, wallet())).toMatchObject({ code: 'BUILD_MISMATCH', field: 'royaltyTo' });
  });

  it('whose first buy is ten times larger is refused: amount', async () => {
    standIn.alter = onBuild('/build/launch', (b) =>
      withLaunch({ ...b, tx: { ...b.tx, value: (BigInt(b.tx.value) + parseEther('0.9')).toString() } }, (p) => {
        p.firstBuy = parseEther('1');
      }),
    );
    expect(await refused(send, wallet())).toMatchObject({ code: 'BUILD_MISMATCH', field: 'amount' });
  });

  it('passed on unchanged, is signed and sent', async () => {
    standIn.alter = null;
    const sent = await send();
    expect(sent.receipt.status).toBe('success');
  });
});
