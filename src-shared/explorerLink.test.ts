import { describe, expect, it } from 'vitest';
import { explorerTokenLink } from './explorerLink';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

describe('explorerTokenLink', () => {
  it('links BscScan on BNB Chain and the testnet BscScan on chain 97', () => {
    expect(explorerTokenLink(56, TOKEN)).toEqual({ name: 'BscScan', link: `https://bscscan.com/token/${TOKEN}` });
    expect(explorerTokenLink(97, TOKEN)).toEqual({
      name: 'BscScan (testnet)',
      link: `https://testnet.bscscan.com/token/${TOKEN}`,
    });
  });

  it('has none on the devnet or a fork, and none for something that is not an address', () => {
    expect(explorerTokenLink(31337, TOKEN)).toBeNull();
    expect(explorerTokenLink(31338, TOKEN)).toBeNull();
    expect(explorerTokenLink(56, `${TOKEN}/../../evil`)).toBeNull();
  });
});
