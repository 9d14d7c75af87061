import type { components } from '../../../clients/ts/src/index';
import { answerOf, api } from './client';

type Schemas = components['schemas'];

/** The spec's Positions (GET /wallets/{address}/positions), with the totals per pair currency added. */
export type Positions = Schemas['Positions'];
export type PositionRow = Schemas['Position'];

/** A wallet's positions in the tokens it traded here; sold-out ones too with `closed`. */
export function fetchPositions(wallet: string, closed: boolean): Promise<Positions> {
  return answerOf(
    api.GET('/wallets/{address}/positions', {
      params: { path: { address: wallet }, query: { closed: closed ? 'true' : 'false' } },
    }),
  );
}
