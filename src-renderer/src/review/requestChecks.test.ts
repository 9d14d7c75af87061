import { describe, expect, it } from 'vitest';
import type { BuildAnswer, UserRequest } from '../wallet/sendBuild';
import { requestChecks } from './requestChecks';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const request: UserRequest = { kind: 'buy', token: TOKEN, amount: '0.05', exact: 'in', slippageBps: 50 };
const answer = {
  wallet: WALLET,
  token: { address: TOKEN },
  side: 'buy',
  exact: 'in',
  pay: { amount: '0.05' },
  slippageBps: 50,
} as unknown as BuildAnswer;

describe('requestChecks', () => {
  it("says what the person typed on the page, and what the bot asked for in a bot's request, with the same ids", () => {
    const mine = requestChecks(answer, request, WALLET);
    const bots = requestChecks(answer, request, WALLET, 'bot');
    expect(bots.map((check) => [check.id, check.ok])).toEqual(mine.map((check) => [check.id, check.ok]));
    expect(mine.map((check) => check.message).join(' ')).toContain('you typed');
    const wording = bots.map((check) => check.message).join(' ');
    expect(wording).toContain('the 0.05 the bot asked for');
    expect(wording).toContain('0.5% slippage the bot asked for');
    expect(wording).not.toMatch(/you typed|you chose|on the page/);
  });

  it('checks a collect is for the signer and the token whose Collect was pressed', () => {
    const collect: UserRequest = { kind: 'collect', token: TOKEN };
    const built = { wallet: WALLET, token: { address: TOKEN } } as unknown as BuildAnswer;
    expect(requestChecks(built, collect, WALLET).map((check) => [check.id, check.ok])).toEqual([
      ['request-wallet', true],
      ['request-token', true],
    ]);
    const other = { ...built, token: { address: WALLET } } as unknown as BuildAnswer;
    expect(requestChecks(other, collect, WALLET).find((check) => check.id === 'request-token')?.ok).toBe(false);
  });
});
