import type { Address } from 'viem';
import { type PublicRpc, type PublicRpcOptions, publicRpc } from './publicRpc';
import { startTestService, type TestService, type TestServiceOptions } from './startTestService';
import { testnetDeployments } from './testnetDeployments';

/** A devnet service, the public-RPC stand-in in front of its /rpc, and services that read the chain through it. */
export interface OverPublicRpc {
  devnet: TestService;
  rpc: PublicRpc;
  /** A service on "testnet" whose RPC is the stand-in (the devnet's contracts as its deployment record). */
  serviceOverRpc(lines?: string[], options?: TestServiceOptions): Promise<TestService>;
  /** Disposes the services started over the stand-in. */
  disposeServices(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Starts a devnet (seeded when asked) and the stand-in in front of it. Services over it run as "testnet" with the
 * devnet's addresses, so they read the chain only through the stand-in, as they would a free public endpoint.
 */
export async function overPublicRpc(
  devnetOptions: TestServiceOptions = {},
  rpcOptions: PublicRpcOptions = {},
): Promise<OverPublicRpc> {
  const devnet = await startTestService(undefined, devnetOptions);
  await devnet.seeded;
  const rpc = await publicRpc(`${devnet.origin}/rpc`, rpcOptions);
  const deployments = testnetDeployments(devnet.chain.addresses);
  const started: TestService[] = [];
  const disposeServices = async () => {
    for (const service of started.splice(0)) await service.dispose();
  };
  return {
    devnet,
    rpc,
    async serviceOverRpc(lines = [], options = {}) {
      const service = await startTestService(undefined, {
        network: 'testnet',
        rpcUrl: rpc.url,
        deploymentsDir: deployments,
        rateLimits: false,
        confirmations: 0,
        log: (line) => lines.push(line),
        ...options,
      });
      started.push(service);
      return service;
    },
    disposeServices,
    async dispose() {
      await disposeServices();
      await rpc.close();
      await devnet.dispose();
    },
  };
}

/**
 * Makes a block every `everyMs` on the devnet (as BSC does, whether or not anyone sends), and counts them: `head` is
 * the newest block made. Transactions sent meanwhile get blocks of their own, as on the devnet always.
 */
/** The tokens the devnet behind the stand-in launched against BNB (its seed's), newest first. */
export async function bnbLaunchTokens(env: OverPublicRpc): Promise<Address[]> {
  const { launches } = (await (await fetch(`${env.devnet.url}/launches`)).json()) as {
    launches: { token: Address; pair: Address }[];
  };
  return launches.filter((l) => l.pair === env.devnet.chain.addresses.wbnb).map((l) => l.token);
}

export function produceBlocks(devnet: TestService, everyMs: number) {
  const state = { head: 0, stopped: false, made: [] as { block: number; at: number }[] };
  const mine = devnet.chain.devnet?.mine;
  if (!mine) throw new Error('blocks are made on the devnet only');
  const running = (async () => {
    state.head = Number(await devnet.chain.client.getBlockNumber({ cacheTime: 0 }));
    let next = Date.now();
    while (!state.stopped) {
      next += everyMs;
      await mine();
      state.head = Number(await devnet.chain.client.getBlockNumber({ cacheTime: 0 }));
      state.made.push({ block: state.head, at: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
  })();
  return {
    state,
    async stop() {
      state.stopped = true;
      await running;
    },
  };
}
