/**
 * The headless entry (`npm run serve`): the chain, the API on 127.0.0.1 and, with --web, the web UI. Prints exactly
 * one line, `ready http://127.0.0.1:PORT/api/v1`, on stdout once the API answers; the log goes to stderr as readable
 * lines (and, with --log-file, as JSON lines to that file).
 */
import { type Config, ConfigUsageError, HEADLESS_DEFAULTS, readConfig } from './config/readConfig';
import { createLogger } from './log/createLogger';
import { type LineSink, rotatingFile } from './log/rotatingFile';
import { startService } from './startService';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

let config: Config;
try {
  config = readConfig({
    args: process.argv.slice(2),
    env: process.env,
    entry: 'headless',
    defaults: HEADLESS_DEFAULTS,
  });
} catch (error) {
  if (!(error instanceof ConfigUsageError)) throw error;
  fail(error.message);
}
const { settingsProblem, logLevel, logFile, ...serviceOptions } = config;
let file: LineSink | undefined;
try {
  file = logFile ? rotatingFile(logFile) : undefined;
} catch (error) {
  fail(`--log-file (LOG_FILE) cannot be written: ${(error as Error).message}`);
}
const logger = createLogger({ level: logLevel, stream: process.stderr, ...(file ? { file } : {}) });
if (settingsProblem) logger.child({ component: 'settings' }).warn(settingsProblem);

const service = await startService({ ...serviceOptions, logger, logFile }).catch((error: Error) => {
  logger.fatal(`could not start: ${error.message}`);
  process.exit(2);
});
process.stdout.write(`ready ${service.url}\n`);
// The run always has a token; the web UI (and with it the address to open) only when asked for. Written to the
// terminal only: the address carries the token, and the log file is meant to be attached to bug reports.
if (serviceOptions.appToken) {
  process.stderr.write(
    `web UI: ${service.origin}/#app=${service.appToken}  (open this address: the token in it lets the page use your signer)\n`,
  );
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    service.close().then(
      () => process.exit(0),
      (error: Error) => fail(`shutdown failed: ${error.message}`),
    );
  });
}
