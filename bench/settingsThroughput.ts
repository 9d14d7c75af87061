import { silentLogger } from '../src-main/log/createLogger';
import { startService } from '../src-main/startService';
import type { Benchmark } from './benchmark';
import { closedLoopLoad } from './closedLoopLoad';
import { percentile } from './stats';
import { withTempDir } from './tempDir';

const CONNECTIONS = 32;
const WARMUP_MS = 1_000;
const DURATION_MS = 5_000;
const MAX_REQUESTS = 1_000_000;

/** GET /settings on loopback against the in-process service on the devnet, keep-alive, closed loop. */
export const settingsThroughput: Benchmark = {
  id: 'settings-rps',
  run: () =>
    withTempDir('bench-settings', async (dataDir) => {
      const service = await startService({ port: 0, dataDir, network: 'devnet', logger: silentLogger() });
      try {
        const url = `${service.url}/settings`;
        const load = { url, connections: CONNECTIONS, maxRequests: MAX_REQUESTS };
        await closedLoopLoad({ ...load, durationMs: WARMUP_MS });
        const r = await closedLoopLoad({ ...load, durationMs: DURATION_MS });
        if (r.requests === 0) throw new Error(`no request completed${r.firstFailure ? `: ${r.firstFailure}` : ''}`);
        const label = `GET /settings (${CONNECTIONS} conn, ${DURATION_MS / 1000} s)`;
        const zero = { op: '=', value: 0 } as const;
        return [
          { name: `${label} throughput`, value: (r.requests / r.elapsedMs) * 1000, unit: 'req/s' },
          { name: `${label} latency p50`, value: percentile(r.latenciesMs, 50), unit: 'ms' },
          { name: `${label} latency p99`, value: percentile(r.latenciesMs, 99), unit: 'ms' },
          { name: `${label} requests`, value: r.requests, unit: 'count' },
          { name: `${label} non-200 answers`, value: r.non200, unit: 'count', target: zero },
          { name: `${label} transport errors`, value: r.errors, unit: 'count', target: zero },
        ];
      } finally {
        await service.close();
      }
    }),
};
