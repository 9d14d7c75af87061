import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readServeOptions, rpcTimeoutMsOf, ServeUsageError } from './serveOptions';

/** An environment whose settings file does not exist, so only flags and variables count. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { APP_SETTINGS: join(mkdtempSync(join(tmpdir(), 'serve-options-')), 'none.json'), ...extra };
}

describe('readServeOptions', () => {
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
    ]) {
      expect(options, key).not.toHaveProperty(key);
    }
  });

  it('runs the devnet with BSC fees by --bsc-fees or BSC_FEES=on', () => {
    expect(readServeOptions(['--bsc-fees'], env()).bscFees).toBe(true);
    expect(readServeOptions([], env({ BSC_FEES: 'on' })).bscFees).toBe(true);
    expect(() => readServeOptions(['--bsc-fees=on'], env())).toThrow(ServeUsageError);
  });

  it('reads --rpc-timeout in seconds, and RPC_TIMEOUT when the flag is absent', () => {
    expect(readServeOptions(['--rpc-timeout', '3'], env()).rpcTimeoutMs).toBe(3000);
    expect(readServeOptions([], env({ RPC_TIMEOUT: '45' })).rpcTimeoutMs).toBe(45_000);
    expect(readServeOptions(['--rpc-timeout', '2'], env({ RPC_TIMEOUT: '45' })).rpcTimeoutMs).toBe(2000);
  });

  it('turns third-party fetches off by flag, variable or saved setting, and a flag turns them back on', () => {
    expect(readServeOptions(['--third-party-fetches', 'off'], env()).thirdPartyFetches).toBe(false);
    expect(readServeOptions([], env({ THIRD_PARTY_FETCHES: 'off' })).thirdPartyFetches).toBe(false);
    const folder = mkdtempSync(join(tmpdir(), 'serve-options-'));
    const saved = join(folder, 'app-settings.json');
    writeFileSync(saved, JSON.stringify({ thirdPartyFetches: false }));
    expect(readServeOptions([], { APP_SETTINGS: saved }).thirdPartyFetches).toBe(false);
    expect(readServeOptions(['--third-party-fetches', 'on'], { APP_SETTINGS: saved })).not.toHaveProperty(
      'thirdPartyFetches',
    );
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
