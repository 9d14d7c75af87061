import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './apiRequestError';

/**
 * The renderer's one query cache. A refusal the service answered (a spec error, nearly all 4xx) is shown at once,
 * never retried: asking again unchanged gets the same answer. Only a service that could not be reached is tried once
 * more. Pages poll where they need fresh data, so focusing the window does not set off a refetch of every query.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      retry: (failures, error) =>
        failures < 1 && (!(error instanceof ApiRequestError) || error.error.code === 'UNREACHABLE'),
    },
  },
});
