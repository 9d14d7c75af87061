import type { Address } from 'viem';
import type { components, paths } from '../../../clients/ts/src/index';
import { answerOf, api } from '../api/client';

/** The spec's Launch build response (the fields the page shows and sendBuild sends); `token` is known before sending. */
export type LaunchBuildAnswer = components['schemas']['LaunchBuild'] & { token: Address };

type LaunchBody = paths['/build/launch']['post']['requestBody']['content']['application/json'];

/** Builds the launch for `wallet` (POST /build/launch); a refusal is thrown as an ApiRequestError with its field. */
export async function buildLaunch(wallet: Address, body: Record<string, unknown>): Promise<LaunchBuildAnswer> {
  // The form's body is checked by the service, which answers each wrong field by name; the type is not narrowed here.
  const launch = { ...body, wallet } as LaunchBody;
  return (await answerOf(api.POST('/build/launch', { body: launch }))) as LaunchBuildAnswer;
}
