/** `npm run inspect -- FILE|- [--settings SETTINGS.json] [--now UNIX] [--deployments DIR]` on the terminal: see inspectCommand.ts. */
import { readFileSync } from 'node:fs';
import { runInspectCommand } from './inspectCommand';

process.exitCode = runInspectCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: () => readFileSync(0, 'utf8'),
  cwd: process.cwd(),
  now: () => Math.floor(Date.now() / 1000),
});
