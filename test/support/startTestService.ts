import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnswerCheck } from '../../src-main/http/answerCheck';
import { lineLogger } from '../../src-main/log/createLogger';
import { type RunningService, type ServiceOptions, startService } from '../../src-main/startService';
import { type OpenApiAnswers, openApiAnswers } from './openApiAnswers';

/**
 * The service's options, `log` to read each line it logs (nothing is printed otherwise), and `onAnswer` to see each
 * answer the service gave, as its listener wrote it (beside the OpenAPI document's check).
 */
export type TestServiceOptions = Partial<ServiceOptions> & { log?: (line: string) => void; onAnswer?: AnswerCheck };

export interface TestService extends RunningService {
  dataDir: string;
  /** Every answer the service gave, held to its OpenAPI document: what was off it. */
  answers: OpenApiAnswers;
  /** Closes the service and deletes its data directory; throws if any answer was off the OpenAPI document. */
  dispose(): Promise<void>;
}

/**
 * Starts the real service on a free loopback port over the devnet, with a data directory of its own. The devnet seed
 * is off unless asked for: it trades in the background, and balances in tests must move only by what they do. Every
 * answer it gives, to any request of the test, is checked against the OpenAPI document it serves (openApiAnswers.ts):
 * each one off it is printed as it is found, and fails the test's dispose.
 */
export async function startTestService(
  dataDir = mkdtempSync(join(tmpdir(), 'companion-test-')),
  options: TestServiceOptions = {},
): Promise<TestService> {
  const { log = () => {}, onAnswer, ...serviceOptions } = options;
  const answers = openApiAnswers();
  const service = await startService({
    port: 0,
    dataDir,
    network: 'devnet',
    seed: false,
    logger: lineLogger(log),
    checkAnswers: onAnswer
      ? (answer) => {
          answers.check(answer);
          onAnswer(answer);
        }
      : answers.check,
    ...serviceOptions,
  });
  await answers.load(`${service.url}/openapi.json`);
  return {
    ...service,
    dataDir,
    answers,
    dispose: async () => {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
      answers.assertNone();
    },
  };
}
