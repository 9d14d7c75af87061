import { type Address, erc20Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RehearsalNode, rehearsalNode } from '../../scripts/rehearsal/rpcWallet';
import { type PrivateRpcStandIn, startPrivateRpcStandIn } from '../support/privateRpcStandIn';
import {
  APP_TOKEN,
  PERSON_OPTIONS,
  type RehearsalPerson,
  rehearsalPerson,
  uploadLogo,
} from '../support/rehearsalPerson';
import { startRehearsalProcess } from '../support/rehearsalProcess';
import { startTestService, type TestServiceOptions } from '../support/startTestService';

/**
 * A launch sent through a block builder's private RPC, on the devnet at BSC's cadence and fee rules, with the
 * front-runner (its own process) watching the public mempool. The builder is the stand-in (test/support), which hands
 * what it takes to the devnet's private lane: in the next block, never in the mempool. The control run, without a
 * private RPC, shows the front-runner does see a launch sent the ordinary way.
 */

/** Every hash the public /rpc shows as pending, polled as a searcher polls: eth_pendingTransactions, a filter, txpool. */
function watchPublicMempool(node: RehearsalNode) {
  const seen = new Set<string>();
  let polls = 0;
  let stopped = false;
  // Its failure is told when it is stopped, never left unhandled (a test that failed meanwhile stops no watcher).
  const run: Promise<unknown> = (async () => {
    const filter = await node.call<Hex>('eth_newPendingTransactionFilter');
    while (!stopped) {
      const [pending, changes, pool] = await Promise.all([
        node.call<{ hash: Hex }[]>('eth_pendingTransactions'),
        node.call<Hex[]>('eth_getFilterChanges', [filter]),
        node.call<{ pending: Record<string, Record<string, { hash: Hex }>> }>('txpool_content'),
      ]);
      for (const tx of pending) seen.add(tx.hash.toLowerCase());
      for (const hash of changes) seen.add(hash.toLowerCase());
      for (const byNonce of Object.values(pool.pending)) {
        for (const tx of Object.values(byNonce)) seen.add(tx.hash.toLowerCase());
      }
      polls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })().catch((error: unknown) => error);
  return {
    saw: (hash: Hex) => seen.has(hash.toLowerCase()),
    polls: () => polls,
    stop: async () => {
      stopped = true;
      const failure = await run;
      if (failure) throw failure;
    },
  };
}

/** A running service with its person: the devnet at 750 ms blocks with BSC's fees. */
async function personAt(options: TestServiceOptions) {
  const service = await startTestService(undefined, {
    ...PERSON_OPTIONS,
    blockTimeMs: 750,
    bscFees: true,
    rateLimits: false,
    ...options,
  });
  const node = await rehearsalNode(`${service.origin}/rpc`);
  const person = await rehearsalPerson(service, 7);
  const image = await uploadLogo(service);
  const nextBlocks = async (count: number) => {
    const target = (await node.client.getBlockNumber({ cacheTime: 0 })) + BigInt(count);
    while ((await node.client.getBlockNumber({ cacheTime: 0 })) < target) await new Promise((r) => setTimeout(r, 100));
  };
  const launch = (symbol: string) =>
    person.buildAndSend(
      '/build/launch',
      { name: `Private ${symbol}`, symbol, marketCapPair: '30', image, firstBuy: '0.2' },
      'launch',
    );
  return { service, node, person, image, nextBlocks, launch };
}

/** The launch under the front-runner, with the public mempool watched from before it is sent until it settled. */
async function launchUnderFrontrunner(at: Awaited<ReturnType<typeof personAt>>, symbol: string) {
  const adversary = await startRehearsalProcess('adversary', ['--kind', 'frontrun', '--url', at.service.origin]);
  const watcher = watchPublicMempool(at.node);
  // Early in a block, so the front-runner has the whole block time to see it and outbid it, as in adversaries.test.
  await at.nextBlocks(1);
  const launched = await at.launch(symbol);
  // A few blocks for anything it sent after the launch to land and be counted.
  await at.nextBlocks(3);
  await watcher.stop();
  const { balanceSheet } = await adversary.stop();
  const told = JSON.stringify(adversary.lines).toLowerCase();
  const { hash, settled } = launched.main;
  console.log(
    `frontrun vs ${symbol}:`,
    JSON.stringify({ hash, settled: settled.status, actions: balanceSheet.actions }),
  );
  return { launched, balanceSheet, watcher, adversarySaw: told.includes(launched.main.hash.toLowerCase()) };
}

async function activityOf(person: RehearsalPerson, hash: Hex) {
  const list = (await person.channel('activity.list', {})) as { hash: Hex | null; sentPrivately: boolean }[];
  return list.find((entry) => entry.hash === hash);
}

describe('with a private RPC (the stand-in), trades included', () => {
  let standIn: PrivateRpcStandIn;
  let at: Awaited<ReturnType<typeof personAt>>;
  let token: Address;

  beforeAll(async () => {
    standIn = await startPrivateRpcStandIn();
    at = await personAt({ privateRpcUrl: standIn.url, privateTrades: true });
    standIn.forwardTo(`${at.service.origin}/rpc`);
  });
  afterAll(async () => {
    await at?.service.dispose();
    await standIn?.close();
  });

  it('lands the launch at its first try, unseen by the front-runner and the public mempool; the builder got exactly it', async () => {
    const { launched, balanceSheet, watcher, adversarySaw } = await launchUnderFrontrunner(at, 'PRIV');
    expect(launched.main.settled.status).toBe('confirmed');
    token = launched.build.token;
    // The front-runner watched all along and had nothing to act on.
    expect(balanceSheet.actions).toEqual([]);
    expect(adversarySaw).toBe(false);
    // The public mempool, polled every few tens of milliseconds while the launch waited, never listed it.
    expect(watcher.polls()).toBeGreaterThan(10);
    expect(watcher.saw(launched.main.hash)).toBe(false);
    // A native first buy needs no approval: the launch is the one transaction, and the builder got it and only it.
    expect(launched.steps).toEqual([]);
    expect(standIn.hashes()).toEqual([launched.main.hash]);
    expect(await activityOf(at.person, launched.main.hash)).toMatchObject({ sentPrivately: true });
    const held = await at.node.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [at.person.address],
    });
    expect(held).toBeGreaterThanOrEqual(BigInt(launched.build.firstBuy.minTokens.wei));
  });

  it('sends buys and sells privately when asked, and their approvals through the public RPC', async () => {
    const before = standIn.received.length;
    const bought = await at.person.buildAndSend('/build/buy', { token, amount: '0.1' }, 'buy');
    expect(bought.main.settled.status).toBe('confirmed');
    const sold = await at.person.buildAndSend('/build/sell', { token, amount: '1000' }, 'sell');
    expect(sold.main.settled.status).toBe('confirmed');
    expect(sold.steps.length).toBeGreaterThan(0);
    expect(standIn.hashes().slice(before)).toEqual([bought.main.hash, sold.main.hash]);
    for (const step of sold.steps) {
      expect(step.settled.status).toBe('confirmed');
      expect(await activityOf(at.person, step.hash)).toMatchObject({ sentPrivately: false });
    }
    expect(await activityOf(at.person, sold.main.hash)).toMatchObject({ sentPrivately: true });
  });

  it('fails a launch whose private RPC is down or refuses, saying what to do, and nothing reaches the public mempool', async () => {
    const send = async () => {
      const built = await at.person.api('POST', '/build/launch', {
        wallet: at.person.address,
        name: 'Private Down',
        symbol: 'DOWN',
        marketCapPair: '30',
        image: at.image,
        firstBuy: '0.2',
      });
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      const prepared = (await at.person.channel('tx.prepare', { tx: built.body.tx })) as { id: string };
      const response = await fetch(`${at.service.origin}/app/tx.send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${APP_TOKEN}` },
        body: JSON.stringify({
          tx: built.body.tx,
          prepared: prepared.id,
          step: 'main',
          kind: 'launch',
          title: 'Launch DOWN',
        }),
      });
      const { error } = (await response.json()) as { error: { code: string; message: string; fix: string } };
      const list = (await at.person.channel('activity.list', {})) as {
        hash: Hex;
        status: string;
        sentPrivately: boolean;
      }[];
      return { status: response.status, error, entry: list[0] };
    };
    const watcher = watchPublicMempool(at.node);
    const before = standIn.received.length;

    standIn.setMode('down');
    const down = await send();
    expect(down.error.code).toBe('CHAIN_UNREACHABLE');
    expect(down.error.message).toMatch(
      /^The private RPC \(http:\/\/127\.0\.0\.1:\d+\/\) was unreachable: .+\. Nothing was sent to the public mempool\.$/,
    );
    expect(down.error.fix).toMatch(
      /^Check the private RPC URL in Settings, or clear it to send through the public RPC/,
    );
    expect(down.entry).toMatchObject({ status: 'failed', sentPrivately: true });

    standIn.setMode({ refuse: 'bundle simulation failed' });
    const refused = await send();
    expect(refused.error.code).toBe('SEND_FAILED');
    expect(refused.error.message).toMatch(/refused the transaction: bundle simulation failed\. Nothing was sent/);
    expect(refused.entry).toMatchObject({ status: 'failed', sentPrivately: true });

    await at.nextBlocks(3);
    await watcher.stop();
    for (const { entry } of [down, refused]) {
      expect(watcher.saw(entry?.hash as Hex)).toBe(false);
      expect(await at.node.call('eth_getTransactionByHash', [entry?.hash])).toBeNull();
    }
    // The down endpoint got nothing; the refusing one got the one it refused.
    expect(standIn.hashes().slice(before)).toEqual([refused.entry?.hash]);

    // Back up, the next launch goes through it and lands (at the nonce the failed ones never used).
    standIn.setMode('forward');
    const again = await at.launch('BACK');
    expect(again.main.settled.status).toBe('confirmed');
    expect(standIn.hashes().at(-1)).toBe(again.main.hash);
  });
});

describe('without a private RPC (the control)', () => {
  let at: Awaited<ReturnType<typeof personAt>>;
  beforeAll(async () => {
    at = await personAt({});
  });
  afterAll(async () => {
    await at?.service.dispose();
  });

  it('the front-runner sees the launch in the public mempool and acts on it', async () => {
    const { launched, balanceSheet, watcher, adversarySaw } = await launchUnderFrontrunner(at, 'OPEN');
    expect(watcher.saw(launched.main.hash)).toBe(true);
    expect(adversarySaw).toBe(true);
    expect(balanceSheet.actions.length).toBeGreaterThan(0);
    expect(await activityOf(at.person, launched.main.hash)).toMatchObject({ sentPrivately: false });
  });
});
