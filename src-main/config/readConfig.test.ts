import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SavedAppSettings } from '../store/appSettingsFile';
import {
  type Config,
  ConfigUsageError,
  desktopDefaults,
  HEADLESS_DEFAULTS,
  readConfig,
  rpcTimeoutMsOf,
  ConfigUsageError as ServeUsageError,
} from './readConfig';

/** The headless entry's reading, as `npm run serve` does it. */
function readServeOptions(args: string[], env: NodeJS.ProcessEnv): Config {
  return readConfig({ args, env, entry: 'headless', defaults: HEADLESS_DEFAULTS });
}

/** An environment whose settings file does not exist, so only flags and variables count. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { APP_SETTINGS: join(mkdtempSync(join(tmpdir(), 'serve-options-')), 'none.json'), ...extra };
}

describe('readConfig, headless', () => {
  it('defaults to the devnet on port 8787 with limits and keys on', () => {
    const options = readServeOptions([], env());
    expect(options).toMatchObject({ port: 8787, network: 'devnet', dataDir: resolve('.data/devnet') });
    for (const key of [
      'rpcUrl',
      'rpcTimeoutMs',
      'rateLimits',
      'keys',
      'confirmations',
      'webRoot',
      'appToken',
      'thirdPartyFetches',
      'bscFees',
      'blockTimeMs',
    ]) {
      expect(options, key).not.toHaveProperty(key);
    }
  });

  it('runs the devnet with BSC fees by --bsc-fees or BSC_FEES=on', () => {
    expect(readServeOptions(['--bsc-fees'], env()).bscFees).toBe(true);
    expect(readServeOptions([], env({ BSC_FEES: 'on' })).bscFees).toBe(true);
    expect(() => readServeOptions(['--bsc-fees=on'], env())).toThrow(ServeUsageError);
  });

  it('runs the devnet at a block cadence by --block-time or BLOCK_TIME, 0 keeping a block per transaction', () => {
    expect(readServeOptions(['--block-time', '750'], env()).blockTimeMs).toBe(750);
    expect(readServeOptions([], env({ BLOCK_TIME: '3000' })).blockTimeMs).toBe(3000);
    expect(readServeOptions(['--block-time', '0'], env({ BLOCK_TIME: '750' }))).not.toHaveProperty('blockTimeMs');
    for (const bad of ['fast', '-1', '0.75', '10', '1234567']) {
      expect(() => readServeOptions(['--block-time', bad], env()), bad).toThrow(ServeUsageError);
    }
    expect(() => readServeOptions(['--block-time', '750', '--network', 'testnet', '--rpc', 'http://x'], env())).toThrow(
      /devnet and a fork/,
    );
  });

  it('reads --rpc-timeout in seconds, and RPC_TIMEOUT when the flag is absent', () => {
    expect(readServeOptions(['--rpc-timeout', '3'], env()).rpcTimeoutMs).toBe(3000);
    expect(readServeOptions([], env({ RPC_TIMEOUT: '45' })).rpcTimeoutMs).toBe(45_000);
    expect(readServeOptions(['--rpc-timeout', '2'], env({ RPC_TIMEOUT: '45' })).rpcTimeoutMs).toBe(2000);
  });

  it('leaves third-party fetches unchosen (so off) until a flag, variable or the saved choice sets them', () => {
    expect(readServeOptions([], env())).not.toHaveProperty('thirdPartyFetches');
    expect(readServeOptions(['--third-party-fetches', 'off'], env()).thirdPartyFetches).toBe(false);
    expect(readServeOptions([], env({ THIRD_PARTY_FETCHES: 'off' })).thirdPartyFetches).toBe(false);
    const folder = mkdtempSync(join(tmpdir(), 'serve-options-'));
    const saved = join(folder, 'app-settings.json');
    writeFileSync(saved, JSON.stringify({ thirdPartyFetches: false }));
    expect(readServeOptions([], { APP_SETTINGS: saved }).thirdPartyFetches).toBe(false);
    expect(readServeOptions(['--third-party-fetches', 'on'], { APP_SETTINGS: saved }).thirdPartyFetches).toBe(true);
    writeFileSync(saved, JSON.stringify({ thirdPartyFetches: true }));
    expect(readServeOptions([], { APP_SETTINGS: saved }).thirdPartyFetches).toBe(true);
  });

  it('takes the public link base of referral links by flag, variable or saved setting', () => {
    expect(readServeOptions([], env())).not.toHaveProperty('publicLinkBase');
    expect(readServeOptions(['--public-link-base', 'https://pad.example'], env()).publicLinkBase).toBe(
      'https://pad.example',
    );
    expect(readServeOptions([], env({ PUBLIC_LINK_BASE: 'https://pad.example/app' })).publicLinkBase).toBe(
      'https://pad.example/app',
    );
    const saved = join(mkdtempSync(join(tmpdir(), 'serve-options-')), 'app-settings.json');
    writeFileSync(saved, JSON.stringify({ publicLinkBase: 'https://saved.example' }));
    expect(readServeOptions([], { APP_SETTINGS: saved }).publicLinkBase).toBe('https://saved.example');
  });

  it.each([
    [['--public-link-base', 'http://127.0.0.1:8787'], 'public-link-base'],
    [['--rpc-timeout', '0'], 'rpc-timeout'],
    [['--rpc-timeout', '1.5'], 'rpc-timeout'],
    [['--rpc-timeout', '1000'], 'rpc-timeout'],
    [['--rpc-timeout', '-1'], 'rpc-timeout'],
    [['--port', '65536'], 'port'],
    [['--port', 'http'], 'port'],
    [['--network', 'goerli'], 'network'],
    [['--rate-limit', 'maybe'], 'rate-limit'],
    [['--confirmations', '1000'], 'confirmations'],
    [['--keys', 'yes'], 'keys'],
    [['--third-party-fetches', 'no'], 'third-party-fetches'],
    [['--colour', 'on'], 'usage'],
  ])('refuses %j, naming the flag', (args, named) => {
    expect(() => readServeOptions(args, env())).toThrow(ServeUsageError);
    expect(() => readServeOptions(args, env())).toThrow(named);
  });

  it('lets flags win over variables, and both over the saved settings of the same network only', () => {
    const folder = mkdtempSync(join(tmpdir(), 'serve-options-'));
    const saved = join(folder, 'app-settings.json');
    writeFileSync(
      saved,
      JSON.stringify({ network: 'testnet', rpcUrl: 'https://saved.example', dataDir: '/saved', rateLimits: false }),
    );
    const onSaved = readServeOptions([], { APP_SETTINGS: saved });
    expect(onSaved).toMatchObject({
      network: 'testnet',
      rpcUrl: 'https://saved.example',
      dataDir: resolve('/saved/testnet'),
      rateLimits: false,
    });
    const byVariable = readServeOptions([], { APP_SETTINGS: saved, RPC_URL: 'https://env.example' });
    expect(byVariable.rpcUrl).toBe('https://env.example');
    const byFlag = readServeOptions(['--rpc', 'https://flag.example'], { APP_SETTINGS: saved, RPC_URL: 'x' });
    expect(byFlag.rpcUrl).toBe('https://flag.example');
    // Another network leaves the saved RPC and data folder aside.
    const other = readServeOptions(['--network', 'mainnet'], { APP_SETTINGS: saved });
    expect(other).not.toHaveProperty('rpcUrl');
    expect(other.dataDir).toBe(resolve('.data/mainnet'));
  });

  it('reports an unreadable settings file and goes on without it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'serve-options-'));
    const saved = join(folder, 'app-settings.json');
    writeFileSync(saved, '{ not json');
    const options = readServeOptions([], { APP_SETTINGS: saved });
    expect(options.network).toBe('devnet');
    expect(options.settingsProblem).toContain('cannot be read');
  });

  it('gives the web UI a token of its own, or APP_TOKEN', () => {
    const random = readServeOptions(['--web', 'out/web'], env());
    expect(random.appToken).toMatch(/^[\w-]{32}$/);
    expect(readServeOptions(['--web', 'out/web'], env({ APP_TOKEN: 'chosen' })).appToken).toBe('chosen');
  });
});

describe('rpcTimeoutMsOf', () => {
  it('is undefined when not given, and whole seconds in milliseconds otherwise', () => {
    expect(rpcTimeoutMsOf(undefined)).toBeUndefined();
    expect(rpcTimeoutMsOf('999')).toBe(999_000);
  });
});

describe('--fork', () => {
  it('rehearses on network fork with the source as its RPC, resuming unless a block or latest is given', () => {
    const options = readServeOptions(['--fork', 'https://bsc.example/rpc'], env());
    expect(options).toMatchObject({
      network: 'fork',
      rpcUrl: 'https://bsc.example/rpc',
      dataDir: resolve('.data/fork'),
    });
    expect(options).not.toHaveProperty('forkBlock');
    expect(readServeOptions(['--fork', 'https://x', '--fork-block', '123'], env()).forkBlock).toBe(123n);
    expect(readServeOptions(['--fork', 'https://x', '--fork-block', 'latest'], env()).forkBlock).toBe('latest');
    expect(readServeOptions([], env({ FORK_URL: 'https://y' }))).toMatchObject({
      network: 'fork',
      rpcUrl: 'https://y',
    });
  });

  it('refuses a fork with another network or an --rpc, a fork network without a source, and a bad block', () => {
    expect(() => readServeOptions(['--fork', 'https://x', '--network', 'mainnet'], env())).toThrow(
      /leave out --network mainnet/,
    );
    expect(() => readServeOptions(['--fork', 'https://x', '--rpc', 'https://y'], env())).toThrow(/leave out --rpc/);
    expect(() => readServeOptions(['--network', 'fork'], env())).toThrow(/--network fork needs --fork URL/);
    expect(() => readServeOptions(['--fork', 'https://x', '--fork-block', '-1'], env())).toThrow(ServeUsageError);
    expect(() => readServeOptions(['--fork', 'https://x', '--fork-block', 'soon'], env())).toThrow(
      /--fork-block must be a block number or latest, not "soon"/,
    );
  });
});

/** A reading by either entry with the saved settings given in (no file), from a folder of its own. */
function read(
  entry: 'desktop' | 'headless',
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  saved: SavedAppSettings = {},
): Config {
  const defaults = entry === 'desktop' ? desktopDefaults({ userData: '/user', appPath: '/app' }) : HEADLESS_DEFAULTS;
  return readConfig({ args, env, entry, defaults, readSettings: () => ({ settings: saved }) });
}

describe('readConfig: one precedence, flags > environment > saved settings > defaults, for both entries', () => {
  // Each option: its flag, its variable, what the Settings screen saves for it (when it saves it), and the values the
  // three give, from which the option read is checked.
  const table: {
    option: keyof Config;
    flag: string;
    variable: string;
    values: [string, string, string?];
    saved?: (value: string) => SavedAppSettings;
    read: (value: string) => unknown;
  }[] = [
    { option: 'port', flag: '--port', variable: 'PORT', values: ['1', '2'], read: Number },
    {
      option: 'network',
      flag: '--network',
      variable: 'NETWORK',
      values: ['mainnet', 'testnet', 'devnet'],
      saved: (network) => ({ network: network as 'devnet' }),
      read: String,
    },
    {
      option: 'rpcUrl',
      flag: '--rpc',
      variable: 'RPC_URL',
      values: ['https://flag.example', 'https://env.example', 'https://saved.example'],
      saved: (rpcUrl) => ({ rpcUrl }),
      read: String,
    },
    {
      option: 'privateRpcUrl',
      flag: '--private-rpc',
      variable: 'PRIVATE_RPC_URL',
      values: ['https://flag.builder.example', 'https://env.builder.example/k', 'http://127.0.0.1:9545/'],
      saved: (privateRpcUrl) => ({ privateRpcUrl }),
      read: String,
    },
    { option: 'dataDir', flag: '--data', variable: 'DATA_DIR', values: ['/flag', '/env'], read: resolve },
    {
      option: 'rpcTimeoutMs',
      flag: '--rpc-timeout',
      variable: 'RPC_TIMEOUT',
      values: ['1', '2'],
      read: (s) => 1000 * Number(s),
    },
    { option: 'webRoot', flag: '--web', variable: 'WEB_ROOT', values: ['/web-flag', '/web-env'], read: resolve },
    {
      option: 'rateLimits',
      flag: '--rate-limit',
      variable: 'RATE_LIMIT',
      values: ['off', 'on', 'off'],
      saved: () => ({ rateLimits: false }),
      read: (s) => (s === 'off' ? false : undefined),
    },
    { option: 'confirmations', flag: '--confirmations', variable: 'CONFIRMATIONS', values: ['0', '7'], read: Number },
    {
      option: 'keys',
      flag: '--keys',
      variable: 'API_KEYS',
      values: ['off', 'on'],
      read: (s) => (s === 'off' ? false : undefined),
    },
    {
      option: 'thirdPartyFetches',
      flag: '--third-party-fetches',
      variable: 'THIRD_PARTY_FETCHES',
      values: ['on', 'off', 'on'],
      saved: (chosen) => ({ thirdPartyFetches: chosen === 'on' }),
      read: (s) => s === 'on',
    },
    {
      option: 'publicLinkBase',
      flag: '--public-link-base',
      variable: 'PUBLIC_LINK_BASE',
      values: ['https://flag.example', 'https://env.example', 'https://saved.example'],
      saved: (publicLinkBase) => ({ publicLinkBase }),
      read: String,
    },
    { option: 'logLevel', flag: '--log-level', variable: 'LOG_LEVEL', values: ['debug', 'warn'], read: String },
    { option: 'logFile', flag: '--log-file', variable: 'LOG_FILE', values: ['/flag.log', '/env.log'], read: resolve },
  ];

  for (const entry of ['headless', 'desktop'] as const) {
    describe(entry, () => {
      it.each(table)('$option: $flag over $variable over the saved setting', (row) => {
        const [byFlag, byVariable, bySaved] = row.values;
        const saved = bySaved !== undefined && row.saved ? row.saved(bySaved) : {};
        const pick = (config: Config) => (row.option in config ? config[row.option] : undefined);
        expect(pick(read(entry, [row.flag, byFlag], { [row.variable]: byVariable }, saved))).toEqual(row.read(byFlag));
        expect(pick(read(entry, [], { [row.variable]: byVariable }, saved))).toEqual(row.read(byVariable));
        if (bySaved !== undefined && row.saved) {
          expect(pick(read(entry, [], {}, saved))).toEqual(row.read(bySaved));
        }
      });

      it('refuses a bad value, naming the flag, the variable or the saved setting that gave it', () => {
        expect(() => read(entry, ['--port', 'x'])).toThrow(/^--port must be/);
        expect(() => read(entry, [], { PORT: 'x' })).toThrow(/^PORT must be a port number from 0 to 65535, not "x"/);
        expect(() => read(entry, [], { LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL must be one of fatal, error/);
        expect(() => read(entry, [], { RATE_LIMIT: 'maybe' })).toThrow(/^RATE_LIMIT must be on or off/);
        expect(() => read(entry, [], { FORK_URL: 'https://x', FORK_BLOCK: 'soon' })).toThrow(/^FORK_BLOCK must be/);
        expect(() => read(entry, [], {}, { network: 'goerli' as 'devnet' })).toThrow(
          /^the saved network \(in .*app-settings\.json\) must be one of devnet, testnet, mainnet, fork, not "goerli"/,
        );
        expect(() => read(entry, ['--port'])).toThrow(/'?--port/);
        expect(() => read(entry, ['--port'])).toThrow(ConfigUsageError);
      });

      it('applies a saved RPC URL, fork block and data folder only on the network they were saved with', () => {
        const saved: SavedAppSettings = {
          network: 'fork',
          rpcUrl: 'https://source.example',
          forkBlock: 12,
          dataDir: '/saved',
        };
        expect(read(entry, [], {}, saved)).toMatchObject({
          network: 'fork',
          rpcUrl: 'https://source.example',
          forkBlock: 12n,
          dataDir: resolve('/saved/fork'),
        });
        for (const other of [
          read(entry, ['--network', 'testnet'], {}, saved),
          read(entry, [], { NETWORK: 'testnet' }, saved),
        ]) {
          expect(other.network).toBe('testnet');
          expect(other).not.toHaveProperty('rpcUrl');
          expect(other).not.toHaveProperty('forkBlock');
          expect(other.dataDir).not.toContain('/saved');
        }
        // The rule is by network: a rehearsal of another source is still on "fork", so the saved block and folder
        // apply; only the source is the one given.
        expect(read(entry, ['--fork', 'https://other.example'], {}, saved)).toMatchObject({
          rpcUrl: 'https://other.example',
          forkBlock: 12n,
          dataDir: resolve('/saved/fork'),
        });
      });

      it('refuses a private RPC URL that is not http(s), naming where it came from and what to do', () => {
        for (const bad of ['wss://builder.example', 'builder.example', 'https://', 'https://a b.example']) {
          expect(() => read(entry, ['--private-rpc', bad])).toThrow(
            /^--private-rpc: a private RPC URL (starts with http:\/\/ or https:\/\/|names a host|is a whole address).*, not ".*"; fix it, or leave it out/,
          );
        }
        expect(() => read(entry, [], { PRIVATE_RPC_URL: 'ftp://x' })).toThrow(/^PRIVATE_RPC_URL: a private RPC URL/);
        expect(() => read(entry, [], {}, { privateRpcUrl: 'ws://x' })).toThrow(
          /^the saved private RPC URL \(in .*app-settings\.json\): a private RPC URL starts with http/,
        );
        expect(() => read(entry, ['--private-rpc', 'ws://x'])).toThrow(ConfigUsageError);
      });

      it('applies a saved private RPC URL only on the network it was saved with; an empty variable clears it', () => {
        const saved: SavedAppSettings = {
          network: 'devnet',
          privateRpcUrl: 'https://builder.example',
          privateTrades: true,
        };
        expect(read(entry, [], {}, saved)).toMatchObject({
          privateRpcUrl: 'https://builder.example',
          privateTrades: true,
        });
        const other = read(entry, ['--network', 'testnet', '--rpc', 'https://rpc.example'], {}, saved);
        expect(other).not.toHaveProperty('privateRpcUrl');
        expect(other).not.toHaveProperty('privateTrades');
        const cleared = read(entry, [], { PRIVATE_RPC_URL: '' }, saved);
        expect(cleared).not.toHaveProperty('privateRpcUrl');
        expect(cleared).not.toHaveProperty('privateTrades');
      });

      it('sends trades privately by --private-trades or PRIVATE_TRADES=1, only beside a private RPC', () => {
        const withRpc = ['--private-rpc', 'https://builder.example'];
        expect(read(entry, withRpc)).not.toHaveProperty('privateTrades');
        expect(read(entry, [...withRpc, '--private-trades']).privateTrades).toBe(true);
        expect(read(entry, withRpc, { PRIVATE_TRADES: '1' }).privateTrades).toBe(true);
        expect(read(entry, withRpc, { PRIVATE_TRADES: '0' })).not.toHaveProperty('privateTrades');
        expect(read(entry, [...withRpc, '--private-trades'], { PRIVATE_TRADES: '0' }).privateTrades).toBe(true);
        expect(() => read(entry, withRpc, { PRIVATE_TRADES: 'yes' })).toThrow(/^PRIVATE_TRADES must be 1 .* or 0/);
        expect(() => read(entry, ['--private-trades'])).toThrow(
          /^--private-trades sends buys and sells through the private RPC, and none is set: give --private-rpc URL/,
        );
        expect(() => read(entry, [], { PRIVATE_TRADES: '1' })).toThrow(/^PRIVATE_TRADES sends buys and sells/);
        // Saved beside a saved URL: without any private RPC this run, the box does nothing.
        expect(read(entry, [], { PRIVATE_RPC_URL: '' }, { privateTrades: true })).not.toHaveProperty('privateTrades');
      });

      it('reads FORK_URL as --fork, and lets no other network flag join it', () => {
        expect(read(entry, [], { FORK_URL: 'https://y' })).toMatchObject({ network: 'fork', rpcUrl: 'https://y' });
        expect(() => read(entry, ['--network', 'mainnet'], { FORK_URL: 'https://y' })).toThrow(
          /^FORK_URL rehearses .*leave out --network mainnet/,
        );
      });
    });
  }

  it('gives the desktop its folders under userData, its own UI, a log file and no web token', () => {
    const desktop = read('desktop');
    expect(desktop).toMatchObject({
      port: 8787,
      network: 'devnet',
      dataDir: resolve('/user/devnet'),
      settingsFile: resolve('/user/app-settings.json'),
      webRoot: resolve('/app/out/renderer'),
      logLevel: 'info',
      logFile: resolve('/user/logs/companion.log'),
    });
    expect(desktop).not.toHaveProperty('appToken');
    expect(read('desktop', [], { APP_SETTINGS: '/elsewhere.json' }).settingsFile).toBe(resolve('/elsewhere.json'));
  });

  it('gives the headless server no log file unless asked, and a web token only with a web UI', () => {
    const headless = read('headless');
    expect(headless).toMatchObject({ dataDir: resolve('.data/devnet'), logLevel: 'info', logFile: null });
    expect(headless).not.toHaveProperty('webRoot');
    expect(read('headless', ['--web', 'out/web']).appToken).toMatch(/^[\w-]{32}$/);
  });

  it('passes over what Electron and the OS give the desktop (Chromium switches, app links), not headless', () => {
    const args = ['--no-sandbox', 'launchpad-companion://app/token/0x1', '--port', '9000'];
    expect(read('desktop', args).port).toBe(9000);
    expect(() => read('headless', args)).toThrow(ConfigUsageError);
  });
});
