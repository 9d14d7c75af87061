import type { Address } from 'viem';
import type { UserRequest } from '../wallet/sendBuild';
import type { Intent } from './intentsApi';

const text = (value: unknown): string => (typeof value === 'string' ? value : String(value ?? ''));

/**
 * What the bot asked for, as the review screen checks every transaction against it: taken from the request's own body
 * (with the build endpoints' defaults), never from the build the service answers, so a build that differs is caught.
 */
export function userRequestOf(intent: Pick<Intent, 'kind' | 'request'>): UserRequest {
  const body = intent.request;
  if (intent.kind === 'prepare_launch') {
    return {
      kind: 'launch',
      name: text(body.name),
      symbol: text(body.symbol),
      firstBuy: typeof body.firstBuy === 'string' ? body.firstBuy : null,
    };
  }
  return {
    kind: intent.kind === 'prepare_buy' ? 'buy' : 'sell',
    token: text(body.token) as Address,
    amount: text(body.amount),
    exact: body.exact === 'out' ? 'out' : 'in',
    slippageBps: typeof body.slippageBps === 'number' ? body.slippageBps : 50,
  };
}

/**
 * One line saying what the request does, for the review title and the reject dialog: the token by its symbol when it
 * is known (its address otherwise), amounts as asked.
 */
export function describeRequest(request: UserRequest, symbol?: string): string {
  switch (request.kind) {
    case 'buy':
      return request.exact === 'in'
        ? `Buy ${symbol ?? request.token}, spending ${request.amount} of its pair currency (slippage ${request.slippageBps / 100}%)`
        : `Buy ${request.amount} ${symbol ?? `of ${request.token}`} (slippage ${request.slippageBps / 100}%)`;
    case 'sell':
      return request.exact === 'in'
        ? `Sell ${request.amount} ${symbol ?? `of ${request.token}`} (slippage ${request.slippageBps / 100}%)`
        : `Sell ${symbol ?? request.token} for ${request.amount} of its pair currency (slippage ${request.slippageBps / 100}%)`;
    case 'launch':
      return `Launch ${request.name} (${request.symbol})${request.firstBuy ? ` with a first buy of ${request.firstBuy}` : ''}`;
    case 'claim':
      return 'Claim referral weeks';
    case 'collect':
      return `Collect the trading fees of ${symbol ?? request.token}`;
  }
}
