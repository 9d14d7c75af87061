import { z } from 'zod';
import { AddressSchema } from './common';
import { addressParam, closedBody, decimalField, patternField } from './requestRules';

/** The kinds of notification, each switched on or off in Settings. */
export const ALERT_KIND_NAMES = ['request', 'launch', 'crossing', 'transaction'] as const;

/** PUT and DELETE /watchlist/tokens/{address}'s path. */
export const WatchedTokenParamsSchema = z.object({
  address: addressParam('address').meta({ description: 'the token, launched by this service' }),
});

/** PUT and DELETE /watchlist/creators/{address}'s path. */
export const WatchedCreatorParamsSchema = z.object({
  address: addressParam('address').meta({ description: "the creator's wallet" }),
});

/** A choice of a body, refused with INVALID_BODY naming the field and what it may be. */
function choiceField(field: string, values: readonly string[]) {
  return patternField(new RegExp(`^(${values.join('|')})$`), (value) => ({
    code: 'INVALID_BODY',
    field,
    message: `${field} must be ${values.join(' or ')}, not ${typeof value === 'string' ? `"${value.slice(0, 40)}"` : typeof value}`,
    fix: `Send ${field} as one of ${values.join(', ')}.`,
  })).meta({ enum: [...values] });
}

const AlertRuleFields = {
  metric: choiceField('alert.metric', ['price', 'cap']).meta({
    description: '`price`: of one whole token; `cap`: the market cap (the whole supply at that price)',
  }),
  direction: choiceField('alert.direction', ['above', 'below']).meta({
    description: '`above`: fires when the value rises to the figure or past it; `below`: when it falls to it or under',
  }),
  currency: choiceField('alert.currency', ['usd', 'bnb']).meta({ description: 'the figure is in dollars or in BNB' }),
  figure: decimalField('alert.figure').meta({
    description: 'the figure in whole dollars or BNB, a decimal string of at most 18 places, above zero',
    example: '0.0005',
  }),
};

/** PUT /watchlist/tokens/{address}'s body. */
export const WatchTokenBodySchema = closedBody(
  z.object({
    alert: z
      .object(AlertRuleFields)
      .strict()
      .nullable()
      .optional()
      .meta({ description: 'the alert rule; null or left out: none (a rule set before is removed)' }),
  }),
);

export const AlertRuleSchema = z
  .object({
    metric: z.enum(['price', 'cap']),
    direction: z.enum(['above', 'below']),
    currency: z.enum(['usd', 'bnb']),
    figure: z.string().meta({ description: 'in whole dollars or BNB' }),
    state: z.enum(['unknown', 'armed', 'fired']).meta({
      description:
        'where the value last stood: `unknown` until first seen, `armed` on the near side (a crossing fires), `fired` ' +
        'past the figure (it fires again only after coming back past it by 1%)',
    }),
  })
  .meta({ id: 'AlertRule' });

export const WatchlistSchema = z
  .object({
    tokens: z.array(
      z.object({
        address: AddressSchema,
        addedAt: z.string().meta({ description: 'ISO 8601' }),
        alert: AlertRuleSchema.nullable(),
      }),
    ),
    creators: z.array(z.object({ address: AddressSchema, addedAt: z.string().meta({ description: 'ISO 8601' }) })),
  })
  .meta({ id: 'Watchlist' });

const kindsShape = Object.fromEntries(ALERT_KIND_NAMES.map((kind) => [kind, z.boolean()])) as Record<
  (typeof ALERT_KIND_NAMES)[number],
  z.ZodBoolean
>;

export const AlertKindsSchema = z.object(kindsShape).meta({
  id: 'AlertKinds',
  description:
    "Which notifications are on: `request` a bot's prepared request waiting for a signature, `launch` a watched " +
    "creator's launch, `crossing` a watched token's alert rule, `transaction` the app's own transaction confirmed " +
    'or failed',
});

/** PUT /alerts/kinds' body: the kinds to switch, others left as they are. */
export const AlertKindsBodySchema = closedBody(
  z.object(
    Object.fromEntries(ALERT_KIND_NAMES.map((kind) => [kind, z.boolean().optional()])) as Record<
      (typeof ALERT_KIND_NAMES)[number],
      z.ZodOptional<z.ZodBoolean>
    >,
  ),
);

/** GET /alerts' query. */
export const AlertsQuerySchema = z.object({
  after: z
    .string()
    .regex(/^\d{1,16}$/, 'after must be an alert id (digits) from an earlier answer')
    .optional()
    .meta({ description: "an alert id from an earlier answer's `latest`; left out, no alerts, only `latest`" }),
});

export const AlertSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(ALERT_KIND_NAMES),
    title: z.string(),
    body: z.string(),
    path: z.string().meta({ description: "the app's page it is about, e.g. /token/0x… or /requests" }),
    at: z.string().meta({ description: 'ISO 8601' }),
  })
  .meta({ id: 'Alert' });

export const AlertFeedSchema = z
  .object({
    alerts: z.array(AlertSchema),
    latest: z.number().int().meta({ description: 'send as `after` next time' }),
  })
  .meta({ id: 'AlertFeed' });
