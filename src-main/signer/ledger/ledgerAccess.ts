import type { Signer } from '../signer';
import type { LedgerAccess } from '../signers';
import { assertBlindSigningOn, readLedgerConfiguration } from './ledgerConfiguration';
import { LedgerError, toLedgerError } from './ledgerErrors';
import { createLedgerSigner, listLedgerAddresses } from './ledgerSigner';
import { openLedgerTransport } from './openLedgerTransport';

type Transport = Awaited<ReturnType<typeof openLedgerTransport>>;

/**
 * The Ledger as the Signers use it: a transport opened for each request and closed after it, so an unplugged and
 * replugged device, or one Ledger Live held meanwhile, works on the next try without restarting the app.
 *
 * @example new Signers(dataDir, cipher, ledgerAccess()) // the real device over USB HID
 */
export function ledgerAccess(open: () => Promise<Transport> = () => openLedgerTransport()): LedgerAccess {
  const withTransport = async <T>(use: (transport: Transport) => Promise<T>): Promise<T> => {
    const transport = await open();
    try {
      return await use(transport);
    } finally {
      await transport.close().catch(() => undefined);
    }
  };
  return {
    withSigner: (path, use) => withTransport((transport) => use(checkingBlindSigning(transport, path))),
    addresses: (template, from, count) =>
      withTransport((transport) => listLedgerAddresses(transport, template, from, count)),
    configuration: () => withTransport(readLedgerConfiguration),
    toSignerError: (cause) => (cause instanceof LedgerError ? cause : toLedgerError(cause)).toSignerError(),
  };
}

/**
 * The signer on `path`, asking the app first whether blind signing is on before any transaction with contract data:
 * with it off the device only answers 0x6a80 to the chunk where the data starts, and the person would learn why only
 * from its screen.
 */
function checkingBlindSigning(transport: Transport, path: string): Signer {
  const signer = createLedgerSigner({ transport, path });
  return {
    ...signer,
    signTransaction: async (tx) => {
      if (tx.data !== undefined && tx.data !== '0x') await assertBlindSigningOn(transport);
      return signer.signTransaction(tx);
    },
  };
}
