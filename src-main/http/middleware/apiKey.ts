import type { MiddlewareHandler } from 'hono';
import type { ApiKeys } from '../../services/apiKeys';
import type { AppEnv } from '../env';

/**
 * Reads x-api-key on every API request: a live key sets `apiKey` (its wallet becomes the default referrer of trade
 * builds); a bad, revoked or switched-off key is refused with its code, whatever the endpoint, since leaving the
 * header out is always the remedy.
 */
export function apiKey(keys: ApiKeys): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const sent = c.req.header('x-api-key');
    if (sent !== undefined) c.set('apiKey', keys.authenticate(sent.trim()));
    await next();
  };
}
