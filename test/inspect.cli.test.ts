import { execFile } from 'node:child_process';
import dns from 'node:dns';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Address, decodeFunctionData, encodeFunctionData, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInspectCommand } from '../scripts/inspectCommand';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { tradeRouterAbi } from '../src-shared/generated/abis';
import { devnetKnownContracts } from '../src-shared/inspect/devnetContracts';
import { apiClient } from './support/apiClient';
import { FIXTURE_TRADER, startTradingFixture } from './support/tradingFixture';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** A 1x1 PNG, the launch's logo. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/**
 * Loaded into the CLI's process (the one run through the terminal wrapper): any TCP connection, DNS lookup or fetch
 * throws, so a CLI that reached for the network would fail its run. Unix sockets stay allowed (tsx talks to its
 * child over one).
 */
const NO_NETWORK = `
import dns from 'node:dns';
import net from 'node:net';
const refuse = (what) => { throw new Error('the inspector tried the network: ' + what); };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const path = typeof first === 'string' ? first : first && typeof first === 'object' ? first.path : undefined;
  if (typeof path !== 'string' || path === '' || /^\\d+$/.test(path)) refuse(JSON.stringify(first));
  return connect.apply(this, args);
};
dns.lookup = () => refuse('dns');
globalThis.fetch = () => refuse('fetch');
`;

interface Builds {
  settings: any;
  buy: any;
  sell: any;
  launch: any;
}

let dir: string;
let noDeployments: string;
let builds: Builds;
const address = (index: number) => testAccounts()[index]?.address as Address;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'inspect-cli-'));
  noDeployments = join(dir, 'no-deployments');
  writeFileSync(join(dir, 'noNetwork.mjs'), NO_NETWORK);
  const images: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(PNG);
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  const f = await startTradingFixture();
  try {
    const api = apiClient(f.service);
    const ok = async (path: string, body?: unknown) => {
      const answer = body === undefined ? await api.get(path) : await api.post(path, body);
      if (answer.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    builds = {
      settings: await ok('/settings'),
      buy: await ok('/build/buy', {
        wallet: address(7),
        token: f.bnbToken.token,
        amount: '0.5',
        referrer: f.bnbToken.creator,
      }),
      // The fixture's trader bought with BNB and never approved the token: its sale needs both approvals.
      sell: await ok('/build/sell', {
        wallet: address(FIXTURE_TRADER),
        token: f.bnbToken.token,
        amount: '1000',
        referrer: null,
      }),
      launch: await ok('/build/launch', {
        wallet: address(5),
        name: 'Inspect Cat',
        symbol: 'ICAT',
        marketCapPair: '25',
        image: `http://127.0.0.1:${(images.address() as AddressInfo).port}/logo.png`,
        firstBuy: '0.2',
        firstBuyTo: [
          { wallet: address(8), pct: 60 },
          { wallet: address(5), pct: 40 },
        ],
      }),
    };
  } finally {
    // Every inspection below runs with the service and the image server gone.
    await f.service.dispose();
    images.close();
  }
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the inspector in this process on a JSON value written to a file, with the network refused. */
function inspect(json: unknown, ...args: string[]): Promise<Run> {
  const file = join(dir, `input-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  return runInProcess([file, ...args]);
}

/**
 * The command is synchronous: for the length of its run any TCP connection, DNS lookup or fetch throws, so an
 * inspector that reached for the network fails its run.
 */
async function runInProcess(args: string[], stdin?: string): Promise<Run> {
  const refuse = (what: string) => () => {
    throw new Error(`the inspector tried the network: ${what}`);
  };
  const saved = { connect: net.Socket.prototype.connect, lookup: dns.lookup, fetch: globalThis.fetch };
  net.Socket.prototype.connect = refuse('connect') as never;
  dns.lookup = refuse('dns') as never;
  globalThis.fetch = refuse('fetch') as never;
  let stdout = '';
  let stderr = '';
  try {
    const code = runInspectCommand(args, {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      readStdin: () => {
        if (stdin === undefined) throw new Error('no input on stdin');
        return stdin;
      },
      cwd: root,
      now: () => Math.floor(Date.now() / 1000),
    });
    return { code, stdout, stderr };
  } finally {
    net.Socket.prototype.connect = saved.connect;
    dns.lookup = saved.lookup;
    globalThis.fetch = saved.fetch;
  }
}

/** Runs `npx tsx scripts/inspect.ts` on the terminal's streams, as a person does, with the network refused. */
function runCli(args: string[], stdin?: string): Promise<Run> {
  const preload = `--import ${pathToFileURL(join(dir, 'noNetwork.mjs')).href}`;
  return new Promise((resolve) => {
    const child = execFile(
      'npx',
      ['tsx', 'scripts/inspect.ts', ...args],
      { cwd: root, env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${preload}`.trim() } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** A build with one field of its main transaction replaced. */
function withTx<T extends { tx: Record<string, unknown> }>(build: T, change: Record<string, unknown>): T {
  return { ...build, tx: { ...build.tx, ...change } };
}

/** The call data with one byte of an address it holds changed. */
function flipByteOf(data: Hex, who: Address): Hex {
  const at = data.toLowerCase().indexOf(who.slice(2).toLowerCase());
  if (at < 0) throw new Error(`${who} is not in the data`);
  const byte = (Number.parseInt(data.slice(at + 38, at + 40), 16) ^ 0x01).toString(16).padStart(2, '0');
  return `${data.slice(0, at + 38)}${byte}${data.slice(at + 40)}` as Hex;
}

/** A trade's call data with its limit moved by `delta` wei. */
function moveLimit(data: Hex, delta: bigint): Hex {
  const { functionName, args } = decodeFunctionData({ abi: tradeRouterAbi, data });
  const [trade] = args as unknown as [Record<string, bigint>];
  return encodeFunctionData({
    abi: tradeRouterAbi,
    functionName,
    args: [{ ...trade, limit: (trade.limit as bigint) + delta }],
  } as never);
}

const expectFailed = (run: Run, id: string) => {
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toContain(`✗ ${id}:`);
  expect(run.stdout).toContain('NOT OK');
};

describe('npm run inspect', () => {
  it('computes the devnet contracts offline exactly as the running devnet announces them', () => {
    const { known, tokens } = devnetKnownContracts();
    const { contracts } = builds.settings;
    expect(known).toEqual({
      chainId: builds.settings.chainId,
      factory: contracts.factory,
      router: contracts.router,
      permit2: contracts.permit2,
      referrals: contracts.referrals,
      wbnb: contracts.wbnb,
      siteFeeRecipient: contracts.siteFeeRecipient,
    });
    expect(Object.keys(tokens)).toEqual([contracts.usdt]);
  });

  it('passes the real builds, offline and with saved settings, naming the function and the amounts', async () => {
    const settingsFile = join(dir, 'settings.json');
    writeFileSync(settingsFile, JSON.stringify(builds.settings));
    for (const extra of [
      ['--deployments', noDeployments],
      ['--settings', settingsFile],
    ]) {
      const buy = await inspect(builds.buy, ...extra);
      expect(buy.code, buy.stdout + buy.stderr).toBe(0);
      expect(buy.stdout).toContain('function: buyExactIn');
      expect(buy.stdout).toContain('amount: pays exactly 0.5 BNB');
      expect(buy.stdout).toContain(`receives at least ${builds.buy.limit.amount} MCAT`);
      expect(buy.stdout).toContain(`referrer: ${builds.buy.referrer.address}`);
      expect(buy.stdout).toContain('value: 0.5 BNB');
      expect(buy.stdout).toContain('✓ amount-within-limit');
      expect(buy.stdout).toMatch(/OK: all \d+ checks pass/);
    }

    const sell = await inspect(builds.sell, '--deployments', noDeployments);
    expect(sell.code, sell.stdout + sell.stderr).toBe(0);
    expect(sell.stdout).toContain('Step 1 of 1: approve-router');
    expect(sell.stdout).not.toContain('approve-permit2');
    expect(sell.stdout).toContain('function: sellExactIn');
    expect(sell.stdout).toContain('amount: pays exactly 1000 MCAT');
    expect(sell.stdout).toContain(`receives at least ${builds.sell.limit.amount} BNB`);
    expect(sell.stdout).toContain('✓ spender-known');

    const launch = await inspect(builds.launch, '--deployments', noDeployments);
    expect(launch.code, launch.stdout + launch.stderr).toBe(0);
    expect(launch.stdout).toContain('function: launch');
    expect(launch.stdout).toContain('firstBuy: 0.2 BNB');
    expect(launch.stdout).toContain('supply: 1000000000 ICAT');
    expect(launch.stdout).toContain('✓ recipients-match');
  });

  it('reads a build from stdin', async () => {
    const run = await runInProcess(['-', '--deployments', noDeployments], JSON.stringify(builds.buy));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('function: buyExactIn');
  });

  it('runs on the terminal: reads stdin, prints the report and exits with its status, offline', async () => {
    const passed = await runCli(['-', '--deployments', noDeployments], JSON.stringify(builds.buy));
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toContain('function: buyExactIn');
    expect(passed.stdout).toMatch(/OK: all \d+ checks pass/);
    const tampered = withTx(builds.buy, { value: (BigInt(builds.buy.tx.value) + 1n).toString() });
    const failed = await runCli(['-', '--deployments', noDeployments], JSON.stringify(tampered));
    expectFailed(failed, 'value-matches');
    const unreadable = await runCli(['-'], 'not json');
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('the input - is not JSON');
  });

  it('fails the check of each tamper and exits 1', async () => {
    const { buy, sell, launch, settings } = builds;
    const cases: [string, unknown, string][] = [
      // A trade names no recipient (the router pays the sender); the address it pays a cut to is the referrer.
      ['referrer byte', withTx(buy, { data: flipByteOf(buy.tx.data, buy.referrer.address) }), 'referrer-matches'],
      [
        'first-buy recipient byte',
        withTx(launch, { data: flipByteOf(launch.tx.data, address(8)) }),
        'recipients-match',
      ],
      ['buy minOut lowered', withTx(buy, { data: moveLimit(buy.tx.data, -1n) }), 'amount-within-limit'],
      ['sell minOut lowered', withTx(sell, { data: moveLimit(sell.tx.data, -1n) }), 'amount-within-limit'],
      ['buy value', withTx(buy, { value: (BigInt(buy.tx.value) + 1n).toString() }), 'value-matches'],
      ['launch value', withTx(launch, { value: '0' }), 'value-matches'],
      ['chainId', withTx(buy, { chainId: 56 }), 'chain-id'],
      ['to', withTx(buy, { to: settings.contracts.factory }), 'to-known'],
      [
        'step spender',
        {
          ...sell,
          requires: sell.requires.map((step: any, i: number) =>
            i === 0 ? { ...step, tx: { ...step.tx, data: flipByteOf(step.tx.data, settings.contracts.router) } } : step,
          ),
        },
        'spender-known',
      ],
    ];
    for (const [name, json, id] of cases) {
      const run = await inspect(json, '--deployments', noDeployments);
      expect(run.stdout, name).toContain(`✗ ${id}:`);
      expectFailed(run, id);
    }
    // With the saved settings too, a changed chain fails its check.
    const settingsFile = join(dir, 'settings-chain.json');
    writeFileSync(settingsFile, JSON.stringify(settings));
    expectFailed(await inspect(withTx(buy, { chainId: 97 }), '--settings', settingsFile), 'chain-id');
  });

  it('exits 2 on input it cannot read', async () => {
    for (const input of ['not json', '{}', '[1, 2]', JSON.stringify({ ...builds.buy, tx: { to: 'x' } })]) {
      const run = await inspect(input, '--deployments', noDeployments);
      expect(run.code, input).toBe(2);
    }
    const missing = await runInProcess([join(dir, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot be read');
    const nothing = await runInProcess([]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('usage: npm run inspect');
    const badSettings = join(dir, 'bad-settings.json');
    writeFileSync(badSettings, '{"chainId": 31337}');
    expect((await inspect(builds.buy, '--settings', badSettings)).code).toBe(2);
  });
});
