import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lineLogger } from '../../src-main/log/createLogger';
import { type RunningService, type ServiceOptions, startService } from '../../src-main/startService';

/** The service's options, and `log` to read each line it logs (nothing is printed otherwise). */
export type TestServiceOptions = Partial<ServiceOptions> & { log?: (line: string) => void };

export interface TestService extends RunningService {
  dataDir: string;
  /** Closes the service and deletes its data directory. */
  dispose(): Promise<void>;
}

/**
 * Starts the real service on a free loopback port over the devnet, with a data directory of its own. The devnet seed
 * is off unless asked for: it trades in the background, and balances in tests must move only by what they do.
 */
export async function startTestService(
  dataDir = mkdtempSync(join(tmpdir(), 'companion-test-')),
  options: TestServiceOptions = {},
): Promise<TestService> {
  const { log = () => {}, ...serviceOptions } = options;
  const service = await startService({
    port: 0,
    dataDir,
    network: 'devnet',
    seed: false,
    logger: lineLogger(log),
    ...serviceOptions,
  });
  return {
    ...service,
    dataDir,
    dispose: async () => {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
