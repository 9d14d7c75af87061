import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployService } from '../scripts/deployService';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { LaunchFactory, ServiceConfig } from '../src-main/chain/generated/contracts';
import { devnetChain } from '../src-main/chain/networks';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;
let client: PublicClient;

beforeAll(async () => {
  service = await startTestService();
  client = createPublicClient({ chain: devnetChain, transport: http(`${service.origin}/rpc`) }) as PublicClient;
});
afterAll(async () => {
  await service?.dispose();
});

describe('deploying the service contracts', () => {
  it('deploys all four through an RPC, owned by the deployer, wired to the exchange it is given', async () => {
    const settings = (await (await fetch(`${service.url}/settings`)).json()) as {
      contracts: Record<string, `0x${string}`>;
    };
    const { pancakeFactory, poolDeployer, wbnb, permit2 } = settings.contracts;
    if (!pancakeFactory || !poolDeployer || !wbnb || !permit2) throw new Error('settings lack the exchange');
    const deployer = testAccounts()[13];
    if (!deployer) throw new Error('no test account 13');
    const lines: string[] = [];
    const deployment = await deployService({
      rpcUrl: `${service.origin}/rpc`,
      chain: devnetChain,
      privateKey: deployer.privateKey,
      exchange: { pancakeFactory, poolDeployer, wbnb, permit2 },
      log: (line) => lines.push(line),
    });
    expect(deployment.deployer).toBe(deployer.address);
    expect(deployment.transactions).toHaveLength(4);
    for (const address of [deployment.config, deployment.router, deployment.factory, deployment.referrals]) {
      expect((await client.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    }
    expect(
      await client.readContract({ address: deployment.config, abi: ServiceConfig.abi, functionName: 'owner' }),
    ).toBe(deployer.address);
    expect(
      await client.readContract({ address: deployment.config, abi: ServiceConfig.abi, functionName: 'fees' }),
    ).toEqual([100, 20, 1500, deployer.address]);
    expect(
      await client.readContract({ address: deployment.factory, abi: LaunchFactory.abi, functionName: 'wbnb' }),
    ).toBe(wbnb);
    expect(
      await client.readContract({
        address: deployment.factory,
        abi: LaunchFactory.abi,
        functionName: 'pancakeFactory',
      }),
    ).toBe(pancakeFactory);
    expect(lines.filter((line) => line.includes(' at 0x'))).toHaveLength(4);
  });

  it('the command refuses to run without an RPC or a well-formed key, or on a chain that is not BSC', async () => {
    // Asynchronously: the service answering the child's RPC calls runs in this process.
    const run = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', join(import.meta.dirname, '../scripts/deploy.ts'), ...args],
          { env: { PATH: process.env.PATH ?? '', ...env } },
        );
        let stderr = '';
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
        });
        child.on('close', (status) => resolve({ status, stderr }));
      });
    const noRpc = await run([]);
    expect(noRpc.status).toBe(2);
    expect(noRpc.stderr).toMatch(/--rpc URL is needed/);
    const noKey = await run(['--rpc', `${service.origin}/rpc`]);
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toMatch(/DEPLOYER_PRIVATE_KEY/);
    const devnet = await run(['--rpc', `${service.origin}/rpc`], {
      DEPLOYER_PRIVATE_KEY: testAccounts()[13]?.privateKey ?? '',
    });
    expect(devnet.status).toBe(2);
    expect(devnet.stderr).toMatch(/chain 31337/);
  });
});
