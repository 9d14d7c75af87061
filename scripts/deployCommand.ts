/**
 * `npm run deploy`: deploys the service's contracts to BSC testnet or mainnet (or a local chain that is not BSC),
 * with a local key or a Ledger, after checking the exchange and showing the person what is deployed, with what, and
 * at what cost; then checks every contract's code on chain against this build and writes the deployment record that
 * `npm run serve` reads. scripts/deploy.ts runs it on the terminal; tests run it with their own input and output.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type Transport from '@ledgerhq/hw-transport';
import { type Address, createPublicClient, getAddress, type Hex, http, isAddress, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { checkExchange, EXCHANGE_LABELS, ExchangeCheckError } from '../src-main/chain/exchangeCheck';
import { type ExchangeAddresses, NETWORKS, type NetworkName } from '../src-main/chain/networks';
import { politeFetch } from '../src-main/chain/politeFetch';
import { lineLogger } from '../src-main/log/createLogger';
import { ledgerAccess } from '../src-main/signer/ledger/ledgerAccess';
import { LedgerError } from '../src-main/signer/ledger/ledgerErrors';
import { LEDGER_LIVE_PATH_TEMPLATE } from '../src-main/signer/ledger/ledgerSigner';
import { openLedgerTransport } from '../src-main/signer/ledger/openLedgerTransport';
import { createLocalKeySigner } from '../src-main/signer/localKey/localKeySigner';
import { DeployError, reasonOf } from './deployError';
import { deploymentRecord, probeWritable, writeAtomically } from './deploymentRecord';
import { bnb, DEFAULT_FEES, type DeployPlan, formatPlan, planDeployment } from './deployPlan';
import { type DeploySigner, deployService } from './deployService';

export const USAGE = `usage: npm run deploy -- --network testnet|mainnet --rpc URL [options]

Deploys the service's contracts (ServiceConfig, TradeRouter, LaunchFactory, ReferralVault) against the published
PancakeSwap V3, WBNB, USDT and Permit2 of BSC testnet (chain 97) or mainnet (56), and writes <out>/<network>.json,
which \`npm run serve -- --network <network> --rpc URL\` reads. Before anything is signed it checks the exchange on
the chain, shows each contract with its constructor arguments, the owner, the fee recipient and rates, and the gas
and its cost against the deployer's balance, and asks you to type yes. Each contract's code on chain is checked
against this build before the record is written.

  --network testnet|mainnet|devnet  where to deploy; the RPC must serve that chain (97 or 56). devnet: a local
                                    chain that is not BSC (the embedded devnet served over HTTP, or a rehearsal
                                    fork, chain 31338), with --exchange and --out
  --rpc URL                         the chain's JSON-RPC endpoint, http:// or https://
  --signer key|ledger               key (the default): the key in DEPLOYER_PRIVATE_KEY (0x and 64 hex digits);
                                    ledger: a Ledger on USB, unlocked, Ethereum app open, blind signing on
  --ledger-account N                the Ledger Live account to sign with: path 44'/60'/N'/0/0 (default 0)
  --ledger-path PATH                another derivation path instead, e.g. 44'/60'/0'/0/1 (MetaMask's layout)
  --fee-recipient ADDRESS           receives the site fee and the launch fee (default: the deployer)
  --out DIR                         the folder the record goes to (default ./deployments)
  --exchange FILE                   devnet only: the exchange's addresses as JSON (pancakeFactory, poolDeployer,
                                    quoter, swapRouter, positionManager, wbnb, usdt, permit2), or a saved
                                    GET /api/v1/settings answer, whose "contracts" hold them
  --force                           deploy again although <out>/<network>.json exists; the old one is kept as
                                    <network>.backup-<time>.json
  --yes                             sign and send without asking (for scripts)
  --help                            this text
`;

/** What the command reads and writes besides the chain: the terminal, or a test's stand-ins. */
export interface DeployIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Asks the person on the terminal; the line typed, or null when no answer can come (input closed). */
  ask(question: string): Promise<string | null>;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Opens the Ledger (the first one on USB unless a test hands its emulator). */
  openLedger?: () => Promise<Transport>;
  /** How often receipts are asked for, in ms. */
  pollMs?: number;
}

interface Options {
  network: NetworkName;
  rpcUrl: string;
  signer: 'key' | 'ledger';
  ledgerPath: string;
  feeRecipient?: Address;
  out: string;
  exchangeFile?: string;
  force: boolean;
  yes: boolean;
}

const usageError = (message: string, fix = 'See npm run deploy -- --help.') => new DeployError('USAGE', message, fix);

function parseOptions(argv: string[], cwd: string): Options | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        network: { type: 'string' },
        rpc: { type: 'string' },
        signer: { type: 'string' },
        'ledger-account': { type: 'string' },
        'ledger-path': { type: 'string' },
        'fee-recipient': { type: 'string' },
        out: { type: 'string' },
        exchange: { type: 'string' },
        force: { type: 'boolean' },
        yes: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw usageError(`${reasonOf(error)}.`);
  }
  if (values.help) return 'help';
  const network = values.network as string | undefined;
  if (network === undefined) {
    throw usageError(
      '--network is needed: the chain to deploy to.',
      'Pass --network testnet (BSC testnet, chain 97) or --network mainnet (56); rehearse on the testnet first.',
    );
  }
  if (network !== 'testnet' && network !== 'mainnet' && network !== 'devnet') {
    throw usageError(
      `--network ${network} is not a network this command deploys to.`,
      'Pass testnet, mainnet or devnet.',
    );
  }
  const rpcUrl = values.rpc as string | undefined;
  if (rpcUrl === undefined) {
    throw usageError(
      `--rpc URL is needed: the ${network} RPC endpoint to deploy through.`,
      'Pass the http(s) URL of a node of that chain (a free public endpoint does).',
    );
  }
  if (!/^https?:\/\/\S+$/i.test(rpcUrl)) {
    throw usageError(`--rpc ${rpcUrl} is not an http:// or https:// URL.`, 'Pass the HTTP URL of the RPC endpoint.');
  }
  const signer = (values.signer as string | undefined) ?? 'key';
  if (signer !== 'key' && signer !== 'ledger') {
    throw usageError(
      `--signer ${signer} is not a signer.`,
      'Pass --signer key (DEPLOYER_PRIVATE_KEY) or --signer ledger.',
    );
  }
  const account = values['ledger-account'] as string | undefined;
  const path = values['ledger-path'] as string | undefined;
  if ((account !== undefined || path !== undefined) && signer !== 'ledger') {
    throw usageError(
      '--ledger-account and --ledger-path choose a Ledger account.',
      'Add --signer ledger, or leave them out.',
    );
  }
  if (account !== undefined && path !== undefined) {
    throw usageError('--ledger-account and --ledger-path both choose the account.', 'Pass one of them.');
  }
  if (account !== undefined && !(/^\d+$/.test(account) && Number(account) < 0x8000_0000)) {
    throw usageError(
      `--ledger-account ${account} is not an account index.`,
      'Pass a whole number: 0 is the first account.',
    );
  }
  if (path !== undefined && !/^(m\/)?\d+'?(\/\d+'?)*$/.test(path)) {
    throw usageError(`--ledger-path ${path} is not a derivation path.`, "Write it as 44'/60'/0'/0/0.");
  }
  const feeRecipient = values['fee-recipient'] as string | undefined;
  if (feeRecipient !== undefined && !isAddress(feeRecipient, { strict: false })) {
    throw usageError(`--fee-recipient ${feeRecipient} is not an address.`, 'Pass a 0x address of 40 hex digits.');
  }
  const exchangeFile = values.exchange as string | undefined;
  const out = values.out as string | undefined;
  if (network === 'devnet' && (exchangeFile === undefined || out === undefined)) {
    throw usageError(
      '--network devnet needs --exchange FILE and --out DIR: a devnet has its own exchange, and its record must not land beside the BSC ones.',
      "Save the devnet's GET /api/v1/settings answer to a file and pass it as --exchange, and a folder as --out.",
    );
  }
  if (network !== 'devnet' && exchangeFile !== undefined) {
    throw usageError(
      `--exchange is for --network devnet only: on ${network} the contracts are deployed against the published PancakeSwap V3, WBNB, USDT and Permit2.`,
      'Leave --exchange out.',
    );
  }
  return {
    network,
    rpcUrl,
    signer,
    ledgerPath: (path ?? LEDGER_LIVE_PATH_TEMPLATE.replace('{i}', account ?? '0')).replace(/^m\//, ''),
    ...(feeRecipient ? { feeRecipient: getAddress(feeRecipient) } : {}),
    out: resolve(cwd, out ?? 'deployments'),
    ...(exchangeFile ? { exchangeFile: resolve(cwd, exchangeFile) } : {}),
    force: values.force === true,
    yes: values.yes === true,
  };
}

/** The devnet's exchange from --exchange: the eight addresses, at the top or under "contracts" (GET /settings). */
function readExchangeFile(file: string): ExchangeAddresses {
  const fix = `Pass a JSON file holding ${Object.keys(EXCHANGE_LABELS).join(', ')} (a saved GET /api/v1/settings answer has them).`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DeployError(
      'BAD_EXCHANGE_FILE',
      `--exchange ${file} could not be read as JSON: ${reasonOf(error)}.`,
      fix,
    );
  }
  const holder = json as { contracts?: unknown };
  const source = (holder && typeof holder.contracts === 'object' ? holder.contracts : json) as Record<string, unknown>;
  const exchange: Partial<ExchangeAddresses> = {};
  for (const role of Object.keys(EXCHANGE_LABELS) as (keyof ExchangeAddresses)[]) {
    const value = source?.[role];
    if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
      throw new DeployError(
        'BAD_EXCHANGE_FILE',
        `--exchange ${file} has no address for ${role} (${EXCHANGE_LABELS[role]}).`,
        fix,
      );
    }
    exchange[role] = getAddress(value);
  }
  return exchange as ExchangeAddresses;
}

function keySigner(env: DeployIo['env']): DeploySigner {
  const key = env.DEPLOYER_PRIVATE_KEY;
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new DeployError(
      'NO_KEY',
      `DEPLOYER_PRIVATE_KEY ${key ? 'is not a private key' : 'is not set'}: --signer key signs with the key it holds.`,
      'Set DEPLOYER_PRIVATE_KEY to the deployer key as 0x followed by 64 hex digits, or pass --signer ledger.',
    );
  }
  const signer = createLocalKeySigner(key as Hex);
  return {
    description: 'local key from DEPLOYER_PRIVATE_KEY',
    address: privateKeyToAccount(key as Hex).address,
    sign: (tx) => signer.signTransaction(tx),
  };
}

/** The Ledger account on `path`, with blind signing known to be on (a contract creation is all contract data). */
async function ledgerSigner(path: string, io: DeployIo, log: (line: string) => void): Promise<DeploySigner> {
  const ledger = ledgerAccess(io.openLedger ?? (() => openLedgerTransport()));
  const failed = (error: unknown) => {
    const reason = error instanceof LedgerError ? error : undefined;
    return new DeployError(
      'SIGNER_FAILED',
      `The Ledger could not be used: ${reasonOf(error)}`,
      reason?.fix ?? 'Plug the Ledger in, unlock it, open the Ethereum app, then run again.',
      { cause: error },
    );
  };
  let address: Address;
  try {
    address = await ledger.withSigner(path, (signer) => signer.getAddress());
    const app = await ledger.configuration();
    if (!app.blindSigning) throw new LedgerError('blind-signing-disabled');
  } catch (error) {
    throw failed(error);
  }
  return {
    description: `Ledger, ${path}`,
    address,
    sign: async (tx) => {
      log('  confirm it on the Ledger: it shows that transaction hash');
      try {
        return await ledger.withSigner(path, (signer) => signer.signTransaction(tx));
      } catch (error) {
        throw error instanceof LedgerError ? error : (ledger.toSignerError(error) ?? error);
      }
    },
  };
}

/**
 * The chain behind the RPC must be the network's: 97 or 56, or for a devnet anything but those two (the embedded
 * devnet's 31337, a rehearsal fork's 31338, another local chain).
 */
function checkChainId(network: NetworkName, chainId: number, rpcUrl: string): void {
  if (network === 'devnet') {
    const bsc = (['testnet', 'mainnet'] as const).map((name) => NETWORKS[name]).find((n) => n.chain.id === chainId);
    if (bsc) {
      throw new DeployError(
        'WRONG_CHAIN',
        `The RPC at ${rpcUrl} serves chain ${chainId}, BSC ${bsc.name}: --network devnet is for local chains only.`,
        `Pass --network ${bsc.name} to deploy there, against its published exchange.`,
      );
    }
    return;
  }
  const expected = NETWORKS[network].chain.id;
  if (chainId !== expected) {
    throw new DeployError(
      'WRONG_CHAIN',
      `The RPC at ${rpcUrl} serves chain ${chainId}, not BSC ${network} (chain ${expected}).`,
      `Pass the RPC URL of a BSC ${network} node, or the --network that chain ${chainId} is.`,
    );
  }
}

async function confirm(plan: DeployPlan, options: Options, io: DeployIo): Promise<void> {
  if (options.yes) {
    io.stdout('--yes was given: signing and sending without asking.\n');
    return;
  }
  const answer = await io.ask(`Type yes to sign and send these ${plan.contracts.length} transactions: `);
  if (answer?.trim().toLowerCase() === 'yes') return;
  throw new DeployError(
    'NOT_CONFIRMED',
    answer === null
      ? 'No answer came (the input is closed), so nothing was signed or sent.'
      : `You answered "${answer.trim()}", not yes, so nothing was signed or sent.`,
    'Run it again and type yes to deploy, or pass --yes where no one can answer (scripts).',
  );
}

/** Runs the command; the exit code: 0 deployed, 2 refused before anything was sent, 1 stopped after sending began. */
export async function runDeployCommand(argv: string[], io: DeployIo): Promise<number> {
  const log = (line: string) => io.stdout(`${line}\n`);
  let sending = false;
  try {
    const options = parseOptions(argv, io.cwd);
    if (options === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    const { network, rpcUrl } = options;
    const record = join(options.out, `${network}.json`);
    if (existsSync(record) && !options.force) {
      throw new DeployError(
        'RECORD_EXISTS',
        `${record} exists: the contracts were deployed on ${network} already.`,
        'Pass --force to deploy again (the old record is kept as a backup), or --out another folder.',
      );
    }
    try {
      mkdirSync(options.out, { recursive: true });
      probeWritable(options.out);
    } catch (error) {
      throw new DeployError(
        'OUT_NOT_WRITABLE',
        `The record could not be written to ${options.out}: ${reasonOf(error)}.`,
        'Pass --out a folder you can write to; nothing is signed until the record can be written.',
      );
    }
    const keyed = options.signer === 'key' ? keySigner(io.env) : undefined;
    const exchange = options.exchangeFile
      ? readExchangeFile(options.exchangeFile)
      : (NETWORKS[network].exchange as ExchangeAddresses);

    const client = createPublicClient({
      transport: http(rpcUrl, { retryCount: 2, fetchFn: politeFetch({ log: lineLogger(log) }) }),
    }) as PublicClient;
    const chainId = await client.getChainId().catch((error: unknown) => {
      throw new DeployError(
        'RPC_UNREACHABLE',
        `The RPC at ${rpcUrl} did not answer: ${reasonOf(error)}`,
        'Check the URL and that the node is up, then run again.',
      );
    });
    checkChainId(network, chainId, rpcUrl);

    const signer = keyed ?? (await ledgerSigner(options.ledgerPath, io, log));
    log(`Checking the exchange on chain ${chainId}...`);
    const exchangeCheck = await checkExchange(client, exchange).catch((error: unknown) => {
      if (error instanceof ExchangeCheckError) throw new DeployError('EXCHANGE_MISMATCH', error.message, error.fix);
      throw new DeployError(
        'RPC_UNREACHABLE',
        `The exchange could not be checked through ${rpcUrl}: ${reasonOf(error)}`,
        'Check the RPC, then run again.',
      );
    });
    for (const line of exchangeCheck.checked) log(`  checked: ${line}`);
    for (const line of exchangeCheck.unchecked) log(`  NOT CHECKED: ${line}`);

    const plan = await planDeployment(client, {
      chainId,
      deployer: signer.address,
      exchange,
      feeRecipient: options.feeRecipient ?? signer.address,
      fees: DEFAULT_FEES,
    }).catch((error: unknown) => {
      throw new DeployError(
        'RPC_UNREACHABLE',
        `The deployment could not be worked out from the chain (balance, nonce, fees, gas): ${reasonOf(error)}`,
        'Check the RPC, then run again.',
      );
    });
    io.stdout(
      `\n${formatPlan(plan, { network: network === 'devnet' ? 'a devnet' : `BSC ${network}`, rpcUrl, signer: signer.description })}\n`,
    );
    if (plan.balance < plan.costAtMost) {
      throw new DeployError(
        'INSUFFICIENT_BALANCE',
        `The deployer ${plan.deployer} holds ${bnb(plan.balance, 'down')}; the deployment may cost up to ${bnb(plan.costAtMost, 'up')}.`,
        `Send at least ${bnb(plan.costAtMost - plan.balance, 'up')} more to ${plan.deployer}, then run again.`,
      );
    }
    await confirm(plan, options, io);

    sending = true;
    const deployed = await deployService(plan, {
      client,
      signer,
      log,
      ...(io.pollMs ? { pollMs: io.pollMs } : {}),
    });
    const content = `${JSON.stringify(deploymentRecord(network, plan, signer.description, deployed), null, 2)}\n`;
    let backup: string | undefined;
    try {
      ({ backup } = writeAtomically(record, content));
    } catch (error) {
      io.stdout(content);
      throw new DeployError(
        'WRITE_FAILED',
        `The contracts are deployed, but ${record} could not be written: ${reasonOf(error)}. The record is printed above.`,
        `Save the record above as ${record} yourself.`,
      );
    }
    if (backup) log(`The previous record was kept as ${backup}`);
    log(`Deployed to ${network === 'devnet' ? `chain ${chainId}` : `BSC ${network}`}; wrote ${record}`);
    if (network !== 'devnet') log(`Serve it: npm run serve -- --network ${network} --rpc ${rpcUrl}`);
    return 0;
  } catch (error) {
    const verdict = sending ? 'deploy stopped' : 'deploy refused';
    if (error instanceof DeployError) {
      io.stderr(`${verdict} (${error.code}): ${error.message}\n${error.fix}\n`);
    } else {
      const fix = sending
        ? 'Nothing was written; the lines above show what was sent and mined (those contracts stay unused). Check the RPC, then deploy again.'
        : 'Nothing was signed or sent. Check the RPC and the options, then run again.';
      io.stderr(`${verdict}: ${reasonOf(error)}\n${fix}\n`);
    }
    return sending ? 1 : 2;
  }
}
