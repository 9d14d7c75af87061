import { describe, expect, it } from 'vitest';
import { AppSettingsSchema } from './appChannel';

const choice = {
  network: 'mainnet',
  rpcUrl: 'https://bsc.example',
  dataDir: null,
  rateLimits: true,
  ledgerTemplate: 'live',
};

/** The first issue Settings would show for `settings`, as path and message; null when it is saved. */
function refusal(settings: Record<string, unknown>): { path: string; message: string } | null {
  const parsed = AppSettingsSchema.safeParse(settings);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return { path: issue?.path.join('.') ?? '', message: issue?.message ?? '' };
}

describe('the private RPC settings', () => {
  it('saves an http(s) private RPC URL, with or without trades, and none', () => {
    expect(refusal({ ...choice, privateRpcUrl: 'https://rpc.builder.example/key' })).toBeNull();
    expect(refusal({ ...choice, privateRpcUrl: 'http://127.0.0.1:9545', privateTrades: true })).toBeNull();
    expect(refusal({ ...choice, privateRpcUrl: null, privateTrades: false })).toBeNull();
  });

  it('refuses another kind of URL, saying what it must be', () => {
    for (const bad of [
      'wss://rpc.builder.example',
      'rpc.builder.example',
      'https://a b',
      `https://${'a'.repeat(2050)}`,
    ]) {
      expect(refusal({ ...choice, privateRpcUrl: bad })).toMatchObject({
        path: 'privateRpcUrl',
        message: expect.stringMatching(/^a private RPC URL (starts with http:\/\/ or https:\/\/|is at most 2048)/),
      });
    }
  });

  it('refuses trades sent privately without a private RPC URL', () => {
    expect(refusal({ ...choice, privateTrades: true })).toEqual({
      path: 'privateTrades',
      message: 'sending trades privately needs a private RPC URL: fill it in, or untick the box',
    });
  });
});
