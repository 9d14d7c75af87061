import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * A handler tried on Node's own request before the Hono app: it takes the request and answers it (true), or leaves it
 * untouched for the app (false). It takes only requests that it answers exactly as the app would.
 */
export type LeanRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Node's request listener that offers each request to the lean routes in turn, then to `app`. */
export function withLeanRoutes(app: RequestListener, routes: readonly LeanRoute[]): RequestListener {
  if (routes.length === 0) return app;
  return (req, res) => {
    for (const route of routes) if (route(req, res)) return;
    app(req, res);
  };
}
