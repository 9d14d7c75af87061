import type { Address } from 'viem';
import type { KeyHolder } from '../services/apiKeys';
import type { IntentCaller } from '../services/intentCaller';

/** Hono context shared by the v1 routes. */
export interface AppEnv {
  Variables: {
    /** The holder of the x-api-key sent, set by the apiKey middleware; absent without a key. */
    apiKey?: KeyHolder;
    /**
     * True when the request comes from the app's own page: it sent the run's token in x-app-token (set by the appPage
     * middleware). Its counted requests then use a budget no other client can spend.
     */
    appPage?: boolean;
    /** The sign-in cookie's secret, when the request carries one (checked by the endpoints that use it). */
    sessionSecret?: string;
    /**
     * Whose keys a request of /keys may see, found by the route's own middleware before its input is read: an API
     * key's wallet, or a signed-in browser's (`signedIn`).
     */
    keyOwner?: { wallet: Address; signedIn: boolean };
    /** Who asks, on the prepared-request routes, found before their input is read. */
    intentCaller?: IntentCaller;
  };
}
