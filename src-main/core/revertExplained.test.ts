import { describe, expect, it } from 'vitest';
import { explainRevert } from './revertExplained';

describe('explainRevert', () => {
  it('says what happened and what to do for the reverts a person meets on a busy chain, and names any other', () => {
    expect(explainRevert('PoolOccupied', ['0x1'])).toMatch(/priced this token's pool .* Build the launch again/);
    expect(explainRevert('LimitNotMet', ['1', '2'])).toMatch(/moved past your limit .* Quote again/);
    expect(explainRevert('Expired', ['1', '2'])).toMatch(/after its deadline/);
    expect(explainRevert('AlreadyBound', ['0xabc'])).toContain('(0xabc)');
    expect(explainRevert('passes now', [])).toMatch(/would pass now/);
    expect(explainRevert('SomethingNew', [])).toMatch(/reverted on chain \(SomethingNew\)/);
  });
});
