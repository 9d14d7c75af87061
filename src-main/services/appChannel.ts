import { type Address, getAddress, type Hex } from 'viem';
import { z } from 'zod';
import {
  APP_OPERATIONS,
  type AppInfo,
  type AppOperation,
  type MarketDollars,
  type WalletFunded,
} from '../../src-shared/appChannelTypes';
import { publicLinkBaseProblem } from '../core/appPages';
import { SignerError } from '../signer/signerError';
import type { Signers } from '../signer/signers';
import type { ActivityStore } from '../store/activityStore';
import { readAppSettings, writeAppSettings } from '../store/appSettingsFile';
import type { TransactionSender, UnsignedTx } from './transactionSender';
import { WalletError } from './walletError';

export type { AppInfo, AppOperation };

/** What the app's own UI may ask main for: its signers, sending, and the activity list. Never served to bots. */
export interface AppChannel {
  invoke(operation: string, input: unknown): Promise<unknown>;
}

/** A refused operation, as the UI shows it. */
export interface AppChannelFailure {
  code: string;
  message: string;
  fix?: string;
  /** The same request can succeed later unchanged (a Ledger busy with another program). */
  retry?: boolean;
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits');
const wei = z.string().regex(/^\d{1,78}$/, 'a wei amount is a string of digits');
const label = z.string().min(1).max(200);

const unsignedTx = z.object({
  chainId: z.number().int().positive(),
  to: address,
  data: z
    .string()
    .regex(/^0x([0-9a-fA-F]{2})*$/, 'data is 0x and whole bytes of hex')
    .max(262_146),
  value: wei,
  gas: wei.optional(),
});

const OPERATIONS = {
  'app.info': z.object({}).strict(),
  'signer.status': z.object({}).strict(),
  'signer.importKey': z
    .object({ privateKey: z.string().max(200), passphrase: z.string().max(1024).optional() })
    .strict(),
  'signer.unlock': z.object({ passphrase: z.string().max(1024).optional() }).strict(),
  'signer.lock': z.object({}).strict(),
  'signer.forget': z.object({}).strict(),
  'signer.use': z.object({ kind: z.enum(['local', 'ledger']) }).strict(),
  'ledger.addresses': z
    .object({
      template: z.enum(['live', 'legacy']),
      from: z.number().int().min(0).max(1_000_000),
      count: z.number().int().min(1).max(10),
    })
    .strict(),
  'ledger.use': z
    .object({ path: z.string().regex(/^(\d+'?\/){2,9}\d+'?$/, "a derivation path like 44'/60'/0'/0/0") })
    .strict(),
  'tx.prepare': z.object({ tx: unsignedTx }).strict(),
  'ledger.configuration': z.object({}).strict(),
  'tx.send': z
    .object({
      tx: unsignedTx,
      prepared: z.string().uuid().optional(),
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
  'settings.get': z.object({}).strict(),
  'settings.save': z
    .object({
      network: z.enum(['devnet', 'testnet', 'mainnet', 'fork']),
      rpcUrl: z
        .string()
        .max(2048)
        .regex(/^(https?|wss?):\/\/[^\s]+$/, 'an RPC URL starts with http://, https://, ws:// or wss://')
        .nullable(),
      forkBlock: z.number().int().min(0).max(1e12).nullable().optional(),
      dataDir: z.string().min(1).max(4096).nullable(),
      rateLimits: z.boolean(),
      ledgerTemplate: z.enum(['live', 'legacy']),
      thirdPartyFetches: z.boolean().optional(),
      publicLinkBase: z
        .string()
        .max(512)
        .nullable()
        .optional()
        .superRefine((text, ctx) => {
          const problem = text ? publicLinkBaseProblem(text) : null;
          if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
        }),
    })
    .strict()
    .refine((s) => s.network === 'devnet' || s.rpcUrl !== null, {
      message: 'testnet and mainnet need an RPC URL, and a rehearsal the RPC of the chain it forks',
      path: ['rpcUrl'],
    })
    .refine((s) => s.network === 'fork' || s.forkBlock == null, {
      message: 'a fork block belongs to a rehearsal (network fork) only',
      path: ['forkBlock'],
    }),
  'market.dollars': z.object({}).strict(),
  'wallet.balance': z.object({ address }).strict(),
  'wallet.fund': z.object({ address }).strict(),
} as const satisfies Record<AppOperation, z.ZodType>;

/** A transaction from the page, its amounts as bigints. */
function unsignedOf(tx: z.infer<typeof unsignedTx>): UnsignedTx {
  return {
    chainId: tx.chainId,
    to: getAddress(tx.to) as Address,
    data: tx.data as Hex,
    value: BigInt(tx.value),
    ...(tx.gas === undefined ? {} : { gas: BigInt(tx.gas) }),
  };
}

export class AppChannelError extends Error {
  constructor(readonly failure: AppChannelFailure) {
    super(failure.message);
    this.name = 'AppChannelError';
  }
}

/**
 * The one table of what the app's UI can ask main, validated here, so the Electron IPC handlers and the headless
 * HTTP channel are thin and cannot differ. Every failure becomes an AppChannelError with a code and a fix.
 */
export function createAppChannel(deps: {
  info: AppInfo;
  signers: Signers;
  sender: TransactionSender;
  activity: ActivityStore;
  /** The dollar prices of the listed currencies, and a wallet's BNB, read from the chain. */
  market: { dollars(): Promise<MarketDollars>; bnbOf(address: Address): Promise<bigint> };
  /** Sends test BNB from a test account: on the devnet and on a rehearsal only. */
  faucet?: (address: Address) => Promise<WalletFunded>;
}): AppChannel {
  const { signers, sender, activity, market } = deps;
  const handlers: { [K in AppOperation]: (input: z.infer<(typeof OPERATIONS)[K]>) => unknown } = {
    'app.info': () => deps.info,
    'signer.status': () => signers.status(),
    'signer.importKey': ({ privateKey, passphrase }) => signers.importLocalKey(privateKey, passphrase),
    'signer.unlock': ({ passphrase }) => signers.unlockLocalKey(passphrase),
    'signer.lock': () => signers.lockLocalKey(),
    'signer.forget': () => signers.forgetLocalKey(),
    'signer.use': ({ kind }) => signers.use(kind),
    'ledger.addresses': ({ template, from, count }) =>
      signers.ledgerAddresses(deps.info.ledgerPaths[template], from, count),
    'ledger.use': ({ path }) => signers.useLedger(path),
    'ledger.configuration': () => signers.ledgerConfiguration(),
    'tx.prepare': ({ tx }) => sender.prepare(unsignedOf(tx)),
    'tx.send': ({ tx, ...rest }) => sender.signAndSend({ ...rest, tx: unsignedOf(tx) }),
    'tx.wait': ({ id }) => sender.wait(id),
    'message.sign': (input) => sender.signMessage(input),
    'activity.list': ({ limit }) => activity.list(limit),
    'settings.get': () => ({ saved: deps.info.settingsFile ? readAppSettings(deps.info.settingsFile).settings : null }),
    'settings.save': (settings) => {
      if (!deps.info.settingsFile) {
        throw new WalletError('INVALID_INPUT', 'This run saves no settings.', 'Start it with flags instead.');
      }
      writeAppSettings(deps.info.settingsFile, settings);
      return { saved: settings, restartNeeded: true };
    },
    'market.dollars': () => market.dollars(),
    'wallet.balance': async ({ address: wallet }) => ({
      address: getAddress(wallet),
      bnbWei: (await market.bnbOf(getAddress(wallet))).toString(),
    }),
    'wallet.fund': ({ address: wallet }) => {
      if (!deps.faucet) {
        throw new WalletError(
          'INVALID_INPUT',
          `There is no test BNB on ${deps.info.network}: its BNB is real.`,
          'Fund the wallet from an exchange or another wallet, or rehearse on a fork (--fork URL) first.',
        );
      }
      return deps.faucet(getAddress(wallet));
    },
  };

  return {
    async invoke(operation, input) {
      if (!Object.hasOwn(OPERATIONS, operation)) {
        throw new AppChannelError({
          code: 'UNKNOWN_OPERATION',
          message: `The app has no operation ${String(operation).slice(0, 60)}.`,
          fix: `Use one of ${APP_OPERATIONS.join(', ')}.`,
        });
      }
      const op = operation as AppOperation;
      const parsed = OPERATIONS[op].safeParse(input ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppChannelError({
          code: 'INVALID_INPUT',
          message: `${op}: ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}`,
          fix: 'Send the fields the operation takes.',
        });
      }
      try {
        return await (handlers[op] as (input: unknown) => unknown)(parsed.data);
      } catch (cause) {
        if (cause instanceof SignerError || cause instanceof WalletError) {
          const retry = cause instanceof SignerError && cause.retry;
          throw new AppChannelError({
            code: cause.code,
            message: cause.message,
            fix: cause.fix,
            ...(retry && { retry }),
          });
        }
        throw cause;
      }
    },
  };
}
