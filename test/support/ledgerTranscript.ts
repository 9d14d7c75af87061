import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type TransportType from '@ledgerhq/hw-transport';

const requireCjs = createRequire(import.meta.url);
const Transport = (requireCjs('@ledgerhq/hw-transport') as { default: typeof TransportType }).default;

/** Where the real Ethereum app's recorded exchanges are kept (their README says how they were recorded). */
export const TRANSCRIPTS_DIR = join(import.meta.dirname, '..', 'fixtures', 'ledger-transcripts');

export interface RecordedExchange {
  apdu: Buffer;
  /** The device's answer: data, then the status word. */
  answer: Buffer;
}

/**
 * Reads `<name>.apdus`: for each APDU sent a line `=> HEX`, then the device's answer `<= HEX` (the format of
 * hw-transport-mocker's RecordStore).
 */
export function readTranscript(name: string): RecordedExchange[] {
  const lines = readFileSync(join(TRANSCRIPTS_DIR, `${name}.apdus`), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const exchanges: RecordedExchange[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const sent = /^=> ([0-9a-f]+)$/i.exec(lines[i] ?? '')?.[1];
    const got = /^<= ([0-9a-f]+)$/i.exec(lines[i + 1] ?? '')?.[1];
    if (!sent || !got) throw new Error(`${name}.apdus line ${i + 1}: expected "=> HEX" then "<= HEX"`);
    exchanges.push({ apdu: Buffer.from(sent, 'hex'), answer: Buffer.from(got, 'hex') });
  }
  return exchanges;
}

/** The inputs the transcripts were recorded with. */
export function transcriptInputs(): {
  path: string;
  tx: Record<string, string | number>;
  message: string;
} {
  return JSON.parse(readFileSync(join(TRANSCRIPTS_DIR, 'inputs.json'), 'utf8'));
}

/**
 * A device that is the recording: each APDU must be the next recorded one, byte for byte, and gets the recorded
 * answer. Any other APDU (or one more than recorded) is noted in `mismatches` and fails the exchange, so a signer that
 * sends anything the real app did not get cannot pass.
 */
export class TranscriptTransport extends Transport {
  readonly mismatches: string[] = [];
  private next = 0;

  constructor(private readonly exchanges: readonly RecordedExchange[]) {
    super();
  }

  /** Whether every recorded APDU was sent. */
  get finished(): boolean {
    return this.next === this.exchanges.length;
  }

  override async exchange(apdu: Buffer): Promise<Buffer> {
    const recorded = this.exchanges[this.next];
    if (!recorded?.apdu.equals(apdu)) {
      const mismatch = `APDU ${this.next + 1}: sent ${apdu.toString('hex')}, recorded ${recorded?.apdu.toString('hex') ?? 'nothing'}`;
      this.mismatches.push(mismatch);
      throw new Error(mismatch);
    }
    this.next += 1;
    return recorded.answer;
  }
}
