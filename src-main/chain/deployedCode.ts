import { type Address, type Hex, hexToBytes, keccak256, type PublicClient } from 'viem';
import { COMPILER, RUNTIME_CODE } from './generated/runtimeCode';

/** A contract's runtime code as the compiler gave it, with the byte ranges its immutables are written into. */
export interface RuntimeBuild {
  code: Hex;
  immutables: readonly { start: number; length: number }[];
}

export type CodeComparison = { equal: true } | { equal: false; reason: string };

/** The runtime code of our contract `name` in this build; throws when the build has no such contract. */
export function runtimeBuildOf(name: string): RuntimeBuild {
  const build = RUNTIME_CODE[name];
  if (!build) throw new Error(`the build has no runtime code for ${name}; run npm run contracts`);
  return build;
}

/** The solc version our contracts are compiled with, and its settings (optimizer, viaIR, EVM version). */
export const BUILD_COMPILER = COMPILER;

/**
 * Whether code read from the chain is this build's runtime code. Immutables are set by the constructor, so their bytes
 * are left out of the comparison; everything else must be equal, the metadata hash at the end included (it hashes
 * the sources and the settings, so a contract compiled from other sources differs there even when its logic does
 * not).
 *
 * @example compareRuntimeCode(await client.getCode({ address }), runtimeBuildOf('ServiceConfig')) // { equal: true }
 */
export function compareRuntimeCode(onChain: Hex | undefined, build: RuntimeBuild): CodeComparison {
  const deployed = onChain && onChain !== '0x' ? hexToBytes(onChain) : new Uint8Array();
  const built = hexToBytes(build.code);
  if (deployed.length === 0) return { equal: false, reason: 'there is no code at its address' };
  if (deployed.length !== built.length) {
    return { equal: false, reason: `its code is ${deployed.length} bytes long, the build's ${built.length}` };
  }
  const masked = new Uint8Array(deployed);
  for (const { start, length } of build.immutables) masked.fill(0, start, start + length);
  const first = masked.findIndex((byte, i) => byte !== built[i]);
  if (first === -1) return { equal: true };
  const metadataStart = built.length - metadataLength(built);
  if (first >= metadataStart) {
    return {
      equal: false,
      reason:
        'its code is the same but its metadata hash differs: it was compiled from other sources or with other ' +
        'compiler settings',
    };
  }
  return { equal: false, reason: `its code differs from the build from byte ${first} on` };
}

/** solc's CBOR metadata at the end of the code, with the two bytes of its length; 0 when there is none. */
function metadataLength(code: Uint8Array): number {
  if (code.length < 2) return 0;
  const length = ((code[code.length - 2] ?? 0) << 8) + (code[code.length - 1] ?? 0) + 2;
  return length <= code.length ? length : 0;
}

/** The deployed code did not match the build: `contract` names it. */
export class CodeMismatchError extends Error {
  override readonly name = 'CodeMismatchError';
  readonly fix: string;

  constructor(
    readonly contract: string,
    readonly address: Address,
    reason: string,
  ) {
    super(`${contract} at ${address} is not the contract this build compiled: ${reason}.`);
    this.fix =
      'Nothing was written. Check that this checkout is the one you mean to deploy (git status, npm run contracts) ' +
      'and that the RPC is the network you chose, then deploy again.';
  }
}

/**
 * Reads the code at `address` as of `blockNumber` (the block that deployed it, so a load-balanced node a block behind
 * is asked about a block it has, or says it has not got it yet) and throws a CodeMismatchError naming `contract` when
 * it is not this build's. Returns the hash of the code on chain (what EXTCODEHASH answers), for the record.
 */
export async function checkDeployedCode(
  client: PublicClient,
  contract: { name: string; address: Address; blockNumber?: bigint },
  build: RuntimeBuild = runtimeBuildOf(contract.name),
): Promise<Hex> {
  const code = await client.getCode({
    address: contract.address,
    ...(contract.blockNumber === undefined ? {} : { blockNumber: contract.blockNumber }),
  });
  const comparison = compareRuntimeCode(code, build);
  if (!comparison.equal) throw new CodeMismatchError(contract.name, contract.address, comparison.reason);
  return keccak256(code as Hex);
}
