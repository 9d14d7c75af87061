import { CompanionError, errorOfAnswer } from './companionError';

/**
 * The data of an openapi-fetch call, or its failure as a CompanionError: the answer's spec error, or BAD_RESPONSE for
 * a success that is not JSON.
 *
 * @example const token = await dataOrThrow(api.GET('/tokens/{address}', { params: { path: { address } } }));
 */
export async function dataOrThrow<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let answer: { data?: T; error?: unknown; response: Response };
  try {
    answer = await call;
  } catch (cause) {
    if (cause instanceof SyntaxError) {
      throw new CompanionError(
        {
          status: null,
          code: 'BAD_RESPONSE',
          message: `The service's answer is not JSON: ${cause.message}`,
          retry: false,
        },
        { cause },
      );
    }
    throw cause;
  }
  const { data, error, response } = answer;
  if (!response.ok) throw errorOfAnswer(response, error);
  return data as T;
}
