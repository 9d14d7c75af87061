import { type UnsignedTx, UnsignedTxSchema } from '../schema/unsignedTx';

/** What is wrong with each field of an Unsigned transaction, as the inspector reports it. */
const FIELD_PROBLEMS: Record<string, string> = {
  chainId: 'is not a positive integer',
  to: 'is not an address',
  data: 'is not 0x and whole bytes',
  value: 'is not a wei string',
  gas: 'is not a string of digits',
};

/**
 * Reads an Unsigned transaction from untrusted JSON with the API's own schema, so the inspector never decodes something
 * that is not one. Answers the reason when it is not: the first field at fault, in the order the spec lists them.
 *
 * @example readUnsignedTx({ chainId: 56, to: '0x…', data: '0x', value: '0' }) // { tx: {…} }
 */
export function readUnsignedTx(value: unknown, path = 'tx'): { tx: UnsignedTx } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: `${path} is not an object` };
  }
  const read = UnsignedTxSchema.safeParse(value);
  if (read.success) return { tx: read.data };
  const field = String(read.error.issues[0]?.path[0] ?? '');
  return { error: `${path}.${field} ${FIELD_PROBLEMS[field] ?? 'is not valid'}` };
}
