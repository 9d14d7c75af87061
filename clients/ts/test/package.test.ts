import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testAccounts } from '../../../src-main/chain/devnet/testAccounts';
import { startTradingFixture, type TradingFixture } from '../../../test/support/tradingFixture';

// The client as a package: `npm pack` makes a tarball of the built JavaScript and its declarations, which installs
// into a fresh folder outside the repository (its packages from the npm registry or npm's cache) and, run by plain
// node, buys on the real service; its declarations type-check a consumer's code.

const run = promisify(execFile);
const packageDir = resolve(import.meta.dirname, '..');
const root = resolve(packageDir, '../..');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const BUYER = 8;

let fixture: TradingFixture;
let work: string;
let tarball: string;
let packed: { path: string }[];

beforeAll(async () => {
  fixture = await startTradingFixture({ rateLimits: false });
  work = mkdtempSync(join(tmpdir(), 'companion-client-package-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: packageDir,
    maxBuffer: 16 * 1024 * 1024,
  });
  // npm prints the build's own lines before its JSON.
  const answer = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, answer[0]?.filename ?? '');
  packed = answer[0]?.files ?? [];
  const app = join(work, 'app');
  await run('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'a-bot', private: true, type: 'module' }));
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `viem@${rootManifest.dependencies.viem}`],
    { cwd: app, maxBuffer: 16 * 1024 * 1024 },
  );
}, 300_000);
afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
  await fixture?.service.dispose();
});

it('packs the built module and its declarations, and no source', () => {
  const paths = packed.map((file) => file.path).sort();
  expect(paths).toEqual(
    expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts']),
  );
  expect(paths.filter((path) => path.startsWith('src/') || (path.endsWith('.ts') && !path.endsWith('.d.ts')))).toEqual(
    [],
  );
  // The review's checks are inside the module, not imports of files the package does not hold.
  const bundle = readFileSync(join(work, 'app/node_modules/@launchpad-companion/client/dist/index.js'), 'utf8');
  expect(bundle).not.toMatch(/from ['"]\.\.?\//);
  expect(bundle).toMatch(/limit-matches-slippage/);
});

it('installed in a fresh folder, runs under plain node against the real service: checks and sends a buy', async () => {
  const app = join(work, 'app');
  writeFileSync(
    join(app, 'bot.mjs'),
    `import { createCompanion, CompanionError } from '@launchpad-companion/client';
import { createPublicClient, createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const [baseUrl, rpc, key, token] = process.argv.slice(2);
const companion = createCompanion({ baseUrl });
const settings = await companion.settings();
const chain = defineChain({ id: settings.chainId, name: 'companion', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: { default: { http: [rpc] } } });
const walletClient = createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(rpc) });
const publicClient = createPublicClient({ chain, transport: http(rpc) });
const wallet = walletClient.account.address;
const refused = await companion.quote({ token: '0x00000000000000000000000000000000c0ffee01', side: 'buy', amount: '1' }).catch((e) => e);
const sent = await companion.sendBuy({ wallet, token, amount: '0.01' }, { walletClient, publicClient });
console.log(JSON.stringify({ chainId: settings.chainId, refused: refused instanceof CompanionError ? refused.code : null, status: sent.receipt.status, from: sent.receipt.from }));
`,
  );
  const key = testAccounts()[BUYER]?.privateKey ?? '';
  const { stdout } = await run(
    process.execPath,
    ['bot.mjs', fixture.service.url, `${fixture.service.origin}/rpc`, key, fixture.bnbToken.token],
    { cwd: app },
  );
  expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
    chainId: 31337,
    refused: 'UNKNOWN_TOKEN',
    status: 'success',
    from: testAccounts()[BUYER]?.address.toLowerCase(),
  });
});

it("its declarations type a consumer's code: right uses compile, wrong ones do not", async () => {
  const app = join(work, 'app');
  writeFileSync(
    join(app, 'typed.ts'),
    `import { createCompanion, type CompanionError, type TradeBuild } from '@launchpad-companion/client';

const companion = createCompanion({ baseUrl: 'http://127.0.0.1:8787/api/v1', rateLimitRetry: { maxRetries: 1 } });
export async function typed(): Promise<number> {
  const settings = await companion.settings();
  const build: TradeBuild = await companion.buildBuy({ wallet: '0x1', token: '0x2', amount: '0.1' });
  const code: CompanionError['code'] = 'BUILD_MISMATCH';
  // @ts-expect-error: no such side
  await companion.quote({ token: '0x2', side: 'hold', amount: '1' });
  // @ts-expect-error: chainId is a number
  const wrong: string = settings.chainId;
  return settings.chainId + build.slippageBps + code.length + wrong.length;
}
`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM'],
        skipLibCheck: true,
        types: [],
      },
      files: ['typed.ts'],
    }),
  );
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }).then(
    () => 'compiled',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  expect(checked).toBe('compiled');
});
