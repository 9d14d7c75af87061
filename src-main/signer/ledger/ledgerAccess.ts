import type { LedgerAccess } from '../signers';
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
    withSigner: (path, use) => withTransport((transport) => use(createLedgerSigner({ transport, path }))),
    addresses: (template, from, count) =>
      withTransport((transport) => listLedgerAddresses(transport, template, from, count)),
    toSignerError: (cause) => (cause instanceof LedgerError ? cause : toLedgerError(cause)).toSignerError(),
  };
}
