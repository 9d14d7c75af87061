import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { stopChild } from './stopChild';

export interface ReferenceServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A bare node:http server answering every request with `body` as JSON: the most node:http serves on this machine, the
 * reference the service's figures are read against.
 */
const BARE = `
  const { createServer } = require('node:http');
  const body = Buffer.from(process.env.REFERENCE_BODY);
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60000;
  server.listen(0, '127.0.0.1', () => process.stdout.write('ready ' + server.address().port + '\\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/**
 * The cheapest answer there is, to find the load generator's own ceiling: a TCP server that parses nothing and writes
 * one canned HTTP answer for each request's end of headers (a GET has no body). What the generator reaches here is
 * what it can send and read at most; if that is not well above the bare server's rate, the bare figure is the
 * generator's and no ratio against it means anything.
 */
const TRIVIAL = `
  const { createServer } = require('node:net');
  const body = Buffer.from(process.env.REFERENCE_BODY);
  const answer = Buffer.concat([
    Buffer.from('HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\ncontent-length: ' + body.length + '\\r\\n\\r\\n'),
    body,
  ]);
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    // The bytes of a request's end that the previous chunk ended with, so an end split across chunks is seen once.
    let carried = '';
    socket.on('data', (chunk) => {
      const text = carried + chunk.toString('latin1');
      let ends = 0;
      for (let at = text.indexOf('\\r\\n\\r\\n'); at >= 0; at = text.indexOf('\\r\\n\\r\\n', at + 4)) ends++;
      carried = text.slice(-3);
      if (ends === 1) socket.write(answer);
      else if (ends > 1) socket.write(Buffer.concat(Array.from({ length: ends }, () => answer)));
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write('ready ' + server.address().port + '\\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** The bare node:http reference, in a process of its own. */
export function startBare(body: string, nodeArgs: string[] = []): Promise<ReferenceServer> {
  return startScript(BARE, body, 'the bare node:http server', nodeArgs);
}

/** The load generator's ceiling, in a process of its own (see TRIVIAL). */
export function startTrivial(body: string): Promise<ReferenceServer> {
  return startScript(TRIVIAL, body, 'the trivial responder');
}

async function startScript(
  script: string,
  body: string,
  what: string,
  nodeArgs: string[] = [],
): Promise<ReferenceServer> {
  const child = spawn(process.execPath, [...nodeArgs, '-e', script], {
    env: { ...process.env, REFERENCE_BODY: body },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = (once(child, 'exit') as Promise<unknown[]>).catch(() => []);
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^ready (\d+)$/m.exec(out);
      if (match?.[1]) resolve(Number(match[1]));
    });
    exited.then(() => reject(new Error(`${what} exited before it was ready`)));
  });
  if (child.pid === undefined) throw new Error(`${what} has no pid`);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stopChild(child, exited) };
}
