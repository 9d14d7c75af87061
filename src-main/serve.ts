/**
 * The headless entry (`npm run serve`): the chain, the API on 127.0.0.1 and, with --web, the web UI. Prints exactly
 * one line, `ready http://127.0.0.1:PORT/api/v1`, on stdout once the API answers; everything else goes to stderr.
 */
import { readServeOptions, ServeUsageError } from './serveOptions';
import { startService } from './startService';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

let options: ReturnType<typeof readServeOptions>;
try {
  options = readServeOptions(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof ServeUsageError)) throw error;
  fail(error.message);
}
const { settingsProblem, ...serviceOptions } = options;
if (settingsProblem) process.stderr.write(`${settingsProblem}\n`);

const service = await startService(serviceOptions).catch((error: Error) => fail(`could not start: ${error.message}`));
process.stdout.write(`ready ${service.url}\n`);
// The run always has a token; the web UI (and with it the address to open) only when asked for.
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
