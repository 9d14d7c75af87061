import { describe, expect, it } from 'vitest';
import { HeadTracker, MAX_POLL_MS, MIN_POLL_MS } from './headTracker';

function clocked() {
  const clock = { now: 1_000_000 };
  return { clock, heads: new HeadTracker(() => clock.now) };
}

describe('HeadTracker', () => {
  it('keeps the highest head: a lower answer is a node behind', () => {
    const { heads } = clocked();
    expect(heads.latest()).toBeNull();
    expect(heads.see(100)).toBe(true);
    expect(heads.see(98)).toBe(false);
    expect(heads.see(99n)).toBe(false);
    expect(heads.latest()).toBe(100);
    expect(heads.see(101)).toBe(true);
    expect(heads.latest()).toBe(101);
  });

  it('gives a head up only when no node has confirmed it for a minute while many answered lower', () => {
    const { clock, heads } = clocked();
    heads.see(100);
    for (let i = 0; i < 30; i++) {
      clock.now += 1_000;
      heads.see(95);
    }
    expect(heads.latest()).toBe(100);
    for (let i = 0; i < 40; i++) {
      clock.now += 1_000;
      heads.see(i % 2 === 0 ? 95 : 96);
    }
    expect(heads.latest()).toBe(96);
  });

  it('measures the block time from arriving heads, and polls about once per block time within bounds', () => {
    const { clock, heads } = clocked();
    expect(heads.blockTimeMs()).toBeNull();
    expect(heads.pollMs()).toBe(MAX_POLL_MS);
    heads.hintBlockTime(1_000);
    expect(heads.pollMs()).toBe(1_000);
    // Polled every 0.4 s, a block every 0.75 s: the heads arrive in steps of one or two.
    for (let t = 0, seen = 0; t <= 12_000; t += 400) {
      clock.now = 1_000_000 + t;
      const block = Math.floor(t / 750);
      if (block > seen || t === 0) heads.see(500 + block);
      seen = block;
    }
    expect(heads.blockTimeMs()).toBeGreaterThan(700);
    expect(heads.blockTimeMs()).toBeLessThan(800);
    expect(heads.pollMs()).toBeGreaterThan(700);
    expect(heads.pollMs()).toBeLessThan(800);
    heads.hintBlockTime(100);
    expect(heads.pollMs()).toBeGreaterThan(700);
  });

  it('never polls faster than the floor, and polls a chain that went quiet less often', () => {
    const { clock, heads } = clocked();
    heads.hintBlockTime(50);
    heads.see(1);
    expect(heads.pollMs()).toBe(MIN_POLL_MS);
    clock.now += 60_000;
    expect(heads.pollMs()).toBe(MAX_POLL_MS);
  });
});
