/**
 * `npm run deploy -- --network testnet|mainnet --rpc URL [options]` on the terminal: see deployCommand.ts and
 * `npm run deploy -- --help`.
 */
import { createInterface } from 'node:readline';
import { runDeployCommand } from './deployCommand';

/** One line typed on the terminal, or null once the input is closed without one. */
function ask(question: string): Promise<string | null> {
  return new Promise((resolve) => {
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    let answered = false;
    terminal.on('close', () => {
      if (!answered) resolve(null);
    });
    terminal.question(question, (line) => {
      answered = true;
      // Typed on a terminal, the answer ends its own line; read from a pipe it is not echoed.
      if (!process.stdin.isTTY) process.stdout.write('\n');
      terminal.close();
      resolve(line);
    });
  });
}

process.exitCode = await runDeployCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  ask,
  env: process.env,
  cwd: process.cwd(),
});
