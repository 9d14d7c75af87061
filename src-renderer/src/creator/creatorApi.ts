import type { Address } from 'viem';
import type { components } from '../../../clients/ts/src/index';
import { answerOf, api } from '../api/client';
import type { BuildAnswer } from '../wallet/sendBuild';

/** GET /wallets/{address}/launches: the launches a wallet created, with what their liquidity earned. */
export type CreatorLaunches = components['schemas']['CreatorLaunches'];
export type CreatorLaunch = CreatorLaunches['launches'][number];
/** An amount of the answer: whole units, wei, symbol and dollars (null without a price). */
export type CreatorAmount = CreatorLaunch['burned'];
/** A collect build; it never needs approval steps, so `requires` is added empty for sendBuild. */
export type CollectBuild = components['schemas']['CollectBuild'] & BuildAnswer;

export async function fetchCreatorLaunches(wallet: Address): Promise<CreatorLaunches> {
  return answerOf(api.GET('/wallets/{address}/launches', { params: { path: { address: wallet } } }));
}

/** A collect of `token`'s fees, sent from the wallet: the royalty goes to the launch's recipient whoever sends it. */
export async function buildCollect(wallet: Address, token: Address): Promise<CollectBuild> {
  const build = await answerOf(api.POST('/build/collect', { body: { wallet, token } }));
  return { ...build, requires: [] };
}
