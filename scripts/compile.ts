/**
 * Compiles `contracts/` with the pinned solc-js and writes typed artifacts:
 * - `src-main/chain/generated/contracts.ts`: ABI (`as const`) and creation bytecode of every contract we compile;
 * - `src-main/chain/generated/vendor.ts`: the published PancakeSwap V3, WETH9 and Permit2 artifacts the devnet
 *   deploys, taken from npm;
 * - `src-main/chain/generated/runtimeCode.ts`: the runtime bytecode of every contract we compile that has code, with
 *   where its immutables sit and the compiler and settings it came from, so the deploy command can check that what is
 *   on chain is this build;
 * - `src-shared/generated/abis.ts`: only the ABIs (no bytecode) that the renderer and the offline inspector decode
 *   builds with, since the renderer may not import `src-main/`.
 * The output is cached by a hash of every input, so a second run with nothing changed returns at once.
 * Generated files are never edited by hand: change the sources or this script and run `npm run contracts`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const contractsDir = join(root, 'contracts');
const outDir = join(root, 'src-main', 'chain', 'generated');
const sharedOutDir = join(root, 'src-shared', 'generated');
const require = createRequire(import.meta.url);

/** Published artifacts the devnet deploys unchanged: name -> path inside node_modules. */
const VENDOR_ARTIFACTS: Record<string, string> = {
  PancakeV3Factory: '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Factory.sol/PancakeV3Factory.json',
  PancakeV3Pool: '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json',
  QuoterV2: '@pancakeswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  SwapRouter: '@pancakeswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json',
  NonfungiblePositionManager:
    '@pancakeswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  TickLens: '@pancakeswap/v3-periphery/artifacts/contracts/lens/TickLens.sol/TickLens.json',
  WETH9: '@uniswap/v2-periphery/build/WETH9.json',
};
const PERMIT2_SOURCE = '@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol';
const VENDOR_PACKAGES = [
  '@pancakeswap/v3-core',
  '@pancakeswap/v3-periphery',
  '@uniswap/v2-periphery',
  '@uniswap/v4-periphery',
];

function listSol(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return listSol(path);
      return entry.name.endsWith('.sol') ? [path] : [];
    })
    .sort();
}

function packageVersion(name: string): string {
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
}

function inputHash(sources: Record<string, string>, solcVersion: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(solcVersion);
  for (const name of VENDOR_PACKAGES) hash.update(`${name}@${packageVersion(name)}`);
  for (const [name, content] of Object.entries(sources)) hash.update(`${name}\0${content}\0`);
  return hash.digest('hex');
}

/** Resolves an import the way solc asks for it: `@scope/...` from node_modules, anything else under contracts/. */
function findImport(path: string): { contents: string } | { error: string } {
  try {
    const file = path.startsWith('@') ? require.resolve(path) : join(contractsDir, path);
    return { contents: readFileSync(file, 'utf8') };
  } catch {
    return { error: `import not found: ${path}` };
  }
}

/** Where solc placed an immutable's value in the runtime code: byte offset and length (32). */
interface CodeRange {
  start: number;
  length: number;
}

interface SolcContract {
  abi: unknown[];
  evm: {
    bytecode: { object: string };
    deployedBytecode: { object: string; immutableReferences?: Record<string, CodeRange[]> };
  };
}

function writeAtomically(path: string, content: string): void {
  writeFileSync(`${path}.tmp`, content);
  renameSync(`${path}.tmp`, path);
}

function artifactConst(name: string, abi: unknown, bytecode: string, note: string): string {
  const hex = bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`;
  return `/** ${note} */\nexport const ${name} = {\n  abi: ${JSON.stringify(abi)} as const,\n  bytecode: '${hex}' as Hex,\n};\n`;
}

interface Solc {
  version(): string;
  compile(input: string, opts: object): string;
}

/** Folder of test harnesses compiled with solc 0.7.6, the compiler of PancakeSwap V3's own libraries. */
const HARNESS_07 = 'harness/';

/** Contracts whose ABIs go to `src-shared/generated/abis.ts`: exported name -> compiled contract name. */
const SHARED_ABIS: Record<string, string> = {
  launchFactoryAbi: 'LaunchFactory',
  tradeRouterAbi: 'TradeRouter',
  referralVaultAbi: 'ReferralVault',
  launchTokenAbi: 'LaunchToken',
  allowanceTransferAbi: 'IAllowanceTransfer',
};

interface Compiled {
  file: string;
  abi: unknown;
  bytecode: string;
  runtime: string;
  /** Every range of the runtime code that holds an immutable, sorted by offset. */
  immutables: CodeRange[];
}

function compileOurs(sources: Record<string, string>, solc: Solc, settings: object): Map<string, Compiled> {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: {
      ...settings,
      outputSelection: {
        '*': {
          '*': [
            'abi',
            'evm.bytecode.object',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.immutableReferences',
          ],
        },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }));
  const errors = (output.errors ?? []) as { severity: string; formattedMessage: string }[];
  for (const e of errors.filter((e) => e.severity !== 'error')) process.stderr.write(e.formattedMessage);
  const fatal = errors.filter((e) => e.severity === 'error');
  if (fatal.length > 0) {
    throw new Error(`solc failed:\n${fatal.map((e) => e.formattedMessage).join('\n')}`);
  }
  const compiled = new Map<string, Compiled>();
  for (const [file, contracts] of Object.entries(output.contracts as Record<string, Record<string, SolcContract>>)) {
    for (const [name, artifact] of Object.entries(contracts)) {
      const previous = compiled.get(name);
      if (previous !== undefined) {
        if (JSON.stringify(previous.abi) === JSON.stringify(artifact.abi)) continue;
        throw new Error(`two different contracts are named ${name}; rename one (second in ${file})`);
      }
      const { deployedBytecode } = artifact.evm;
      const immutables = Object.values(deployedBytecode.immutableReferences ?? {})
        .flat()
        .map(({ start, length }) => ({ start, length }))
        .sort((a, b) => a.start - b.start);
      compiled.set(name, {
        file,
        abi: artifact.abi,
        bytecode: artifact.evm.bytecode.object,
        runtime: deployedBytecode.object,
        immutables,
      });
    }
  }
  return compiled;
}

function artifactsModule(compiled: Map<string, Compiled>): string {
  return [...compiled]
    .map(([name, { file, abi, bytecode }]) => artifactConst(name, abi, bytecode, `${file}:${name}`))
    .join('\n');
}

/**
 * The runtime code of each contract that has any (interfaces and libraries of internal functions have none), and the
 * compiler that made it: what `eth_getCode` must answer at a deployment of this build, immutables aside.
 */
function runtimeModule(compiled: Map<string, Compiled>, compiler: { version: string; settings: object }): string {
  const entries = [...compiled]
    .filter(([, { runtime }]) => runtime.length > 0)
    .map(
      ([name, { file, runtime, immutables }]) =>
        `  /** ${file}:${name} */\n  ${name}: { code: '0x${runtime}' as Hex, immutables: ${JSON.stringify(immutables)} },`,
    );
  return (
    `/** The compiler and the settings every contract below was built with. */\n` +
    `export const COMPILER = ${JSON.stringify(compiler)} as const;\n\n` +
    '/** Runtime code by contract name, with the byte ranges of the code that hold immutables (set at deployment). */\n' +
    `export const RUNTIME_CODE: Record<string, { code: Hex; immutables: readonly { start: number; length: number }[] }> = {\n${entries.join('\n')}\n};\n`
  );
}

function sharedAbisModule(compiled: Map<string, Compiled>): string {
  return Object.entries(SHARED_ABIS)
    .map(([exported, name]) => {
      const contract = compiled.get(name);
      if (!contract) throw new Error(`no compiled contract is named ${name}, whose ABI src-shared needs`);
      return `/** ABI of ${contract.file}:${name} */\nexport const ${exported} = ${JSON.stringify(contract.abi)} as const;\n`;
    })
    .join('\n');
}

function vendorArtifacts(): string {
  const parts: string[] = [];
  for (const [name, path] of Object.entries(VENDOR_ARTIFACTS)) {
    const artifact = JSON.parse(readFileSync(require.resolve(path), 'utf8'));
    parts.push(artifactConst(name, artifact.abi, artifact.bytecode, `npm ${path}`));
  }
  const permit2 = readFileSync(require.resolve(PERMIT2_SOURCE), 'utf8').match(/hex"([0-9a-fA-F]+)"/);
  if (!permit2?.[1]) throw new Error(`no runtime bytecode found in ${PERMIT2_SOURCE}`);
  parts.push(
    `/** Permit2's canonical runtime bytecode (npm ${PERMIT2_SOURCE}); placed at its canonical address. */\n` +
      `export const PERMIT2_RUNTIME = '0x${permit2[1]}' as Hex;\n`,
  );
  return parts.join('\n');
}

export function compile(): { cached: boolean; ms: number } {
  const started = performance.now();
  const sources = Object.fromEntries(
    listSol(contractsDir).map((file) => [relative(contractsDir, file), readFileSync(file, 'utf8')]),
  );
  // Hash with the package version: loading solc itself takes most of a second.
  const hash = inputHash(sources, `${packageVersion('solc')}+${packageVersion('solc-0.7.6')}`);
  const hashFile = join(outDir, '.hash');
  const outputs = [
    join(outDir, 'contracts.ts'),
    join(outDir, 'harness.ts'),
    join(outDir, 'vendor.ts'),
    join(outDir, 'runtimeCode.ts'),
    join(sharedOutDir, 'abis.ts'),
  ];
  // Cached only when every output is there: a deleted file (or a folder new to this checkout) is written again.
  if (existsSync(hashFile) && readFileSync(hashFile, 'utf8') === hash && outputs.every((file) => existsSync(file))) {
    return { cached: true, ms: performance.now() - started };
  }
  const solc = require('solc') as Solc;
  const solc07 = require('solc-0.7.6') as Solc;
  const ours = Object.fromEntries(Object.entries(sources).filter(([name]) => !name.startsWith(HARNESS_07)));
  const harness = Object.fromEntries(Object.entries(sources).filter(([name]) => name.startsWith(HARNESS_07)));
  mkdirSync(outDir, { recursive: true });
  mkdirSync(sharedOutDir, { recursive: true });
  const header = (version: string) =>
    `// Generated by scripts/compile.ts from ${'`'}contracts/${'`'} with solc ${version}. Do not edit.\nimport type { Hex } from 'viem';\n\n`;
  const settings = { optimizer: { enabled: true, runs: 1000 }, viaIR: true, evmVersion: 'cancun' };
  const contracts = compileOurs(ours, solc, settings);
  const harnesses = compileOurs(harness, solc07, { optimizer: { enabled: true, runs: 800 }, evmVersion: 'istanbul' });
  writeAtomically(join(outDir, 'contracts.ts'), header(solc.version()) + artifactsModule(contracts));
  writeAtomically(join(outDir, 'harness.ts'), header(solc07.version()) + artifactsModule(harnesses));
  writeAtomically(join(outDir, 'vendor.ts'), header(solc.version()) + vendorArtifacts());
  writeAtomically(
    join(outDir, 'runtimeCode.ts'),
    header(solc.version()) + runtimeModule(contracts, { version: solc.version(), settings }),
  );
  writeAtomically(
    join(sharedOutDir, 'abis.ts'),
    `// Generated by scripts/compile.ts from ${'`'}contracts/${'`'} with solc ${solc.version()}: ABIs only. Do not edit.\n\n` +
      sharedAbisModule(contracts),
  );
  writeAtomically(hashFile, hash);
  return { cached: false, ms: performance.now() - started };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { cached, ms } = compile();
  if (!cached) console.log(`contracts compiled in ${Math.round(ms)} ms`);
}
