import type { KeyHolder } from '../services/apiKeys';

/** Hono context shared by the v1 routes. */
export interface AppEnv {
  Variables: {
    /** The parsed JSON object of a POST body, set by the jsonBody middleware. */
    body: Record<string, unknown>;
    /** The holder of the x-api-key sent, set by the apiKey middleware; absent without a key. */
    apiKey?: KeyHolder;
    /** The sign-in cookie's secret, when the request carries one (checked by the endpoints that use it). */
    sessionSecret?: string;
  };
}
