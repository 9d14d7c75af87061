import type { Address } from 'viem';
import type { BuildAnswer, UnsignedTxJson, UserRequest } from '../wallet/sendBuild';
import type { ReviewItem } from './reviewStore';

/** One transaction of an action on the review screen: decoded from our ABIs and checked against the request. */
export function reviewTransaction(input: {
  answer: BuildAnswer;
  tx: UnsignedTxJson;
  step: string;
  title: string;
  stepLabel: string;
  request: UserRequest;
  wallet: Address;
}): ReviewItem {
  return {
    title: input.title,
    stepLabel: input.stepLabel,
    fields: [],
    checks: [{ id: 'decoder', ok: false, message: 'The decoder is not wired in yet.' }],
    raw: input.tx,
  };
}
