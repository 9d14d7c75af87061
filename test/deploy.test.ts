import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEther,
  toHex,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeployIo, runDeployCommand } from '../scripts/deployCommand';
import type { DeploymentRecord } from '../scripts/deploymentRecord';
import { ARTIFACTS, DEPLOY_ORDER } from '../scripts/deployPlan';
import { TEST_MNEMONIC, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { ServiceConfig } from '../src-main/chain/generated/contracts';
import { RUNTIME_CODE } from '../src-main/chain/generated/runtimeCode';
import { devnetChain, type ExchangeAddresses } from '../src-main/chain/networks';
import { devnetTestClient } from './support/devnetTestClient';
import { launcher } from './support/launcher';
import { LedgerEmulator } from './support/ledgerEmulator';
import { type PublicRpc, publicRpc } from './support/publicRpc';
import { startTestService, type TestService } from './support/startTestService';

const accounts = testAccounts();
/** The Ethereum app's SIGN instruction. */
const INS_SIGN = 0x04;
let service: TestService;
let client: PublicClient;
let rpcUrl: string;
let dir: string;
/** A saved GET /settings answer: the devnet's exchange for --exchange. */
let exchangeFile: string;
let exchange: ExchangeAddresses;
let stand: PublicRpc | undefined;

beforeAll(async () => {
  service = await startTestService();
  rpcUrl = `${service.origin}/rpc`;
  client = createPublicClient({ chain: devnetChain, transport: http(rpcUrl) }) as PublicClient;
  dir = mkdtempSync(join(tmpdir(), 'companion-deploy-'));
  const settings = await (await fetch(`${service.url}/settings`)).text();
  exchangeFile = join(dir, 'settings.json');
  writeFileSync(exchangeFile, settings);
  const { contracts } = JSON.parse(settings) as { contracts: ExchangeAddresses };
  const { pancakeFactory, poolDeployer, quoter, swapRouter, positionManager, wbnb, usdt, permit2 } = contracts;
  exchange = { pancakeFactory, poolDeployer, quoter, swapRouter, positionManager, wbnb, usdt, permit2 };
});
afterAll(async () => {
  await stand?.close();
  await service?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run deploy`'s script as a child process, as a person would, with `input` typed on its terminal. Answered
 * asynchronously: the service answering the child's RPC calls runs in this process.
 */
function deploy(args: string[], options: { key?: Hex; env?: Record<string, string>; input?: string } = {}) {
  return new Promise<Run>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../scripts/deploy.ts'), ...args],
      {
        env: {
          PATH: process.env.PATH ?? '',
          ...(options.key ? { DEPLOYER_PRIVATE_KEY: options.key } : {}),
          ...options.env,
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdin.end(options.input ?? '');
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The arguments that deploy to this test's devnet, writing to `out`. */
const toDevnet = (out: string, rpc = rpcUrl) => [
  '--network',
  'devnet',
  '--rpc',
  rpc,
  '--exchange',
  exchangeFile,
  '--out',
  join(dir, out),
];

const keyOf = (index: number) => accounts[index]?.privateKey as Hex;
const addressOf = (index: number) => accounts[index]?.address as Address;
const readRecord = (out: string) => JSON.parse(readFileSync(join(dir, out, 'devnet.json'), 'utf8')) as DeploymentRecord;

/** The plan's section of one contract: from its numbered line to the next one. */
function sectionOf(plan: string, name: string): string {
  const start = plan.search(new RegExp(`^\\d\\. ${name},`, 'm'));
  expect(start, `the plan shows ${name}`).toBeGreaterThanOrEqual(0);
  const rest = plan.slice(start + 1);
  const end = rest.search(/^(\d\. |Gas: )/m);
  return rest.slice(0, end);
}

describe('npm run deploy', () => {
  it('deploys to a devnet over HTTP with a local key: plan, receipts, code check, record, working contracts', async () => {
    const run = await deploy([...toDevnet('first'), '--yes'], { key: keyOf(13) });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const deployer = addressOf(13);

    // The plan, before anything was sent: every constructor argument by name, owner, recipient, rates, gas and cost.
    const plan = run.stdout.slice(0, run.stdout.indexOf('--yes was given'));
    expect(plan).not.toMatch(/sent 0x/);
    for (const name of DEPLOY_ORDER) {
      const section = sectionOf(plan, name);
      const creation = ARTIFACTS[name].abi.find((item) => item.type === 'constructor');
      const inputs = creation && 'inputs' in creation ? creation.inputs : [];
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) expect(section).toMatch(new RegExp(`^ +${input.name?.replace(/_$/, '')} +\\S`, 'm'));
    }
    expect(sectionOf(plan, 'ServiceConfig')).toContain(`${deployer} (the deployer, the fee recipient)`);
    expect(sectionOf(plan, 'TradeRouter')).toContain(`${exchange.poolDeployer} (PancakeSwap V3 pool deployer)`);
    expect(sectionOf(plan, 'LaunchFactory')).toContain(`${exchange.pancakeFactory} (PancakeSwap V3 factory)`);
    expect(sectionOf(plan, 'ReferralVault')).toMatch(/config +0x[0-9a-fA-F]{40} \(ServiceConfig, deployed above\)/);
    expect(plan).toContain('1% (100 bps)');
    expect(plan).toContain('0.2% (20 bps)');
    expect(plan).toContain('15% (1500 bps)');
    expect(plan).toContain(`Owner:          ${deployer}`);
    expect(plan).toContain('balance       10,000 BNB');
    expect(plan).toMatch(/^Gas: [\d,]+ in all, at most [\d.,₀-₉]+ gwei per gas: at most [\d.,₀-₉]+ BNB/m);
    expect(plan).toContain("checked: the factory's pools are where our pool init code hash");

    // Progress for each transaction, and the code check passing.
    for (const name of DEPLOY_ORDER) {
      expect(run.stdout).toMatch(new RegExp(`${name}: sent 0x[0-9a-f]{64} \\(nonce \\d+\\)`));
      expect(run.stdout).toMatch(new RegExp(`${name}: mined in block \\d+ at 0x[0-9a-fA-F]{40}`));
      expect(run.stdout).toContain(`${name}: its code on chain is this build`);
    }

    // The record: what connectChain reads, and what a person audits.
    const record = readRecord('first');
    expect(record.network).toBe('devnet');
    expect(record.chainId).toBe(31337);
    expect(record.deployer).toBe(deployer);
    expect(record.owner).toBe(deployer);
    expect(record.exchange).toEqual(exchange);
    expect(record.fees).toEqual({
      feeRecipient: deployer,
      siteFeeBps: 100,
      referrerBps: 20,
      lifetimeReferralBps: 1500,
      launchFeeWei: '0',
    });
    expect(record.compiler.version).toMatch(/^0\.8\.30\+commit/);
    expect(record.transactions).toHaveLength(4);
    const blocks = DEPLOY_ORDER.map((name) => record.contracts[name].block);
    expect(record.fromBlock).toBe(Math.min(...blocks));
    expect(record.config).toBe(record.contracts.ServiceConfig.address);
    expect(record.router).toBe(record.contracts.TradeRouter.address);
    expect(record.factory).toBe(record.contracts.LaunchFactory.address);
    expect(record.referrals).toBe(record.contracts.ReferralVault.address);
    for (const [i, name] of DEPLOY_ORDER.entries()) {
      const entry = record.contracts[name];
      expect(entry.nonce).toBe(i);
      expect(entry.address).toBe(getContractAddress({ from: deployer, nonce: BigInt(i) }));
      expect(entry.transaction).toBe(record.transactions[i]);
      expect(entry.codeHash).toBe(keccak256((await client.getCode({ address: entry.address })) as Hex));
      const receipt = await client.getTransactionReceipt({ hash: entry.transaction });
      expect(Number(receipt.blockNumber)).toBe(entry.block);
    }
    expect(record.contracts.LaunchFactory.constructorArguments).toEqual({
      config: record.config,
      pancakeFactory: exchange.pancakeFactory,
      wbnb: exchange.wbnb,
    });

    // The contracts work: the config answers its owner and fees, and a token launches through the new factory.
    expect(await client.readContract({ address: record.config, abi: ServiceConfig.abi, functionName: 'owner' })).toBe(
      deployer,
    );
    expect(await client.readContract({ address: record.config, abi: ServiceConfig.abi, functionName: 'fees' })).toEqual(
      [100, 20, 1500, deployer],
    );
    const launch = await launcher(
      { accounts, contracts: { factory: record.factory, wbnb: exchange.wbnb }, transport: http(rpcUrl) },
      client,
    ).launch({ creator: 3, firstBuy: parseEther('0.1'), saltSeed: 'deploy-test' });
    expect(launch.result).toBe('ok');
    expect(launch.pool).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('a rerun with --force goes through a stand-in for a public RPC, keeps the old record and takes the next nonces', async () => {
    const key = keyOf(16);
    const first = await deploy([...toDevnet('rerun'), '--yes'], { key });
    expect(first.status).toBe(0);
    const old = readFileSync(join(dir, 'rerun', 'devnet.json'), 'utf8');

    // Receipts null twice after mining, and load-balanced nodes up to two blocks behind (stale nonces, unknown blocks).
    // In this process, to poll every 20 ms rather than the terminal's 500: the stand-in's nodes never catch up.
    stand = await publicRpc(rpcUrl, { nullReceipts: 2, lag: 2 });
    const again = { stdout: '', stderr: '', status: 0 as number | null };
    again.status = await runDeployCommand([...toDevnet('rerun', stand.url), '--yes', '--force'], {
      stdout: (text) => {
        again.stdout += text;
      },
      stderr: (text) => {
        again.stderr += text;
      },
      ask: async () => null,
      env: { DEPLOYER_PRIVATE_KEY: key },
      cwd: dir,
      pollMs: 20,
    });
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    const record = readRecord('rerun');
    expect(DEPLOY_ORDER.map((name) => record.contracts[name].nonce)).toEqual([4, 5, 6, 7]);
    expect(record.config).not.toBe(JSON.parse(old).config);
    expect(stand.counts.calls.get('eth_getTransactionReceipt') ?? 0).toBeGreaterThanOrEqual(4 * 3);
    const backups = readdirSync(join(dir, 'rerun')).filter((file) => file.startsWith('devnet.backup-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, 'rerun', backups[0] as string), 'utf8')).toBe(old);
    expect(again.stdout).toContain(`The previous record was kept as ${join(dir, 'rerun', backups[0] as string)}`);
  });

  it('signs again with the next nonce when another transaction of the deployer took the planned one', async () => {
    const key = keyOf(18);
    const deployer = addressOf(18);
    let stdout = '';
    const io: DeployIo = {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stdout += text;
      },
      // While the person reads the plan, a transaction of the same deployer (another program, a previous run's
      // pending one) is mined with the nonce the plan counted on.
      ask: async () => {
        await fund(deployer, key);
        return 'yes';
      },
      env: { DEPLOYER_PRIVATE_KEY: key },
      cwd: dir,
      pollMs: 20,
    };
    expect(await runDeployCommand(toDevnet('collided'), io)).toBe(0);
    expect(stdout).toContain('1. ServiceConfig, nonce 0,');
    expect(stdout).toContain('ServiceConfig: nonce 0 was already used by another transaction of the deployer');
    const record = readRecord('collided');
    expect(DEPLOY_ORDER.map((name) => record.contracts[name].nonce)).toEqual([1, 2, 3, 4]);
    expect(record.config).toBe(getContractAddress({ from: deployer, nonce: 1n }));
    expect(stdout).toContain(`ServiceConfig: it is at ${record.config}, not at`);
  });

  it('stops at code on chain that is not the build, naming the contract, and writes nothing', async () => {
    const devnet = service.chain.devnet;
    if (!devnet) throw new Error('the test service runs no devnet');
    const deployer = addressOf(14);
    const config = getContractAddress({
      from: deployer,
      nonce: BigInt(await client.getTransactionCount({ address: deployer })),
    });
    const build = RUNTIME_CODE.ServiceConfig?.code as Hex;
    // One byte of logic changed, as if the contract at that address had been compiled from other code.
    const tampered = `${build.slice(0, 200)}${build.slice(200, 202) === '00' ? '01' : '00'}${build.slice(202)}` as Hex;
    // The first block the child makes is ServiceConfig's: its code is replaced before the child can read it.
    const stop = devnet.onBlock(() => {
      stop();
      void devnetTestClient(devnet).setCode({ address: config, bytecode: tampered });
    });
    const run = await deploy([...toDevnet('tampered'), '--yes'], { key: keyOf(14) });
    expect(codeOf(run)).toBe('CODE_MISMATCH');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`ServiceConfig at ${config} is not the contract this build compiled`);
    expect(run.stdout).not.toContain('TradeRouter: sent');
    expect(existsSync(join(dir, 'tampered', 'devnet.json'))).toBe(false);
  });

  it('refuses before anything is signed, saying what is wrong and how to fix it', async () => {
    const refused = join(dir, 'refused');
    const badExchange = join(dir, 'bad-exchange.json');
    writeFileSync(badExchange, JSON.stringify({ ...exchange, usdt: addressOf(5) }));
    const existing = join(dir, 'existing');
    mkdirSync(existing);
    writeFileSync(join(existing, 'devnet.json'), '{}');
    const key = keyOf(17);
    const poor = keccak256(toHex('deploy test: a key that holds no BNB'));
    const withExchange = (file: string) => [
      '--network',
      'devnet',
      '--rpc',
      rpcUrl,
      '--exchange',
      file,
      '--out',
      refused,
    ];
    // An RPC that says it is BSC testnet (chain 97), and nothing more.
    const testnet = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const answer = method === 'eth_chainId' ? { result: '0x61' } : { error: { code: -32601, message: 'not here' } };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ jsonrpc: '2.0', id, ...answer }));
    });
    await new Promise<void>((resolve) => testnet.listen(0, '127.0.0.1', resolve));
    const testnetUrl = `http://127.0.0.1:${(testnet.address() as AddressInfo).port}`;
    const runs = {
      devnetOnBsc: await deploy([...toDevnet('refused', testnetUrl), '--yes'], { key }),
      noNetwork: await deploy(['--rpc', rpcUrl], { key }),
      wrongChain: await deploy(['--network', 'testnet', '--rpc', rpcUrl, '--out', refused], { key }),
      devnetAlone: await deploy(['--network', 'devnet', '--rpc', rpcUrl], { key }),
      noKey: await deploy(toDevnet('refused')),
      recordExists: await deploy([...toDevnet('existing'), '--yes'], { key }),
      wrongExchange: await deploy([...withExchange(badExchange), '--yes'], { key }),
      poor: await deploy([...toDevnet('refused'), '--yes'], { key: poor }),
      answeredNo: await deploy(toDevnet('refused'), { key, input: 'no\n' }),
      noAnswer: await deploy(toDevnet('refused'), { key }),
    };
    const codes = Object.fromEntries(Object.entries(runs).map(([name, run]) => [name, codeOf(run)]));
    testnet.close();
    expect(codes).toEqual({
      devnetOnBsc: 'WRONG_CHAIN',
      noNetwork: 'USAGE',
      wrongChain: 'WRONG_CHAIN',
      devnetAlone: 'USAGE',
      noKey: 'NO_KEY',
      recordExists: 'RECORD_EXISTS',
      wrongExchange: 'EXCHANGE_MISMATCH',
      poor: 'INSUFFICIENT_BALANCE',
      answeredNo: 'NOT_CONFIRMED',
      noAnswer: 'NOT_CONFIRMED',
    });
    for (const run of Object.values(runs)) {
      expect(run.status).toBe(2);
      // A message, then the line that says what to do.
      expect(run.stderr.trim().split('\n').length).toBeGreaterThanOrEqual(2);
    }
    expect(runs.noNetwork.stderr).toContain('--network');
    expect(runs.wrongChain.stderr).toContain('serves chain 31337, not BSC testnet (chain 97)');
    expect(runs.devnetOnBsc.stderr).toContain('Pass --network testnet');
    expect(runs.wrongExchange.stderr).toContain(`USDT ${addressOf(5)}: there is no contract at this address`);
    // The plan was shown before the refusals that come after it, and nothing was sent.
    for (const run of [runs.poor, runs.answeredNo, runs.noAnswer]) expect(run.stdout).toContain('1. ServiceConfig,');
    expect(runs.poor.stderr).toMatch(/holds 0 BNB; the deployment may cost up to [\d.₀-₉]+ BNB/);
    expect(runs.answeredNo.stderr).toContain('You answered "no"');
    expect(await client.getTransactionCount({ address: addressOf(17) })).toBe(0);
    expect(existsSync(join(refused, 'devnet.json'))).toBe(false);
    expect(readFileSync(join(existing, 'devnet.json'), 'utf8')).toBe('{}');
  }, 120_000);
});

describe('npm run deploy with a Ledger', () => {
  it('signs every creation on the device, refusing first while blind signing is off; a rejection half-way stops it, a rerun goes on', async () => {
    const emulator = new LedgerEmulator();
    const path = "44'/60'/15'/0/0";
    const args = [...toDevnet('ledger'), '--signer', 'ledger', '--ledger-account', '15', '--yes'];
    let stdout = '';
    let stderr = '';
    let rejectAfter: string | undefined;
    const io: DeployIo = {
      stdout: (text) => {
        stdout += text;
        // The person presses Reject on the device for the transaction after this one.
        if (rejectAfter && text.includes(rejectAfter)) emulator.state = 'reject-next';
      },
      stderr: (text) => {
        stderr += text;
      },
      ask: async () => null,
      env: {},
      cwd: dir,
      openLedger: async () => emulator,
      pollMs: 20,
    };
    const deployer = mnemonicToAccount(TEST_MNEMONIC, { accountIndex: 15 }).address;
    await fund(deployer);

    // A new Ledger: blind signing off, so nothing is planned or signed, and the person learns how to turn it on.
    expect(await runDeployCommand(args, io)).toBe(2);
    expect(stderr).toMatch(/^deploy refused \(SIGNER_FAILED\): The Ledger could not be used: Blind signing is off/);
    expect(stderr).toContain('turn Blind signing on');
    expect(stdout).not.toContain('Deployer:');

    emulator.blindSigning = true;
    stdout = '';
    stderr = '';
    rejectAfter = 'ServiceConfig: mined';
    expect(await runDeployCommand(args, io)).toBe(1);
    expect(stderr).toMatch(/^deploy stopped \(SIGNER_FAILED\): TradeRouter was not signed: The request was rejected/);
    expect(existsSync(join(dir, 'ledger', 'devnet.json'))).toBe(false);

    rejectAfter = undefined;
    stdout = '';
    stderr = '';
    expect(await runDeployCommand(args, io)).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(`Deployer:       ${deployer} (Ledger, ${path})`);
    expect(stdout.match(/confirm it on the Ledger/g)).toHaveLength(4);
    const record = readRecord('ledger');
    expect(record.deployer).toBe(deployer);
    expect(record.signer).toBe(`Ledger, ${path}`);
    // The stopped run's ServiceConfig took nonce 0.
    expect(DEPLOY_ORDER.map((name) => record.contracts[name].nonce)).toEqual([1, 2, 3, 4]);
    for (const name of DEPLOY_ORDER) {
      const { address, codeHash } = record.contracts[name];
      expect(keccak256((await client.getCode({ address })) as Hex)).toBe(codeHash);
    }
    // Six signatures asked of the device: one, one rejected, then four.
    expect(emulator.receivedFor(INS_SIGN).filter((apdu) => apdu.p1 === 0)).toHaveLength(6);
  });
});

/** The code of a refusal or a stop, from the first line the command wrote to stderr. */
function codeOf(run: Run): string | undefined {
  return /^deploy (?:refused|stopped) \((\w+)\)/.exec(run.stderr)?.[1];
}

/** Sends 10 BNB from `from` (test account 0) to `to`, and waits for it to be mined. */
async function fund(to: Address, from: Hex = keyOf(0)): Promise<void> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(from),
    chain: devnetChain,
    transport: http(rpcUrl),
  });
  const hash = await wallet.sendTransaction({ to, value: parseEther('10') });
  await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}
