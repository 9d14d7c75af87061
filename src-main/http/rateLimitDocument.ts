import { RATE_LIMIT, RATE_LIMIT_POLICY } from './middleware/rateLimit';

const DRAFT = 'the IETF draft "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-11)';

/** The fields every answer of a rate-limited operation carries, and a refusal's Retry-After, as the document names them. */
const HEADERS = {
  [RATE_LIMIT_POLICY]: {
    description:
      `The budget this request counted in, as in ${DRAFT}: the policy's name ("quotes", "builds", "challenges", ` +
      '"uploads"), q requests in w seconds, and pk (the key\'s id, as bytes) when an API key\'s own budget counted it ' +
      "instead of the caller's address's. Sent on every answer the limit counted, errors included.",
    schema: { type: 'string' },
    example: '"quotes";q=120;w=60',
  },
  [RATE_LIMIT]: {
    description:
      `What is left of that budget, as in ${DRAFT}: r requests, until t seconds from now, when the oldest request ` +
      'counted leaves the sliding minute and one more is allowed. A refusal (429) has r=0 and t equal to Retry-After.',
    schema: { type: 'string' },
    example: '"quotes";r=119;t=60',
  },
  'Retry-After': {
    description: 'Seconds to wait before the same request can succeed.',
    schema: { type: 'integer', minimum: 1 },
    example: 12,
  },
};

interface Operation {
  responses?: Record<string, { headers?: Record<string, unknown> }>;
}

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * Documents the rate-limit fields on the operations of `document` whose path `counted` names: RateLimit-Policy and
 * RateLimit on their successes and on 429, and Retry-After on 429. The document is changed in place and returned.
 */
export function withRateLimitHeaders<D extends { paths?: object }>(document: D, counted: (path: string) => boolean): D {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation | undefined> | undefined>;
  let used = false;
  for (const [path, item] of Object.entries(paths)) {
    if (!item || !counted(path)) continue;
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if (!status.startsWith('2') && status !== '429') continue;
        response.headers = {
          ...response.headers,
          [RATE_LIMIT_POLICY]: ref(RATE_LIMIT_POLICY),
          [RATE_LIMIT]: ref(RATE_LIMIT),
          ...(status === '429' ? { 'Retry-After': ref('Retry-After') } : {}),
        };
        used = true;
      }
    }
  }
  if (used) {
    const holder = document as { components?: { headers?: object } };
    holder.components = { ...holder.components, headers: { ...holder.components?.headers, ...HEADERS } };
  }
  return document;
}
