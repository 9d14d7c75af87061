import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { type ChainContext, connectChain } from './chain/connectChain';
import type { NetworkName } from './chain/networks';
import { createApp, type RateLimits } from './http/createApp';
import { BuildService } from './services/buildService';
import { seedDevnet } from './services/devnetSeed';
import { LaunchService } from './services/launchService';
import { MediaStore } from './services/mediaStore';
import { PoolStateService } from './services/poolStateService';
import { QuoteService } from './services/quoteService';
import { ReferrerEligibility } from './services/referrerEligibility';
import { SettingsService } from './services/settingsService';
import { TokenRegistry } from './services/tokenRegistry';
import { DevnetJournal } from './store/devnetJournal';
import { openDatabase } from './store/openDatabase';

export interface ServiceOptions {
  /** 0 picks a free port. */
  port: number;
  dataDir: string;
  network: NetworkName;
  rpcUrl?: string;
  /** Built web UI to serve at `/`. */
  webRoot?: string;
  /** Per-client limits per minute (the spec's by default); false switches them off. */
  rateLimits?: RateLimits | false;
  /** Seeds a fresh devnet with launches and trades (default true); tests that need an empty chain turn it off. */
  seed?: boolean;
  /** The most gas one launch may use (EIP-7825's cap by default); tests lower it to reach TOO_MUCH_GAS. */
  maxTxGas?: bigint;
  /** Folder of deployment records for testnet and mainnet; defaults to ./deployments. */
  deploymentsDir?: string;
  log?: (line: string) => void;
}

export interface RunningService {
  /** The API root, e.g. http://127.0.0.1:8787/api/v1 */
  url: string;
  /** e.g. http://127.0.0.1:8787 */
  origin: string;
  /** The connected chain (with the devnet, when embedded). */
  chain: ChainContext;
  /** Settles once a fresh devnet's seed launches and trades are in (at once when there is nothing to seed). */
  seeded: Promise<void>;
  close(): Promise<void>;
}

/**
 * The composition root shared by the desktop app and the headless entry: opens the data directory, connects the
 * chain (starting the devnet if asked), and serves the HTTP API on 127.0.0.1 only. Resolves once the API answers.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  mkdirSync(options.dataDir, { recursive: true });
  const db = openDatabase(join(options.dataDir, 'app.sqlite'));
  let chain: Awaited<ReturnType<typeof connectChain>> | undefined;
  try {
    chain = await connectChain({
      network: options.network,
      ...(options.rpcUrl ? { rpcUrl: options.rpcUrl } : {}),
      deploymentsDir: options.deploymentsDir ?? join(process.cwd(), 'deployments'),
      journal: new DevnetJournal(db),
      log,
    });
    const settings = new SettingsService(chain);
    const tokens = new TokenRegistry(chain);
    const quotes = new QuoteService(new PoolStateService(chain), settings);
    const builds = new BuildService(chain, quotes, new ReferrerEligibility(chain));
    const media = new MediaStore({ dataDir: options.dataDir, allowLoopbackLinks: options.network === 'devnet' });
    const launches = new LaunchService(chain, settings, media, options.maxTxGas);
    const app = createApp({
      chain,
      settings,
      builds,
      launches,
      media,
      ...(options.rateLimits !== undefined ? { rateLimits: options.rateLimits } : {}),
      tokens,
      quotes,
      ...(options.webRoot ? { webRoot: options.webRoot } : {}),
      log,
    });
    const server = await listen(app.fetch, options.port);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    media.setOrigin(origin);
    const devnet = chain.devnet;
    // A fresh devnet is seeded in the background: the API answers at once, the data follows within a second.
    const seeded =
      devnet && options.seed !== false && devnet.replay.blocks === 0
        ? seedDevnet({ ...chain, devnet }, { launches, builds, media, tokens }, log).catch((error: Error) =>
            log(`devnet: the seed failed: ${error.message}`),
          )
        : Promise.resolve();
    const url = `${origin}/api/v1`;
    const answer = await fetch(`${url}/errors`);
    if (!answer.ok) throw new Error(`the API did not answer on ${url} (status ${answer.status})`);
    const connected = chain;
    return {
      url,
      origin,
      chain: connected,
      seeded,
      close: async () => {
        await seeded;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await connected.close();
        db.close();
      },
    };
  } catch (error) {
    await chain?.close();
    db.close();
    throw error;
  }
}

type NodeServer = import('node:http').Server;

function listen(fetchHandler: Parameters<typeof serve>[0]['fetch'], port: number): Promise<NodeServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: fetchHandler, hostname: '127.0.0.1', port }) as NodeServer;
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} on 127.0.0.1 is in use; choose another with --port`)
          : error,
      );
    });
  });
}
