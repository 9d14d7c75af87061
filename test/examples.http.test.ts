import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hash,
  http,
  type PublicClient,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCompanion } from '../clients/ts/src/index';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../src-main/chain/networks';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

/*
 * The example bots of examples/, each run as its README command runs it (node with tsx, in its own process) against
 * the real service on the devnet, with the chain moved by other wallets as a market would move it.
 */

const APP_TOKEN = 'examples-test-app-token-000000000000';
const asApp = { 'x-app-token': APP_TOKEN };
const ROOT = join(import.meta.dirname, '..');
/** The test accounts the examples sign with on the devnet when no BOT_KEY is given. */
const SNIPER = 12;
const SELLER = 13;
const LAUNCHER = 11;
const PERSON = 6;

let service: TestService;
let s: ServiceDrivers;
const running: ChildProcess[] = [];

beforeAll(async () => {
  service = await startTestService(undefined, { appToken: APP_TOKEN });
  s = await serviceDrivers(service);
});
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await service?.dispose();
});

interface Example {
  /** Every line printed so far, stdout and stderr. */
  lines: string[];
  /** Resolves with the first line `pattern` matches. */
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exit: Promise<number | null>;
}

function runExample(name: string, args: string[], url = service.url): Example & { child: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', join('examples', `${name}.ts`), ...args], {
    cwd: ROOT,
    env: { ...process.env, COMPANION_URL: url, BOT_KEY: '', COMPANION_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
    });
  }
  // A bot that does not exit fails with what it printed, rather than hanging the test.
  const exit = new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not exit:\n${lines.join('\n')}`)), 45_000);
    timer.unref();
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  exit.catch(() => {});
  const line = (pattern: RegExp, timeoutMs = 30_000) =>
    vi.waitFor(
      () => {
        for (const text of lines) {
          const match = pattern.exec(text);
          if (match) return match;
        }
        throw new Error(`no line matches ${pattern} yet:\n${lines.join('\n')}`);
      },
      { timeout: timeoutMs, interval: 20 },
    );
  return { lines, line, exit, child };
}

const address = (index: number) => testAccounts()[index]?.address as Address;

let count = 0;
async function launch(): Promise<{ token: Address; pool: Address; symbol: string }> {
  const n = ++count;
  const symbol = `BOT${n}`;
  const result = await s.launcher.launch({ creator: 2, saltSeed: `examples-${n}`, name: `Bot food ${n}`, symbol });
  if (result.result !== 'ok' || !result.pool) throw new Error(`launch failed: ${result.result}`);
  return { token: result.token, pool: result.pool, symbol };
}

async function trade(index: number, side: 'buyExactIn' | 'sellExactIn', token: Address, pool: Address, amount: bigint) {
  const pair = s.contracts.wbnb as Address;
  const params = s.driver.params({ token, pair, pool }, amount, 0n);
  if (side === 'sellExactIn') await s.driver.allowRouter(index, token);
  const traded = await s.driver.trade(index, side, params, side === 'buyExactIn' ? amount : 0n);
  if (traded.result !== 'ok') throw new Error(`${side} failed: ${traded.result}`);
}

const tokenBalance = async (wallet: Address, token: Address) =>
  BigInt((await s.api.get(`/balances?wallet=${wallet}&token=${token}`)).body.token.wei);

describe('the example bots on the devnet', () => {
  it('sniper: hears a launch on the stream, buys it with its own key, and says what it got', async () => {
    const sniper = runExample('sniper', ['--amount', '0.05', '--max-buys', '1']);
    await sniper.line(/^sniper 0x[0-9a-fA-F]{40} on devnet/);
    // What happens before the stream is open is not the sniper's: it starts at the indexed block.
    await sniper.line(/^listening from block \d+/);
    const launched = await launch();
    const bought = await sniper.line(
      new RegExp(`^bought ${launched.symbol} ${launched.token}: .* in tx (0x[0-9a-f]{64})`),
    );
    expect(await sniper.exit).toBe(0);
    const trades = (await s.api.get(`/tokens/${launched.token}/trades`)).body.trades;
    expect(trades.find((t: { tx: Hash }) => t.tx === bought[1])).toMatchObject({
      side: 'buy',
      trader: address(SNIPER),
      pairWei: parseEther('0.05').toString(),
    });
    expect(await tokenBalance(address(SNIPER), launched.token)).toBeGreaterThan(0n);
  });

  it('sniper: buys launches that come one after another, each as it comes, and stops at --max-buys', async () => {
    const sniper = runExample('sniper', ['--amount', '0.01', '--max-buys', '3']);
    await sniper.line(/^sniper 0x[0-9a-fA-F]{40} on devnet: .*at most 3 buys/);
    await sniper.line(/^listening from block \d+/);
    const launched = [await launch(), await launch(), await launch()];
    for (const token of launched) await sniper.line(new RegExp(`^bought ${token.symbol} ${token.token}: `));
    await sniper.line(/^stopped after 3 buys/);
    expect(await sniper.exit).toBe(0);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`sniper: ${signal} stops it cleanly, exit code 0`, async () => {
      const sniper = runExample('sniper', ['--amount', '0.01']);
      // On the devnet with no --max-buys it runs until stopped.
      await sniper.line(/^sniper 0x[0-9a-fA-F]{40} on devnet: .*no limit on buys/);
      await sniper.line(/^listening from block \d+/);
      sniper.child.kill(signal);
      expect(await sniper.exit).toBe(0);
      expect(sniper.lines).toContain('stopped after 0 buys');
    });
  }

  it('sniper: --max-buys 0 is refused with what to give instead, and --help says the rule', async () => {
    const zero = runExample('sniper', ['--max-buys', '0']);
    expect(await zero.exit).toBe(1);
    expect(zero.lines.join('\n')).toMatch(/fix: .*--max-buys unlimited/);
    const help = runExample('sniper', ['--help']);
    expect(await help.exit).toBe(0);
    expect(help.lines.join('\n')).toMatch(/--max-buys N .*\n.*1 anywhere else/);
  });

  it('launcher: launches a token with its own key, waits for it to be listed, and prints it', async () => {
    const launcher = runExample('launcher', ['--name', 'Launcher Cat', '--symbol', 'LCAT', '--first-buy', '0.05']);
    const launched = await launcher.line(
      /^launched LCAT (0x[0-9a-fA-F]{40}) in tx (0x[0-9a-f]{64}) \(block \d+\), first buy 0.05 W?BNB/,
    );
    const listed = await launcher.line(/^listed LCAT (0x[0-9a-fA-F]{40}): creator (0x[0-9a-fA-F]{40})/);
    expect(await launcher.exit).toBe(0);
    expect(listed[1]?.toLowerCase()).toBe(launched[1]?.toLowerCase());
    expect(listed[2]?.toLowerCase()).toBe(address(LAUNCHER).toLowerCase());
    const token = (await s.api.get(`/tokens/${launched[1]}`)).body;
    expect(token).toMatchObject({ symbol: 'LCAT', name: 'Launcher Cat', creator: address(LAUNCHER) });
    expect(await tokenBalance(address(LAUNCHER), launched[1] as Address)).toBeGreaterThan(0n);
  });

  it('seller: sells the whole holding once the quote reaches the take-profit', async () => {
    const launched = await launch();
    await trade(SELLER, 'buyExactIn', launched.token, launched.pool, parseEther('0.2'));
    const seller = runExample('seller', ['--token', launched.token, '--take-profit', '1.2', '--stop-loss', '0.5']);
    await seller.line(/^listening from block \d+/);
    // Another wallet buys a lot: the price, and the holding's worth, go up.
    await trade(9, 'buyExactIn', launched.token, launched.pool, parseEther('3'));
    await seller.line(/^sold on take-profit: .* in tx 0x[0-9a-f]{64}/);
    expect(await seller.exit).toBe(0);
    expect(await tokenBalance(address(SELLER), launched.token)).toBe(0n);
  });

  it('seller: sells on the stop-loss when the price falls', async () => {
    const launched = await launch();
    await trade(10, 'buyExactIn', launched.token, launched.pool, parseEther('3'));
    await trade(SELLER, 'buyExactIn', launched.token, launched.pool, parseEther('0.2'));
    const seller = runExample('seller', ['--token', launched.token, '--take-profit', '2', '--stop-loss', '0.6']);
    await seller.line(/^listening from block \d+/);
    // The big holder sells everything: the price falls under the stop-loss.
    await trade(10, 'sellExactIn', launched.token, launched.pool, await tokenBalance(address(10), launched.token));
    await seller.line(/^sold on stop-loss: /);
    expect(await seller.exit).toBe(0);
    expect(await tokenBalance(address(SELLER), launched.token)).toBe(0n);
  });

  describe('prepared: asks the person to sign, and reports what they did', () => {
    const person = privateKeyToAccount(testAccounts()[PERSON]?.privateKey ?? '0x');
    const call = async (path: string, body?: unknown) => {
      const response = await fetch(`${service.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...asApp, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as any;
    };
    /** The request the bot made, as the app's Requests page sees it. */
    const pendingRequest = async () =>
      vi.waitFor(
        async () => {
          const { intents } = await call(`/intents?wallet=${person.address}&state=pending`);
          if (!intents?.[0]) throw new Error('no request yet');
          return intents[0];
        },
        { timeout: 30_000, interval: 100 },
      );

    it('a request the person signs is reported confirmed, with its transaction', async () => {
      const launched = await launch();
      const bot = runExample('prepared', ['--wallet', person.address, '--token', launched.token, '--amount', '0.05']);
      const prepared = await bot.line(/^prepared (int_[0-9a-f]+): buy 0.05/);
      const request = await pendingRequest();
      expect(request.id).toBe(prepared[1]);
      expect(request.source).toMatchObject({ kind: 'key', key: { label: 'prepared-request example' } });
      // The person reviews and signs in the app: it builds the request, sends it from their wallet, reports the hash.
      const built = await call(`/intents/${request.id}/build`, {});
      const tx = built.build.tx;
      const sendFrom = createWalletClient({
        account: person,
        chain: devnetChain,
        transport: http(`${service.origin}/rpc`),
      });
      const hash = await sendFrom.sendTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        gas: BigInt(tx.gas),
      });
      await call(`/intents/${request.id}/sent`, { hash });
      await bot.line(new RegExp(`^confirmed ${request.id}: tx ${hash}`));
      expect(await bot.exit).toBe(0);
    });

    it('a request the person rejects is reported failed, with their reason', async () => {
      const launched = await launch();
      const bot = runExample('prepared', ['--wallet', person.address, '--token', launched.token, '--amount', '0.05']);
      await bot.line(/^prepared int_/);
      const request = await pendingRequest();
      await call(`/intents/${request.id}/reject`, { reason: 'not this one' });
      await bot.line(new RegExp(`^failed ${request.id}: .*not this one`));
      expect(await bot.exit).toBe(0);
    });
  });
});

describe('the sniper at a block cadence', () => {
  let paced: TestService;
  beforeAll(async () => {
    paced = await startTestService(undefined, { blockTimeMs: 2000 });
  });
  afterAll(async () => {
    await paced?.dispose();
  });

  it('buys three launches of one block at once: no buy waits for another, all land in one block', async () => {
    const sniper = runExample('sniper', ['--amount', '0.01', '--max-buys', '3'], paced.url);
    await sniper.line(/^listening from block \d+/);
    // Three creators launch in the same block: their launches are broadcast, not waited for, before it is made.
    const companion = createCompanion({ baseUrl: paced.url });
    const upload = await fetch(`${paced.url}/media/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    const { uri: image } = (await upload.json()) as { uri: string };
    const transport = http(`${paced.origin}/rpc`);
    const publicClient = createPublicClient({ chain: devnetChain, transport }) as PublicClient;
    // Built first, then signed and sent together just after a block is made: under load a build can take longer
    // than a block, and launches built and sent one by one would then land in different blocks.
    const builds = await Promise.all(
      [2, 3, 4].map(async (creator) => {
        const account = privateKeyToAccount(testAccounts()[creator]?.privateKey ?? '0x');
        const walletClient = createWalletClient({ account, chain: devnetChain, transport });
        const body = {
          wallet: account.address,
          name: `Burst ${creator}`,
          symbol: `BST${creator}`,
          marketCapPair: '30',
          image,
        };
        return { walletClient, account, build: await companion.buildLaunch(body) };
      }),
    );
    await new Promise<void>((resolve) => {
      const stop = paced.chain.onBlock(() => {
        stop();
        resolve();
      });
    });
    const launches = await Promise.all(
      builds.map(async ({ walletClient, account, build }) => ({
        build,
        hash: await walletClient.sendTransaction({
          account,
          chain: devnetChain,
          to: build.tx.to as Address,
          data: build.tx.data as `0x${string}`,
          value: BigInt(build.tx.value),
          ...(build.tx.gas === undefined ? {} : { gas: BigInt(build.tx.gas) }),
        }),
      })),
    );
    const receipts = await Promise.all(launches.map((l) => publicClient.waitForTransactionReceipt({ hash: l.hash })));
    const launchBlocks = new Set(receipts.map((r) => r.blockNumber));
    expect(launchBlocks.size).toBe(1);
    const buyBlocks: bigint[] = [];
    for (const launched of launches) {
      const bought = await sniper.line(
        new RegExp(`^bought ${launched.build.symbol} ${launched.build.token}: .* \\(block (\\d+)`),
      );
      buyBlocks.push(BigInt(bought[1] ?? '0'));
    }
    expect(await sniper.exit).toBe(0);
    // One after another, each buy would wait for the last one's block: three blocks at least.
    expect(new Set(buyBlocks).size).toBe(1);
    expect(buyBlocks[0]).toBeGreaterThan([...launchBlocks][0] ?? 0n);
  });
});
