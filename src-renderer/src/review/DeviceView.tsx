import { Usb } from 'lucide-react';
import { ledgerModelName, modelWords } from '../../../src-shared/inspect/ledgerScreens';
import type { LedgerView } from '../../../src-shared/inspect/signingView';
import type { ReviewItem } from './reviewStore';

const BOX = 'rounded-xl border border-line px-4 py-3';

/** What the signing device will display, so the person compares it with this screen before approving there. */
export function DeviceView({ item }: { item: ReviewItem }) {
  const { device } = item;
  if (!device) return null;
  if (device.kind === 'message') {
    return (
      <section className={BOX} data-testid="review-device">
        <h3 className="flex items-center gap-2">
          {device.ledger && <Usb size={16} aria-hidden="true" />}
          {device.ledger ? 'Your Ledger will show' : 'What your key signs'}
        </h3>
        <p className="mt-1 text-sm text-muted">
          {device.hex
            ? 'The message holds characters a Ledger cannot display, so it shows the bytes as hex:'
            : 'The message text, page by page:'}
        </p>
        <pre className="review-message mt-2 rounded-lg bg-raised p-3" data-testid="device-message">
          {device.shown}
        </pre>
      </section>
    );
  }
  const { view } = device;
  if (!device.ledger) return <KeyView view={view} />;
  if (!view.screens) return <UnknownModelView view={view} />;
  return <ModelView view={view} screens={view.screens} />;
}

/**
 * The fields as the connected model shows them: a Flex or Stax scrolls them as one list, each value broken into the
 * device's lines; a Nano shows one field a page, its long values cut into pages of three lines.
 */
function ModelView({ view, screens }: { view: LedgerView; screens: NonNullable<LedgerView['screens']> }) {
  const { model, fields } = screens;
  const words = modelWords(model);
  const nano = model === 'nanoSP' || model === 'nanoX';
  return (
    <section className={BOX} data-testid="review-device" data-model={model}>
      <h3 className="flex items-center gap-2">
        <Usb size={16} aria-hidden="true" />
        Your {ledgerModelName(model)} will show
      </h3>
      <p className="mt-1 text-sm text-muted">
        "Blind signing ahead" ({words.acceptRisk}), then these {nano ? 'pages' : 'fields'}, broken into lines where the
        device breaks them. Compare the hash line by line before you {words.gesture}; if a line differs, reject on the
        device.
      </p>
      <UnknownTickerNote view={view} />
      <ol
        className={
          nano ? 'mt-3 grid grid-cols-[repeat(auto-fill,minmax(11.5rem,1fr))] gap-2' : 'mt-2 divide-y divide-line'
        }
        data-testid="device-fields"
      >
        {fields.map((field) => {
          const hash = field.title.startsWith(words.hashTitle);
          return (
            <li
              key={field.title}
              className={nano ? 'rounded-lg bg-raised px-2.5 py-2 text-center' : 'py-1.5'}
              data-testid={hash ? 'device-hash-field' : 'device-field'}
            >
              <p className="text-xs text-muted">{field.title}</p>
              <p className={hash ? 'font-mono text-[0.9375rem] font-semibold' : 'font-mono text-sm'}>
                {field.lines.map((line, index) => (
                  <span
                    // biome-ignore lint/suspicious/noArrayIndexKey: a value's lines in order; a line may repeat.
                    key={index}
                    className="block whitespace-pre"
                    data-testid={hash ? 'device-hash-line' : undefined}
                  >
                    {line}
                  </span>
                ))}
              </p>
              {field.title === 'To' && view.to.name && (
                <p className="text-xs text-muted" data-testid="device-to-name">
                  {view.to.name} (the app's name for it; the device shows only the address)
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <p className="mt-2 text-sm" data-testid="device-gesture">
        Last, "Accept risk and sign transaction": {words.gesture}.
      </p>
    </section>
  );
}

/** Where the Ethereum app has no ticker for the chain: what its "???" stands for, which the device does not say. */
function UnknownTickerNote({ view }: { view: LedgerView }) {
  if (!view.unknownTicker) return null;
  return (
    <p className="mt-2 rounded-lg bg-raised px-3 py-2 text-sm" data-testid="device-unknown-ticker">
      The Ethereum app has no name for network {view.network}, so the device writes ??? where the currency goes: the
      amount <span className="tabular">{view.unknownTicker.amount}</span> and max fees{' '}
      <span className="tabular">{view.unknownTicker.maxFees}</span>.
    </p>
  );
}

/** A Ledger whose model the app does not know: the values whole, the hash in groups of four to compare. */
function UnknownModelView({ view }: { view: LedgerView }) {
  return (
    <section className={BOX} data-testid="review-device">
      <h3 className="flex items-center gap-2">
        <Usb size={16} aria-hidden="true" />
        Your Ledger will show
      </h3>
      <p className="mt-1 text-sm text-muted">
        "Blind signing ahead", then these fields. The app does not know this Ledger's model, so it cannot break the
        values where the device does: compare the hash character by character; if it differs, reject on the device.
      </p>
      <UnknownTickerNote view={view} />
      <Fields view={view} amount={view.amount} maxFees={view.maxFees} />
      <HashGroups hash={view.hash} />
    </section>
  );
}

/** A local key signs: no device, so the amounts are named in BNB whatever the chain. */
function KeyView({ view }: { view: LedgerView }) {
  return (
    <section className={BOX} data-testid="review-device">
      <h3>What your key signs</h3>
      <Fields
        view={view}
        amount={view.unknownTicker?.amount ?? view.amount}
        maxFees={view.unknownTicker?.maxFees ?? view.maxFees}
      />
      <HashGroups hash={view.hash} />
    </section>
  );
}

function Fields({ view, amount, maxFees }: { view: LedgerView; amount: string; maxFees: string }) {
  const row = 'flex items-baseline justify-between gap-4 py-1.5 text-sm';
  return (
    <dl className="mt-2 divide-y divide-line">
      <div className={row} data-testid="device-from">
        <dt className="text-muted">From</dt>
        <dd className="text-right">
          <code className="break-all">{view.from}</code>
        </dd>
      </div>
      <div className={row} data-testid="device-amount">
        <dt className="text-muted">Amount</dt>
        <dd className="tabular">{amount}</dd>
      </div>
      <div className={row} data-testid="device-to">
        <dt className="text-muted">To</dt>
        <dd className="text-right">
          <code className="break-all">{view.to.address}</code>
          {view.to.name && <span className="text-muted"> ({view.to.name})</span>}
        </dd>
      </div>
      <div className={row} data-testid="device-max-fees">
        <dt className="text-muted">Max fees</dt>
        <dd className="tabular">{maxFees}</dd>
      </div>
      <div className={row} data-testid="device-network">
        <dt className="text-muted">Network</dt>
        <dd>{view.network}</dd>
      </div>
    </dl>
  );
}

/** The hash in groups of four, to compare character by character; the text stays the whole hash. */
function HashGroups({ hash }: { hash: string }) {
  const groups = hash.slice(2).match(/.{1,4}/g) ?? [];
  return (
    <>
      <p className="mt-2 mb-1.5 text-sm text-muted">Transaction hash</p>
      <code
        className="grid grid-cols-8 gap-x-2 gap-y-1 rounded-lg bg-raised px-3 py-2.5 font-mono text-[0.9375rem] font-semibold tracking-wide"
        data-testid="device-hash"
      >
        <span className="col-span-8 text-xs font-normal text-muted">0x</span>
        {groups.map((group, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the groups of one hash, in order; the same group may repeat.
          <span key={index}>{group}</span>
        ))}
      </code>
    </>
  );
}
