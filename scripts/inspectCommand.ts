/**
 * `npm run inspect -- FILE [--settings SETTINGS.json] [--now UNIX] [--deployments DIR]`: decodes and checks a build
 * answer (trade, launch or claim build, prepared request, or bare unsigned transaction; FILE `-` reads stdin) without
 * any network, and prints each transaction in human units with every check marked ✓ or ✗.
 *
 * The contracts it checks against come from `--settings` (a saved GET /settings answer) or, without it, from the
 * build's chain: the devnet's (31337) are computed from its deployer's nonces; BSC testnet's (97) and mainnet's (56)
 * are read from the deployment records the service reads (./deployments/<network>.json by default). When the chain
 * is none of these, the network whose contracts the transaction calls is used, so a changed chainId still shows as
 * a failed check.
 *
 * Exit status: 0 when every check passes, 1 when one fails, 2 when the input or the settings cannot be read.
 * scripts/inspect.ts runs it on the terminal; tests run it in-process with their own input and output.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Address } from 'viem';
import { NETWORKS, type NetworkName } from '../src-main/chain/networks';
import { devnetKnownContracts } from '../src-shared/inspect/devnetContracts';
import { formatReport } from '../src-shared/inspect/formatReport';
import { inspectBuild } from '../src-shared/inspect/inspectBuild';
import { type KnownContracts, sameAddress, type TokenInfos } from '../src-shared/inspect/knownContracts';
import { mainTxOf } from '../src-shared/inspect/readBuild';
import { DEFAULT_LIMITS, type InspectSettings, readSettings } from '../src-shared/inspect/readSettings';

const USAGE = 'usage: npm run inspect -- FILE|- [--settings SETTINGS.json] [--now UNIX] [--deployments DIR]';

/** Where the command reads and writes: the terminal's streams, or a test's. */
export interface InspectIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The text of FILE `-`. */
  readStdin: () => string;
  cwd: string;
  /** The Unix time checks compare deadlines with, unless --now is given. */
  now: () => number;
}

/** Input the command cannot read: exit status 2 with its message on stderr. */
class Unreadable extends Error {}

function fail(message: string): never {
  throw new Unreadable(message);
}

interface Network {
  source: string;
  known: KnownContracts;
  tokens: TokenInfos;
}

/** Runs the inspector on `args`; answers its exit status. */
export function runInspectCommand(args: string[], io: InspectIo): number {
  try {
    return inspect(args, io);
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    io.stderr(`${error.message}\n`);
    return 2;
  }
}

function inspect(args: string[], io: InspectIo): number {
  const readJson = (path: string, what: string): unknown => {
    let text: string;
    try {
      text = path === '-' ? io.readStdin() : readFileSync(resolve(io.cwd, path), 'utf8');
    } catch (error) {
      fail(`${what} ${path} cannot be read: ${(error as Error).message}`);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      fail(`${what} ${path} is not JSON: ${(error as Error).message}`);
    }
  };

  /** The networks whose contracts are known offline: the devnet always, BSC where a deployment record exists. */
  const offlineNetworks = (deploymentsDir: string): Network[] => {
    const networks: Network[] = [{ source: 'devnet addresses (computed offline)', ...devnetKnownContracts() }];
    for (const name of ['testnet', 'mainnet'] as const satisfies readonly NetworkName[]) {
      const { chain, exchange } = NETWORKS[name];
      const record = join(deploymentsDir, `${name}.json`);
      if (!exchange || !existsSync(record)) continue;
      const ours = readJson(record, 'the deployment record') as Record<string, Address | undefined>;
      if (!ours.router || !ours.factory) fail(`${record} lacks the router or the factory`);
      networks.push({
        source: record,
        known: {
          chainId: chain.id,
          factory: ours.factory,
          router: ours.router,
          permit2: exchange.permit2,
          referrals: ours.referrals ?? null,
          wbnb: exchange.wbnb,
        },
        tokens: { [exchange.usdt]: { symbol: 'USDT', decimals: 18 } },
      });
    }
    return networks;
  };

  /** The network of the build's chain; failing that, the one whose own contracts (not Permit2) the build calls. */
  const pickNetwork = (json: unknown, deploymentsDir: string): Network => {
    const tx = mainTxOf(json);
    const networks = offlineNetworks(deploymentsDir);
    // Without a transaction the input fails its shape check on any network; the devnet's will do to say so.
    if (!tx) return networks[0] as Network;
    const byChain = networks.find((n) => n.known.chainId === tx.chainId);
    if (byChain) return byChain;
    const ours = (k: KnownContracts) => [k.router, k.factory, k.referrals];
    const byAddress = networks.find((n) => ours(n.known).some((address) => sameAddress(address, tx.to)));
    if (byAddress) return byAddress;
    return fail(
      `no contracts are known offline for chain ${tx.chainId} (no ${join(deploymentsDir, '<network>.json')}); pass --settings with a saved GET /settings answer`,
    );
  };

  let values: { settings?: string; now?: string; deployments?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { settings: { type: 'string' }, now: { type: 'string' }, deployments: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  const file = positionals[0];
  if (positionals.length !== 1 || file === undefined) fail(USAGE);
  if (values.now !== undefined && !/^\d+$/.test(values.now)) fail(`--now ${values.now} is not a Unix time in seconds`);
  const now = values.now !== undefined ? Number(values.now) : io.now();

  const json = readJson(file, 'the input');
  let network: Network;
  let limits: InspectSettings['limits'] = DEFAULT_LIMITS;
  if (values.settings !== undefined) {
    const settings = readSettings(readJson(values.settings, 'the settings'));
    if ('error' in settings) fail(`--settings ${values.settings}: ${settings.error}`);
    network = { source: values.settings, known: settings.known, tokens: settings.tokens };
    limits = settings.limits;
  } else {
    network = pickNetwork(json, resolve(io.cwd, values.deployments ?? 'deployments'));
  }

  const result = inspectBuild(json, { known: network.known, now, tokens: network.tokens, limits });
  io.stdout(`Contracts of chain ${network.known.chainId}, from ${network.source}\n\n`);
  io.stdout(formatReport(result, now));
  return result.kind === 'invalid' ? 2 : result.ok ? 0 : 1;
}
