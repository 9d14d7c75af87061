import { BaseError, ContractFunctionRevertedError } from 'viem';

/**
 * Resolves to 'ok' when the call goes through, to the name of the custom error it reverted with, or to 'reverted'
 * for a revert without data. Anything that is not a revert is thrown.
 */
export function revertName(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'ok',
    (error: unknown) => {
      const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
      if (revert instanceof ContractFunctionRevertedError) {
        if (revert.data?.errorName) return revert.data.errorName;
        if (revert.raw === undefined || revert.raw === '0x') return 'reverted';
      }
      throw error;
    },
  );
}
