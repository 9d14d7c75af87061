import { bytesToHex, type Hex, hexToBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import { compareRuntimeCode, runtimeBuildOf } from './deployedCode';

const router = runtimeBuildOf('TradeRouter');

/** The build's code with `change` applied to its bytes. */
function edited(code: Hex, change: (bytes: Uint8Array) => void): Hex {
  const bytes = hexToBytes(code);
  change(bytes);
  return bytesToHex(bytes);
}

describe('compareRuntimeCode', () => {
  it('takes the build as it is, and with any values in its immutables', () => {
    expect(router.immutables.length).toBeGreaterThan(0);
    expect(compareRuntimeCode(router.code, router)).toEqual({ equal: true });
    const withImmutables = edited(router.code, (bytes) => {
      for (const { start, length } of router.immutables) bytes.fill(0xab, start, start + length);
    });
    expect(compareRuntimeCode(withImmutables, router)).toEqual({ equal: true });
  });

  it('refuses a byte changed outside the immutables, saying where', () => {
    const at = (router.immutables[0]?.start ?? 0) - 1;
    const changed = edited(router.code, (bytes) => {
      bytes[at] = (bytes[at] ?? 0) ^ 1;
    });
    expect(compareRuntimeCode(changed, router)).toEqual({
      equal: false,
      reason: `its code differs from the build from byte ${at} on`,
    });
  });

  it('refuses other metadata (other sources or settings) even when the logic is the same', () => {
    const changed = edited(router.code, (bytes) => {
      // A byte of the metadata's IPFS hash, which sits just before the CBOR's last fields and its length.
      const at = bytes.length - 20;
      bytes[at] = (bytes[at] ?? 0) ^ 1;
    });
    const comparison = compareRuntimeCode(changed, router);
    expect(comparison.equal).toBe(false);
    expect(comparison.equal === false && comparison.reason).toMatch(/metadata hash differs/);
  });

  it('refuses no code, and code of another length', () => {
    expect(compareRuntimeCode('0x', router)).toEqual({ equal: false, reason: 'there is no code at its address' });
    expect(compareRuntimeCode(undefined, router).equal).toBe(false);
    expect(compareRuntimeCode(runtimeBuildOf('ServiceConfig').code, router).equal).toBe(false);
  });
});
