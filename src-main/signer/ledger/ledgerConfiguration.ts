import type Transport from '@ledgerhq/hw-transport';
import type { LedgerConfiguration } from '../../../src-shared/appChannelTypes';
import { ledgerModelOf } from '../../../src-shared/inspect/ledgerScreens';
import { LedgerError, toLedgerError } from './ledgerErrors';

const CLA = 0xe0;
const INS_GET_APP_CONFIGURATION = 0x06;
/**
 * Bit 0 of the answer's flags byte: "arbitrary data signature enabled by user" in app-ethereum's doc/ethapp.adoc
 * (GET APP CONFIGURATION), which its settings screen now calls Blind signing.
 */
const FLAG_BLIND_SIGNING = 0x01;

/**
 * Asks the Ethereum app for its configuration (GET APP CONFIGURATION: flags, then the version's three bytes), so that
 * blind signing being off is known before the first transaction rather than from the device refusing it. Nothing shows
 * on the device. Failures are LedgerErrors.
 *
 * @example (await readLedgerConfiguration(transport)).blindSigning // false on a new Ledger
 */
export async function readLedgerConfiguration(transport: Transport): Promise<LedgerConfiguration> {
  let answer: Buffer;
  try {
    answer = await transport.send(CLA, INS_GET_APP_CONFIGURATION, 0x00, 0x00);
  } catch (error) {
    throw toLedgerError(error, 'configuration');
  }
  // The answer ends with the status word; the data before it is flags || major || minor || patch.
  if (answer.length < 4 + 2) {
    throw new LedgerError('unknown', {
      message: `The Ethereum app answered its configuration in ${Math.max(0, answer.length - 2)} bytes, not 4.`,
      fix: 'Update the Ethereum app in Ledger Live (My Ledger), then try again.',
    });
  }
  const [flags = 0, major, minor, patch] = answer;
  return {
    blindSigning: (flags & FLAG_BLIND_SIGNING) !== 0,
    version: `${major}.${minor}.${patch}`,
    // hw-transport-node-hid names the model when it opens the device (openLedgerTransport: from the USB product id).
    model: ledgerModelOf(transport.deviceModel?.id),
  };
}

/**
 * Refuses, before the transaction goes to the device, when the app would refuse it anyway: blind signing off and
 * contract data to sign. The person gets the way to turn it on instead of the device's refusal half-way through.
 */
export async function assertBlindSigningOn(transport: Transport): Promise<void> {
  if (!(await readLedgerConfiguration(transport)).blindSigning) throw new LedgerError('blind-signing-disabled');
}
