import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Address } from 'viem';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import { readAddress } from '../../core/units/readAddress';
import type { BuildService } from '../../services/buildService';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { AddressSchema, errorResponses } from '../schemas';
import { readTradeInput, TradeQuoteSchema, tradeJson } from '../tradeInput';

const UnsignedTxSchema = z
  .object({
    chainId: z.number().int(),
    to: AddressSchema,
    data: z.string().openapi({ description: 'call data; send exactly as given' }),
    value: z.string().openapi({ description: 'BNB to send, in wei' }),
    gas: z.string().optional().openapi({
      description: 'simulated gas plus a 20% margin; absent while a step in requires is still needed',
    }),
  })
  .openapi('UnsignedTx');

const StepSchema = z
  .object({ step: z.string(), explain: z.string(), tx: UnsignedTxSchema })
  .openapi('Step', { description: 'a one-time transaction to send and wait for, in order, before the main tx' });

const TradeBuildSchema = TradeQuoteSchema.extend({
  wallet: AddressSchema,
  referrer: z.object({ address: AddressSchema, bps: z.number().int() }).nullable(),
  referrerNote: z.string().optional().openapi({
    description: "present only when the API key's wallet was offered as the referrer and could not be used: why",
  }),
  requires: z.array(StepSchema),
  tx: UnsignedTxSchema,
  simulation: z
    .object({
      ran: z.boolean(),
      ok: z.boolean(),
      afterSteps: z
        .object({
          ran: z.boolean(),
          ok: z.boolean(),
          revert: z.object({ name: z.string(), args: z.array(z.string()), data: z.string() }).optional(),
        })
        .optional()
        .openapi({
          description:
            'Extra: with steps in requires, whether the trade would succeed once they are done (simulated on a copy of the chain; ran is false where no copy can be made)',
        }),
    })
    .openapi({ description: 'ran is false while a step in requires is still needed; ok: would succeed if sent now' }),
  cost: z.object({ gasPriceWei: z.string(), maxWei: z.string(), max: z.string() }),
  expiresAt: z.string().openapi({ description: 'the on-chain deadline, ISO 8601' }),
  explain: z.string(),
}).openapi('TradeBuild');

const BuildBodySchema = z.object({
  wallet: z.string().openapi({ description: 'the wallet that will sign and send' }),
  token: z.string(),
  amount: z.string().openapi({ description: 'exact in: what is spent; exact out: what is received (whole units)' }),
  exact: z.enum(['in', 'out']).optional(),
  slippageBps: z.number().int().optional().openapi({ description: '1 to 5000, default 50' }),
  referrer: z.string().nullable().optional().openapi({
    description: 'paid the referral cut inside the trade; null for nobody',
  }),
});

function routeFor(side: 'buy' | 'sell') {
  return createRoute({
    method: 'post',
    path: `/build/${side}`,
    summary:
      side === 'buy'
        ? 'Build an unsigned buy, simulated from the wallet'
        : 'Build an unsigned sell, simulated from the wallet',
    request: { body: { content: { 'application/json': { schema: BuildBodySchema } }, required: true } },
    responses: {
      200: { description: 'Trade (build fields)', content: { 'application/json': { schema: TradeBuildSchema } } },
      ...errorResponses(400, 413, 422, 429, 503),
    },
  });
}

/**
 * Builds a trade from a request body as POST /build/buy and /build/sell take it, answered as the spec's Trade. The
 * API key's wallet, when a key was sent, is offered as the referrer if the body names none.
 */
export async function buildTradeJson(
  tokens: TokenRegistry,
  builds: BuildService,
  side: 'buy' | 'sell',
  body: Record<string, unknown>,
  keyWallet?: Address,
) {
  const wallet = readAddress(body.wallet, 'wallet');
  const referrer =
    body.referrer === undefined || body.referrer === null ? null : readAddress(body.referrer, 'referrer');
  const input = await readTradeInput({ ...body, side } as never, tokens);
  const build = await builds.buildTrade({
    ...input,
    wallet,
    referrer,
    ...(keyWallet && body.referrer === undefined ? { keyReferrer: keyWallet } : {}),
  });
  return {
    ...tradeJson(build.quote),
    wallet: build.wallet,
    referrer: build.referrer,
    ...(build.referrerNote ? { referrerNote: build.referrerNote } : {}),
    requires: build.requires,
    tx: build.tx,
    simulation: build.simulation,
    cost: {
      gasPriceWei: build.cost.gasPriceWei.toString(),
      maxWei: build.cost.maxWei.toString(),
      max: formatDecimalAmount(build.cost.maxWei, 18),
    },
    expiresAt: build.expiresAt.toISOString(),
    explain: build.explain,
  };
}

export function buildTradeRoute(app: OpenAPIHono<AppEnv>, tokens: TokenRegistry, builds: BuildService): void {
  for (const side of ['buy', 'sell'] as const) {
    // Documented, but read by our own body rules (any Content-Type, spec error codes) rather than the validator.
    app.openAPIRegistry.registerPath(routeFor(side));
    app.post(`/build/${side}`, async (c) =>
      c.json(await buildTradeJson(tokens, builds, side, c.get('body'), c.get('apiKey')?.wallet), 200),
    );
  }
}
