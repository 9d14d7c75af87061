import { describe, expect, it } from 'vitest';
import { envForNodeGyp } from '../scripts/buildElectronSqlite';

describe('envForNodeGyp', () => {
  it("drops npm's settings that would pick Node's headers, and keeps the network ones", () => {
    const env = envForNodeGyp({
      PATH: '/usr/bin',
      npm_config_nodedir: '/usr',
      NPM_CONFIG_TARGET: '20.20.2',
      npm_config_runtime: 'node',
      npm_config_disturl: 'https://nodejs.org/dist',
      npm_config_arch: 'ia32',
      npm_package_config_node_gyp_nodedir: '/usr',
      npm_config_https_proxy: 'http://proxy:3128',
      npm_config_cafile: '/etc/ssl/ca.pem',
      npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      npm_config_https_proxy: 'http://proxy:3128',
      npm_config_cafile: '/etc/ssl/ca.pem',
      npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
    });
  });
});
