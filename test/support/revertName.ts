import { BaseError, ContractFunctionRevertedError } from 'viem';

/** Resolves to 'ok' when the call goes through, or to the name of the custom error it reverted with. */
export function revertName(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'ok',
    (error: unknown) => {
      const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
      if (revert instanceof ContractFunctionRevertedError && revert.data?.errorName) return revert.data.errorName;
      throw error;
    },
  );
}
