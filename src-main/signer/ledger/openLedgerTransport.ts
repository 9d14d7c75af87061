import { createRequire } from 'node:module';
import type Transport from '@ledgerhq/hw-transport';
import { LedgerError, toLedgerError } from './ledgerErrors';

/** What is needed of hw-transport-node-hid's class: open a device by HID path, '' for the first Ledger found. */
export interface LedgerTransportOpener {
  open(descriptor: string): Promise<Transport>;
}

export interface OpenLedgerTransportOptions {
  /** How long opening may take before the Ledger counts as unreachable. */
  timeoutMs?: number;
  /** Loads the USB transport; hw-transport-node-hid unless replaced (tests replace it: no device, no native code). */
  loadTransport?: () => LedgerTransportOpener;
}

export const LEDGER_OPEN_TIMEOUT_MS = 5_000;

const requireCjs = createRequire(import.meta.url);

/** The parts of Ledger's USB libraries the opener uses: the HID transport, the device list, the model table. */
export interface HidParts {
  TransportNodeHid: LedgerTransportOpener;
  getDevices(): { path?: string; productId: number }[];
  identifyUSBProductId(productId: number): Transport['deviceModel'];
}

/**
 * hw-transport-node-hid's opener, naming the device's model from its USB product id. Opened by HID path, the library
 * names it only from the USB product string, which its table does not know for every model (it has "Europa" for the
 * Flex); the product id's high byte is the model on every Ledger, as the library's own device list reads it.
 */
export function hidOpener({ TransportNodeHid, getDevices, identifyUSBProductId }: HidParts): LedgerTransportOpener {
  return {
    open: async (descriptor) => {
      const device = descriptor ? undefined : getDevices()[0];
      // No device found: the library's own open says so, with its error.
      if (!device?.path) return TransportNodeHid.open(descriptor);
      const transport = await TransportNodeHid.open(device.path);
      transport.deviceModel = identifyUSBProductId(device.productId) ?? transport.deviceModel;
      return transport;
    },
  };
}

function loadNodeHid(): LedgerTransportOpener {
  return hidOpener({
    TransportNodeHid: (requireCjs('@ledgerhq/hw-transport-node-hid') as { default: LedgerTransportOpener }).default,
    getDevices: (requireCjs('@ledgerhq/hw-transport-node-hid-noevents') as Pick<HidParts, 'getDevices'>).getDevices,
    identifyUSBProductId: (requireCjs('@ledgerhq/devices') as Pick<HidParts, 'identifyUSBProductId'>)
      .identifyUSBProductId,
  });
}

/**
 * Opens the first Ledger on USB. The USB layer (node-hid and usb, native addons) is loaded here, on first use, and
 * never by importing this module: an app whose native USB binding cannot load still starts, and says why when the
 * person reaches for the Ledger. Every failure is a LedgerError, 'disconnected' unless the device said otherwise.
 */
export async function openLedgerTransport(options: OpenLedgerTransportOptions = {}): Promise<Transport> {
  let opener: LedgerTransportOpener;
  try {
    opener = (options.loadTransport ?? loadNodeHid)();
  } catch (cause) {
    throw new LedgerError('disconnected', {
      message: `The USB layer is unavailable, so no Ledger can be reached: ${cause instanceof Error ? cause.message : String(cause)}`,
      fix: 'Reinstall the app. On Linux, check that libusb is installed (libusb-1.0-0).',
      cause,
    });
  }

  const timeoutMs = options.timeoutMs ?? LEDGER_OPEN_TIMEOUT_MS;
  const opening = Promise.resolve().then(() => opener.open(''));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LedgerError('disconnected', { message: `The Ledger did not open within ${timeoutMs} ms.` })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([opening, timedOut]);
  } catch (error) {
    // A device that opens after the timeout is closed again, so that it is free for the next attempt.
    opening.then((late) => late.close()).catch(() => undefined);
    const mapped = toLedgerError(error);
    if (mapped.reason !== 'unknown') throw mapped;
    // node-hid throws a plain Error when the device is there but cannot be opened: held by another app, or no access.
    throw new LedgerError('disconnected', {
      message: `The Ledger was found but could not be opened: ${error instanceof Error ? error.message : String(error)}`,
      fix: "Close other apps using the Ledger (such as Ledger Live). On Linux, install Ledger's udev rules.",
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}
