import type { Address, Hex } from 'viem';

/** The spec's Unsigned transaction, as a build answers it. */
export interface UnsignedTx {
  chainId: number;
  to: Address;
  data: Hex;
  /** BNB sent with it, in wei (string of digits). */
  value: string;
  gas?: string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DATA = /^0x([0-9a-fA-F]{2})*$/;
const DIGITS = /^\d+$/;

/**
 * Reads an Unsigned transaction from untrusted JSON, field by field, so the inspector never decodes something that
 * is not one. Answers the reason when it is not.
 *
 * @example readUnsignedTx({ chainId: 56, to: '0x…', data: '0x', value: '0' }) // { tx: {…} }
 */
export function readUnsignedTx(value: unknown, path = 'tx'): { tx: UnsignedTx } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: `${path} is not an object` };
  }
  const v = value as Record<string, unknown>;
  if (typeof v.chainId !== 'number' || !Number.isSafeInteger(v.chainId) || v.chainId <= 0) {
    return { error: `${path}.chainId is not a positive integer` };
  }
  if (typeof v.to !== 'string' || !ADDRESS.test(v.to)) return { error: `${path}.to is not an address` };
  if (typeof v.data !== 'string' || !DATA.test(v.data)) return { error: `${path}.data is not 0x and whole bytes` };
  if (typeof v.value !== 'string' || !DIGITS.test(v.value)) return { error: `${path}.value is not a wei string` };
  if (v.gas !== undefined && (typeof v.gas !== 'string' || !DIGITS.test(v.gas))) {
    return { error: `${path}.gas is not a string of digits` };
  }
  return {
    tx: {
      chainId: v.chainId,
      to: v.to as Address,
      data: v.data as Hex,
      value: v.value,
      ...(v.gas !== undefined ? { gas: v.gas as string } : {}),
    },
  };
}
