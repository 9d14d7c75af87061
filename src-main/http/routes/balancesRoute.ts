import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { BalancesQuerySchema, BalancesSchema } from '../../../src-shared/schema/tokens';
import type { ChainContext } from '../../chain/connectChain';
import type { TokenRegistry } from '../../services/tokenRegistry';
import { readWalletBalances } from '../../services/walletBalances';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

const route = createRoute({
  method: 'get',
  path: '/balances',
  summary: 'What a wallet holds of a token, of its pair currency, and of BNB',
  description: 'Read from the chain, all at one block.',
  request: { query: BalancesQuerySchema },
  responses: {
    200: { description: 'Balances', content: { 'application/json': { schema: BalancesSchema } } },
    ...errorResponses(400, 503),
  },
});

/** GET /balances: what a trade panel shows the wallet holds, without the page reading the chain itself. */
export function balancesRoute(app: OpenAPIHono<AppEnv>, chain: ChainContext, tokens: TokenRegistry): void {
  app.openapi(route, async (c) => {
    const { wallet, token: address } = c.req.valid('query');
    const facts = await tokens.get(address, 'token');
    const balances = await readWalletBalances(chain, wallet, facts);
    const { currency: token } = balances.token;
    const { currency: pair } = balances.pair;
    return c.json(
      {
        wallet: balances.wallet,
        bnbWei: balances.bnbWei.toString(),
        token: {
          address: token.address,
          symbol: token.symbol,
          decimals: token.decimals,
          wei: balances.token.wei.toString(),
        },
        pair: {
          address: pair.address,
          symbol: pair.symbol,
          decimals: pair.decimals,
          wei: balances.pair.wei.toString(),
          native: balances.pair.native,
        },
      },
      200,
    );
  });
}
