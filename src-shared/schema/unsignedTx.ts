import { type Address, getAddress, type Hex } from 'viem';
import { z } from 'zod';
import { AddressSchema } from './common';

/** A wei amount a transaction carries: a uint256 in decimal digits. */
const TxWeiSchema = z.string().regex(/^\d{1,78}$/, 'a wei amount is a string of digits');

/**
 * The spec's Unsigned transaction, as every build answers it (`tx`, and `tx` of each step in `requires`), as the app's
 * UI hands it to main to send, and as the inspector reads it: the one wire form, amounts as strings of digits.
 */
export const UnsignedTxSchema = z
  .object({
    chainId: z.number().int().positive(),
    to: AddressSchema.transform((to) => to as Address),
    data: z
      .string()
      .regex(/^0x([0-9a-fA-F]{2})*$/, 'data is 0x and whole bytes of hex')
      .transform((data) => data as Hex)
      .meta({ description: 'call data; send exactly as given' }),
    value: TxWeiSchema.meta({ description: 'BNB to send, in wei' }),
    gas: TxWeiSchema.optional().meta({
      description: 'simulated gas plus a 20% margin; absent while a step in requires is still needed',
    }),
  })
  .meta({ id: 'UnsignedTx' });

export type UnsignedTx = z.output<typeof UnsignedTxSchema>;

/** The same as it comes over the wire, before it is read: what a build answer's type says of it. */
export type UnsignedTxJson = z.input<typeof UnsignedTxSchema>;

/** The same transaction inside main, its amounts as bigints (what the sender fills and signs). */
export interface UnsignedTxWei extends Omit<UnsignedTx, 'value' | 'gas'> {
  value: bigint;
  gas?: bigint;
}

/** One approval to send and wait for, in order, before the main transaction. */
export const StepSchema = z
  .object({
    step: z.string().meta({ description: 'what it is for: approve-permit2, approve-router or approve-factory' }),
    explain: z.string(),
    tx: UnsignedTxSchema,
  })
  .meta({ id: 'Step', description: 'a one-time transaction to send and wait for, in order, before the main tx' });

/** A step as a build answers it (`requires`). */
export type Step = z.output<typeof StepSchema>;

/**
 * An unsigned transaction prepared for signing: the nonce, the fees and the gas filled by main, as the review screen
 * shows it (from main's tx.prepare) and the signer signs it, amounts as strings of digits.
 */
export const PreparedTxSchema = z.object({
  type: z.literal('eip1559'),
  chainId: z.number().int().positive(),
  to: AddressSchema.transform((to) => to as Address),
  data: z
    .string()
    .regex(/^0x([0-9a-fA-F]{2})*$/)
    .transform((data) => data as Hex),
  value: TxWeiSchema,
  gas: TxWeiSchema,
  nonce: z.number().int().nonnegative(),
  maxFeePerGas: TxWeiSchema,
  maxPriorityFeePerGas: TxWeiSchema,
});

export type PreparedTx = z.output<typeof PreparedTxSchema>;

/**
 * A read transaction as main signs it: amounts as bigints, `to` checksummed.
 *
 * @example toWei({ chainId: 56, to: '0x…', data: '0x', value: '10' }) // { …, value: 10n }
 */
export function toWei(tx: UnsignedTx): UnsignedTxWei {
  return {
    chainId: tx.chainId,
    to: getAddress(tx.to),
    data: tx.data,
    value: BigInt(tx.value),
    ...(tx.gas === undefined ? {} : { gas: BigInt(tx.gas) }),
  };
}
