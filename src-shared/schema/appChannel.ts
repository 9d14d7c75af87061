import { z } from 'zod';
import type { AppOperation } from '../appChannelTypes';
import { privateRpcUrlProblem } from '../privateRpcUrl';
import { publicLinkBaseProblem } from '../publicLinkBase';
import { AddressSchema } from './common';
import { UnsignedTxSchema } from './unsignedTx';

/*
 * What each app-channel operation takes (IPC in Electron, POST /app/<operation> headless). Main validates every input
 * with these before it acts; the page's calls are typed by them.
 */

/** Call data main takes to sign: 128 KiB of bytes, far above any build's. */
const MAX_TX_DATA_CHARS = 262_146;
const label = z.string().min(1).max(200);

/** A transaction the page hands main to prepare or send. */
const PageTxSchema = UnsignedTxSchema.refine((tx) => tx.data.length <= MAX_TX_DATA_CHARS, {
  message: `data is at most ${MAX_TX_DATA_CHARS} characters`,
  path: ['data'],
});

export const NETWORK_NAMES = ['devnet', 'testnet', 'mainnet', 'fork'] as const;
export const LEDGER_TEMPLATES = ['live', 'legacy'] as const;

/** The settings saved for the next start (app-settings.json), as the settings form sends them. */
export const AppSettingsSchema = z
  .object({
    /** `fork`: the embedded EVM forked from another chain (a rehearsal), under a chain id of its own. */
    network: z.enum(NETWORK_NAMES),
    /** The RPC of testnet or mainnet; on `fork`, the RPC of the chain forked. */
    rpcUrl: z
      .string()
      .max(2048)
      .regex(/^(https?|wss?):\/\/[^\s]+$/, 'an RPC URL starts with http://, https://, ws:// or wss://')
      .nullable(),
    /** On `fork`: the block to fork from; absent or null to resume the last rehearsal of that RPC, or the head. */
    forkBlock: z.number().int().min(0).max(1e12).nullable().optional(),
    dataDir: z.string().min(1).max(4096).nullable(),
    rateLimits: z.boolean(),
    ledgerTemplate: z.enum(LEDGER_TEMPLATES),
    /**
     * Whether the app fetches the metadata and logos of launches other people made: the person's choice, asked on the
     * first run (absent: not chosen yet, so off). Each fetch shows this computer's IP address to whoever launched;
     * off, those launches show a placeholder.
     */
    thirdPartyFetches: z.boolean().optional(),
    /** The public base of shared referral links (an https:// site); absent for the app's own scheme. */
    publicLinkBase: z
      .string()
      .max(512)
      .nullable()
      .optional()
      .superRefine((text, ctx) => {
        const problem = text ? publicLinkBaseProblem(text) : null;
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    /**
     * A block builder's private RPC: the network's launches (and, with `privateTrades`, its buys and sells) are sent
     * there instead of the public RPC, so they never wait in the public mempool. Applies to the network saved with it.
     */
    privateRpcUrl: z
      .string()
      .nullable()
      .optional()
      .superRefine((text, ctx) => {
        const problem = text ? privateRpcUrlProblem(text) : null;
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    /** Buys and sells go through the private RPC too (launches always do when one is set). */
    privateTrades: z.boolean().optional(),
    /**
     * The most per gas the app signs for, in gwei (default 10: 200 times BSC's floor of 0.05): an RPC asking more is
     * refused, naming the RPC. Null or absent for the default.
     */
    maxGasPriceGwei: z.number().gt(0).max(100_000).nullable().optional(),
  })
  .strict()
  .refine((s) => s.network === 'devnet' || s.rpcUrl !== null, {
    message: 'testnet and mainnet need an RPC URL, and a rehearsal the RPC of the chain it forks',
    path: ['rpcUrl'],
  })
  .refine((s) => s.network === 'fork' || s.forkBlock == null, {
    message: 'a fork block belongs to a rehearsal (network fork) only',
    path: ['forkBlock'],
  })
  .refine((s) => !s.privateTrades || Boolean(s.privateRpcUrl), {
    message: 'sending trades privately needs a private RPC URL: fill it in, or untick the box',
    path: ['privateTrades'],
  });

const none = z.object({}).strict();
const walletInput = z.object({ address: AddressSchema }).strict();

/** Every operation's input, in the order of APP_OPERATIONS. */
export const APP_CHANNEL_INPUTS = {
  'app.info': none,
  'signer.status': none,
  'signer.importKey': z
    .object({ privateKey: z.string().max(200), passphrase: z.string().max(1024).optional() })
    .strict(),
  'signer.unlock': z.object({ passphrase: z.string().max(1024).optional() }).strict(),
  'signer.lock': none,
  'signer.forget': none,
  'signer.use': z.object({ kind: z.enum(['local', 'ledger']) }).strict(),
  'ledger.addresses': z
    .object({
      template: z.enum(LEDGER_TEMPLATES),
      from: z.number().int().min(0).max(1_000_000),
      count: z.number().int().min(1).max(10),
    })
    .strict(),
  'ledger.use': z
    .object({ path: z.string().regex(/^(\d+'?\/){2,9}\d+'?$/, "a derivation path like 44'/60'/0'/0/0") })
    .strict(),
  'tx.prepare': z.object({ tx: PageTxSchema }).strict(),
  'ledger.configuration': none,
  'tx.send': z
    .object({
      tx: PageTxSchema,
      prepared: z.string().uuid().optional(),
      /** The ids of main's warnings the person ticked on the review (counted headless, with --allow-warned-signing). */
      confirmedWarnings: z.array(z.string().min(1).max(64)).max(32).optional(),
      groupId: z.string().uuid().optional(),
      step: z.string().min(1).max(64),
      kind: z.string().min(1).max(32),
      title: label,
    })
    .strict(),
  'tx.wait': z.object({ id: z.string().uuid() }).strict(),
  'message.sign': z
    .object({
      message: z.string().min(1).max(4096),
      kind: z.string().min(1).max(32),
      title: label,
      confirmedUnknown: z.boolean().optional(),
    })
    .strict(),
  'activity.list': z.object({ limit: z.number().int().min(1).max(500).optional() }).strict(),
  'settings.get': none,
  'settings.save': AppSettingsSchema,
  'settings.thirdPartyFetches': z.object({ on: z.boolean() }).strict(),
  'market.dollars': none,
  'wallet.balance': walletInput,
  'wallet.fund': walletInput,
} as const satisfies Record<AppOperation, z.ZodType>;

/** What an operation takes, as the page sends it. */
export type AppChannelInput<K extends AppOperation> = z.input<(typeof APP_CHANNEL_INPUTS)[K]>;
