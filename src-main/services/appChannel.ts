import { type Address, getAddress } from 'viem';
import type { z } from 'zod';
import {
  APP_OPERATIONS,
  type AppInfo,
  type AppOperation,
  type MarketDollars,
  type ThirdPartyFetchesChoice,
  type WalletFunded,
} from '../../src-shared/appChannelTypes';
import { APP_CHANNEL_INPUTS } from '../../src-shared/schema/appChannel';
import { toWei } from '../../src-shared/schema/unsignedTx';
import { describeCauses, ServiceError, type ServiceErrorOptions } from '../core/serviceError';
import type { Logger } from '../log/createLogger';
import { SignerError } from '../signer/signerError';
import type { Signers } from '../signer/signers';
import type { ActivityStore } from '../store/activityStore';
import { readAppSettings, writeAppSettings } from '../store/appSettingsFile';
import type { TransactionSender } from './transactionSender';
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

export class AppChannelError extends ServiceError {
  constructor(
    readonly failure: AppChannelFailure,
    options: ServiceErrorOptions = {},
  ) {
    super(failure.message, options);
    this.name = 'AppChannelError';
  }
}

/**
 * Applies the person's choice about fetching other people's logos now, and keeps it for the next starts in the
 * settings file (when this run has one that reads: an unreadable file is never overwritten).
 */
function chooseThirdPartyFetches(
  deps: { info: AppInfo; applyThirdPartyFetches?: (on: boolean) => void },
  on: boolean,
): ThirdPartyFetchesChoice {
  deps.applyThirdPartyFetches?.(on);
  deps.info.thirdPartyFetches = on;
  deps.info.thirdPartyFetchesChosen = true;
  const file = deps.info.settingsFile;
  if (!file) return { thirdPartyFetches: on, keptIn: null };
  const { settings, problem } = readAppSettings(file);
  if (problem) return { thirdPartyFetches: on, keptIn: null };
  writeAppSettings(file, { ...settings, thirdPartyFetches: on });
  return { thirdPartyFetches: on, keptIn: file };
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
  /** Applies the person's choice about fetching other people's logos at once (the media store and its launches). */
  applyThirdPartyFetches?: (on: boolean) => void;
  /** Sends test BNB from a test account: on the devnet and on a rehearsal only. */
  faucet?: (address: Address) => Promise<WalletFunded>;
  /** Where a failure's cause (the node's or the device's answer) is written; the window gets only code and fix. */
  log?: Logger;
}): AppChannel {
  const { signers, sender, activity, market } = deps;
  const handlers: { [K in AppOperation]: (input: z.output<(typeof APP_CHANNEL_INPUTS)[K]>) => unknown } = {
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
    'tx.prepare': ({ tx }) => sender.prepare(toWei(tx)),
    'tx.send': ({ tx, ...rest }) => sender.signAndSend({ ...rest, tx: toWei(tx) }),
    'tx.wait': ({ id }) => sender.wait(id),
    'message.sign': (input) => sender.signMessage(input),
    'activity.list': ({ limit }) => activity.list(limit),
    'settings.get': () => ({ saved: deps.info.settingsFile ? readAppSettings(deps.info.settingsFile).settings : null }),
    'settings.save': (settings) => {
      if (!deps.info.settingsFile) {
        throw new WalletError('INVALID_INPUT', 'This run saves no settings.', 'Start it with flags instead.');
      }
      // The logos choice is made with its own switch, which applies at once; a form saved without it keeps it.
      const kept = readAppSettings(deps.info.settingsFile).settings.thirdPartyFetches;
      const saved =
        settings.thirdPartyFetches === undefined && kept !== undefined
          ? { ...settings, thirdPartyFetches: kept }
          : settings;
      writeAppSettings(deps.info.settingsFile, saved);
      return { saved, restartNeeded: true };
    },
    'settings.thirdPartyFetches': ({ on }) => chooseThirdPartyFetches(deps, on),
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
      if (!Object.hasOwn(APP_CHANNEL_INPUTS, operation)) {
        throw new AppChannelError({
          code: 'UNKNOWN_OPERATION',
          message: `The app has no operation ${String(operation).slice(0, 60)}.`,
          fix: `Use one of ${APP_OPERATIONS.join(', ')}.`,
        });
      }
      const op = operation as AppOperation;
      const parsed = APP_CHANNEL_INPUTS[op].safeParse(input ?? {});
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
          if (cause.cause !== undefined) deps.log?.warn(`${op} ${cause.code}: ${describeCauses(cause)}`);
          throw new AppChannelError(
            {
              code: cause.code,
              message: cause.message,
              fix: cause.fix,
              ...(retry && { retry }),
            },
            // The signer's or the wallet's error, and what it kept of the node or the device under it, for the log.
            { cause },
          );
        }
        throw cause;
      }
    },
  };
}
