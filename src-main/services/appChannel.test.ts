import { expect, it } from 'vitest';
import { lineLogger } from '../log/createLogger';
import { SignerError } from '../signer/signerError';
import type { Signers } from '../signer/signers';
import { type AppChannel, AppChannelError, createAppChannel } from './appChannel';

/** A channel whose signers fail as a Ledger does when the person rejects: the device's status word underneath. */
function channelFailingWith(error: Error, lines: string[]): AppChannel {
  const signers = {
    unlockLocalKey: () => {
      throw error;
    },
  } as unknown as Signers;
  return createAppChannel({
    info: {} as never,
    signers,
    sender: {} as never,
    activity: {} as never,
    market: {} as never,
    log: lineLogger((line) => lines.push(line)),
  });
}

it("keeps the signer's failure and what it kept of the device as the cause, and logs the chain, not the window", async () => {
  const device = Object.assign(new Error('Ledger device: Condition of use not satisfied (0x6985)'), {
    statusCode: 0x6985,
  });
  const rejected = new SignerError('LEDGER_REJECTED', 'You rejected it on the Ledger.', 'Sign again to go on.', {
    cause: device,
  });
  const lines: string[] = [];
  const failure = await channelFailingWith(rejected, lines)
    .invoke('signer.unlock', { passphrase: 'x' })
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(AppChannelError);
  const error = failure as AppChannelError;
  expect(error.failure).toEqual({
    code: 'LEDGER_REJECTED',
    message: 'You rejected it on the Ledger.',
    fix: 'Sign again to go on.',
  });
  expect(error.cause).toBe(rejected);
  expect((error.cause as Error).cause).toBe(device);
  expect(lines.join('\n')).toContain('caused by Error: Ledger device: Condition of use not satisfied (0x6985)');
});

it('logs nothing for a failure with nothing underneath', async () => {
  const lines: string[] = [];
  const locked = new SignerError('SIGNER_LOCKED', 'The local key is locked.', 'Unlock it.');
  const failure = await channelFailingWith(locked, lines)
    .invoke('signer.unlock', { passphrase: 'x' })
    .catch((error: unknown) => error);
  expect((failure as AppChannelError).failure.code).toBe('SIGNER_LOCKED');
  expect(lines).toEqual([]);
});
