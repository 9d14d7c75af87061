import { type ChildProcess, fork } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  type PublicClient,
  recoverMessageAddress,
  verifyMessage,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { devnetChain } from '../src-main/chain/networks';

/*
 * Where the local key lives. The service runs in a process of its own (test/support/keyServiceProcess.ts), as
 * `npm run serve` does; the key is imported and unlocked through its /app channel, and signs a message and a buy end
 * to end. Then this test reads the memory of the service's process and of its key worker:
 * - a V8 heap snapshot of the service (what its JavaScript can still reach, after a full GC), and
 * - the whole readable memory of each process, straight from /proc/<pid>/mem (the heap, freed memory not yet reused,
 *   buffers outside the heap, native libraries' memory), with the process stopped while it is read,
 * looking for the key's hex (either case; with or without 0x, which the bare hex covers), in one-byte and two-byte
 * form, and its 32 raw bytes. The key is random for each run, so it can be nowhere by chance (the devnet's own test
 * accounts are in the service's memory by design). The same search finds the key in the key worker, and in the
 * service itself when the worker's handler runs inside it (the control, as the key lived before): the search can fail.
 */

const ROOT = join(import.meta.dirname, '..');
const HARNESS = join(ROOT, 'test', 'support', 'keyServiceProcess.ts');
const TOKEN = 'key-worker-test-token-0123456789abcdef';
const PASSPHRASE = 'correct horse battery';
const KEY = generatePrivateKey();
const PERSON = privateKeyToAccount(KEY);
const HEX = KEY.slice(2);

/** What the key looks like in memory. */
const NEEDLES: Record<string, Buffer> = {
  hex: Buffer.from(HEX, 'latin1'),
  HEX: Buffer.from(HEX.toUpperCase(), 'latin1'),
  'hex (UTF-16)': Buffer.from(HEX, 'utf16le'),
  'HEX (UTF-16)': Buffer.from(HEX.toUpperCase(), 'utf16le'),
  'raw bytes': Buffer.from(HEX, 'hex'),
};
const NONE = Object.fromEntries(Object.keys(NEEDLES).map((name) => [name, false]));

interface ServiceProcess {
  child: ChildProcess;
  origin: string;
  url: string;
  /** Writes a heap snapshot of the service's process and answers which needles it holds. */
  heapSnapshot(): Promise<Record<string, boolean>>;
  stop(): Promise<void>;
}

const scratch = mkdtempSync(join(tmpdir(), 'key-worker-test-'));
const running: ServiceProcess[] = [];

async function startServiceProcess(dataDir: string, keyInMain = false): Promise<ServiceProcess> {
  const child = fork(HARNESS, [JSON.stringify({ dataDir, appToken: TOKEN, keyInMain })], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = await Promise.race([
    new Promise<{ origin: string; url: string }>((resolve) =>
      child.on('message', (message: { ready?: { origin: string; url: string } }) => {
        if (message.ready) resolve(message.ready);
      }),
    ),
    exited.then((code) => {
      throw new Error(`the service exited (${code}) before it was ready: ${errors.slice(-2000)}`);
    }),
  ]);
  let snapshots = 0;
  const service: ServiceProcess = {
    child,
    ...ready,
    async heapSnapshot() {
      snapshots += 1;
      const path = join(scratch, `service-${child.pid}-${snapshots}.heapsnapshot`);
      await new Promise<void>((resolve) => {
        const written = (message: { heapSnapshot?: string }) => {
          if (message.heapSnapshot !== path) return;
          child.off('message', written);
          resolve();
        };
        child.on('message', written);
        child.send({ heapSnapshot: path });
      });
      try {
        const snapshot = readFileSync(path);
        return Object.fromEntries(Object.entries(NEEDLES).map(([name, needle]) => [name, snapshot.includes(needle)]));
      } finally {
        rmSync(path, { force: true });
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.send({ stop: true });
      expect(await exited).toBe(0);
    },
  };
  running.push(service);
  return service;
}

/** The key worker: the child process of `pid` whose command line runs the key worker's entry. */
function keyWorkerOf(pid: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('keyWorker')) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

/** Whether process `pid` still runs (a zombie waiting to be reaped does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Which needles occur anywhere in the readable memory of process `pid`, stopped while it is read. Throws when the
 * memory cannot be read (a kernel that forbids it): the test must then fail, not pass for having looked nowhere.
 */
function memoryHolds(pid: number): Record<string, boolean> {
  const found: Record<string, boolean> = { ...NONE };
  const overlap = Math.max(...Object.values(NEEDLES).map((needle) => needle.length)) - 1;
  const chunk = 8 << 20;
  const buffer = Buffer.allocUnsafe(chunk + overlap);
  let read = 0;
  process.kill(pid, 'SIGSTOP');
  const fd = openSync(`/proc/${pid}/mem`, 'r');
  try {
    for (const line of readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
      const [, from = '', to = '', perms = '', name = ''] =
        /^([0-9a-f]+)-([0-9a-f]+) (\S{4})\s+\S+\s+\S+\s+\S+\s*(.*)$/.exec(line) ?? [];
      // The kernel's own pages (the clock, the old syscall page) are not the process's memory.
      if (!perms.startsWith('r') || ['[vvar]', '[vvar_vclock]', '[vsyscall]'].includes(name)) continue;
      const end = Number.parseInt(to, 16);
      let carried = 0;
      for (let at = Number.parseInt(from, 16); at < end; at += chunk) {
        let length: number;
        try {
          length = readSync(fd, buffer, carried, Math.min(chunk, end - at), at);
        } catch {
          carried = 0;
          continue;
        }
        read += length;
        const view = buffer.subarray(0, carried + length);
        for (const [name, needle] of Object.entries(NEEDLES))
          if (!found[name] && view.includes(needle)) found[name] = true;
        // A needle across two reads is still found: the tail of this read starts the next.
        carried = Math.min(overlap, view.length);
        view.copy(buffer, 0, view.length - carried);
      }
    }
  } finally {
    closeSync(fd);
    process.kill(pid, 'SIGCONT');
  }
  if (read < 16 << 20) throw new Error(`only ${read} bytes of process ${pid}'s memory could be read`);
  return found;
}

interface Reply<T> {
  status: number;
  result?: T;
  error?: { code: string; message: string };
}

async function call<T>(service: ServiceProcess, operation: string, input: unknown = {}): Promise<Reply<T>> {
  const response = await fetch(`${service.origin}/app/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(input),
  });
  return { status: response.status, ...((await response.json()) as object) };
}

async function ok<T>(service: ServiceProcess, operation: string, input: unknown = {}): Promise<T> {
  const reply = await call<T>(service, operation, input);
  if (reply.status !== 200) throw new Error(`${operation}: ${JSON.stringify(reply.error)}`);
  return reply.result as T;
}

/** Signs one of the service's challenges and a BNB buy of a seeded launch with the active local key, end to end. */
async function signBoth(service: ServiceProcess): Promise<void> {
  const { message } = (await (await fetch(`${service.url}/referrals/challenge?address=${PERSON.address}`)).json()) as {
    message: string;
  };
  const signed = await ok<{ signature: Hex; address: Address }>(service, 'message.sign', {
    message,
    kind: 'register',
    title: 'Register as a referrer',
  });
  expect(signed.address).toBe(PERSON.address);
  expect(await verifyMessage({ address: PERSON.address, message, signature: signed.signature })).toBe(true);

  const settings = (await (await fetch(`${service.url}/settings`)).json()) as { contracts: { wbnb: Address } };
  const { launches } = (await (await fetch(`${service.url}/launches`)).json()) as {
    launches: { token: Address; pair: Address }[];
  };
  const launch = launches.find((l) => l.pair === settings.contracts.wbnb);
  if (!launch) throw new Error('the seed has no BNB launch');
  const buy = (await (
    await fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: PERSON.address, token: launch.token, amount: '0.01' }),
    })
  ).json()) as { tx: Record<string, unknown>; explain: string };
  const prepared = await ok<{ id: string }>(service, 'tx.prepare', { tx: buy.tx });
  const sent = await ok<{ id: string; hash: Hex }>(service, 'tx.send', {
    tx: buy.tx,
    prepared: prepared.id,
    step: 'main',
    kind: 'buy',
    title: buy.explain,
  });
  expect((await ok<{ status: string }>(service, 'tx.wait', { id: sent.id })).status).toBe('confirmed');
  const client = createPublicClient({ chain: devnetChain, transport: http(`${service.origin}/rpc`) }) as PublicClient;
  expect((await client.getTransactionReceipt({ hash: sent.hash })).from).toBe(PERSON.address.toLowerCase());
}

const dataDir = join(scratch, 'data');

afterAll(async () => {
  for (const service of running) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  }
  rmSync(scratch, { recursive: true, force: true });
});

describe('the local key lives in the key worker, not in the service', () => {
  it('imports and signs through the real service, whose heap then holds no trace of the key', async () => {
    const service = await startServiceProcess(dataDir);
    expect(keyWorkerOf(service.child.pid as number)).toBeUndefined();
    await ok(service, 'wallet.fund', { address: PERSON.address });
    expect(await ok(service, 'signer.importKey', { privateKey: KEY, passphrase: PASSPHRASE })).toMatchObject({
      active: 'local',
      address: PERSON.address,
    });
    await signBoth(service);

    // The pasted key passed through the service on its way to the worker; nothing there still holds it.
    expect(await service.heapSnapshot()).toEqual(NONE);
    const worker = keyWorkerOf(service.child.pid as number);
    expect(worker).toBeDefined();
    expect(memoryHolds(worker as number)).toMatchObject({ hex: true });
    await service.stop();
    // The worker went with the service.
    await expect.poll(() => alive(worker as number)).toBe(false);
  }, 240_000);

  it('after a restart and an unlock, the service never had the key in its memory at all; its worker has it', async () => {
    const service = await startServiceProcess(dataDir);
    expect(await ok(service, 'signer.status')).toMatchObject({
      active: null,
      localKey: { address: PERSON.address, unlocked: false },
    });
    expect((await call(service, 'signer.unlock', { passphrase: 'correct horse batterY' })).error?.code).toBe(
      'WRONG_PASSPHRASE',
    );
    expect(await ok(service, 'signer.unlock', { passphrase: PASSPHRASE })).toMatchObject({
      active: 'local',
      address: PERSON.address,
    });
    await signBoth(service);

    expect(await service.heapSnapshot()).toEqual(NONE);
    expect(memoryHolds(service.child.pid as number)).toEqual(NONE);
    const worker = keyWorkerOf(service.child.pid as number);
    expect(memoryHolds(worker as number)).toMatchObject({ hex: true });

    // A worker that dies takes the key with it: the service goes on, says the key is locked, and unlocks it again.
    process.kill(worker as number, 'SIGKILL');
    await expect
      .poll(async () => (await ok<{ localKey: { unlocked: boolean } }>(service, 'signer.status')).localKey.unlocked)
      .toBe(false);
    const { message } = (await (
      await fetch(`${service.url}/referrals/challenge?address=${PERSON.address}`)
    ).json()) as { message: string };
    const refused = await call(service, 'message.sign', { message, kind: 'register', title: 'Register' });
    expect(refused.error?.code).toBe('SIGNER_LOCKED');
    expect((await fetch(`${service.url}/status`)).status).toBe(200);
    await ok(service, 'signer.unlock', { passphrase: PASSPHRASE });
    const again = await ok<{ signature: Hex }>(service, 'message.sign', { message, kind: 'register', title: 'x' });
    expect(await recoverMessageAddress({ message, signature: again.signature })).toBe(PERSON.address);
    expect(keyWorkerOf(service.child.pid as number)).not.toBe(worker);
    await service.stop();
  }, 240_000);

  it('finds the key in the service when the key is held there (the control: the search can fail)', async () => {
    const service = await startServiceProcess(dataDir, true);
    await ok(service, 'signer.unlock', { passphrase: PASSPHRASE });
    const { message } = (await (
      await fetch(`${service.url}/referrals/challenge?address=${PERSON.address}`)
    ).json()) as { message: string };
    await ok(service, 'message.sign', { message, kind: 'register', title: 'x' });
    expect(keyWorkerOf(service.child.pid as number)).toBeUndefined();
    expect(await service.heapSnapshot()).toMatchObject({ hex: true });
    expect(memoryHolds(service.child.pid as number)).toMatchObject({ hex: true });
    await service.stop();
  }, 240_000);
});
