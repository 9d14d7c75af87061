/** Hono context shared by the v1 routes. */
export interface AppEnv {
  Variables: {
    /** The parsed JSON object of a POST body, set by the jsonBody middleware. */
    body: Record<string, unknown>;
  };
}
