import { formatLocalTime } from '../../../src-shared/format/times';
import type { Intent } from './intentsApi';
import { quotedLabel } from './keyLabel';

/**
 * Who asked for a prepared request and when, in one line for the Requests list and the review screen: "this app", or
 * the API key by its label (escaped and cut, so it cannot close its quotes: see keyLabel.ts; SourceText shows it as a
 * token of its own) and its wallet (in full: a short form could be matched by a look-alike address), then the local
 * time it asked.
 *
 * @example intentSourceText(intent) // 'API key “trading bot” of wallet 0x3C44…93BC, at 28 Nov 2026, 14:03'
 */
export function intentSourceText(intent: Pick<Intent, 'source'>): string {
  const { source } = intent;
  const at = formatLocalTime(source.at);
  switch (source.kind) {
    case 'app':
      return `this app, at ${at}`;
    case 'key':
      return source.key.label === null
        ? `an API key of wallet ${source.key.wallet} (its name was not recorded), at ${at}`
        : `API key ${quotedLabel(source.key.label)} of wallet ${source.key.wallet}, at ${at}`;
    case 'unknown':
      return `an unknown source (made before requests named theirs), at ${at}`;
  }
}
