import { describe, expect, it } from 'vitest';
import { type AskNatively, headlessConfirmer, nativeConfirmer, type WarnedTransaction } from './signingConfirmer';

const WARNED: WarnedTransaction = {
  headline: 'Buy MCAT: 0.1 BNB',
  wallet: '0x000000000000000000000000000000000000bEEF',
  hash: `0x${'ab'.repeat(32)}`,
  warnings: [
    { id: 'limit-zero', message: 'The trade accepts receiving nothing at all.' },
    { id: 'referrer-not-chosen', message: 'The trade pays a referral cut to 0xA11CE.' },
  ],
  confirmedOnPage: ['limit-zero', 'referrer-not-chosen'],
};

/** A native dialog answered as `answer`, recording what it was asked. */
function dialogAnswering(answer: boolean) {
  const asked: Parameters<AskNatively>[0][] = [];
  const ask: AskNatively = async (question) => {
    asked.push(question);
    return answer;
  };
  return { ask, asked };
}

describe("the desktop app's confirmation, in main's own dialog", () => {
  it('lists every warning with the hash and the wallet, and signs only when the person presses Sign there', async () => {
    const yes = dialogAnswering(true);
    await expect(nativeConfirmer(yes.ask).confirmTransaction(WARNED)).resolves.toBeUndefined();
    expect(yes.asked[0]?.message).toBe(WARNED.headline);
    for (const text of [WARNED.wallet, WARNED.hash, ...WARNED.warnings.map((warning) => warning.message)]) {
      expect(yes.asked[0]?.detail).toContain(text);
    }
    const no = dialogAnswering(false);
    await expect(nativeConfirmer(no.ask).confirmTransaction(WARNED)).rejects.toMatchObject({
      code: 'WARNINGS_NOT_CONFIRMED',
    });
  });

  it("ignores the page's ticks: a page that ticked everything still meets the dialog", async () => {
    const no = dialogAnswering(false);
    const confirmer = nativeConfirmer(no.ask);
    await expect(
      confirmer.confirmMessage({ message: 'Permit: all', wallet: WARNED.wallet, confirmedOnPage: true }),
    ).rejects.toMatchObject({ code: 'WARNINGS_NOT_CONFIRMED' });
    expect(no.asked[0]?.detail).toBe('Permit: all');
  });

  it('refuses a message too long to show in full rather than cutting it', async () => {
    const yes = dialogAnswering(true);
    await expect(
      nativeConfirmer(yes.ask).confirmMessage({
        message: 'x'.repeat(5000),
        wallet: WARNED.wallet,
        confirmedOnPage: true,
      }),
    ).rejects.toMatchObject({ code: 'UNKNOWN_MESSAGE' });
    expect(yes.asked).toEqual([]);
  });
});

describe("the headless app's confirmation", () => {
  it('refuses everything warned about without --allow-warned-signing, whatever the page ticked', async () => {
    const confirmer = headlessConfirmer(false);
    expect(confirmer.surface).toBe('refused');
    await expect(confirmer.confirmTransaction(WARNED)).rejects.toMatchObject({
      code: 'WARNINGS_NOT_CONFIRMED',
      fix: expect.stringContaining('--allow-warned-signing'),
    });
    await expect(
      confirmer.confirmMessage({ message: 'hello', wallet: WARNED.wallet, confirmedOnPage: true }),
    ).rejects.toMatchObject({ code: 'WARNINGS_NOT_CONFIRMED' });
  });

  it('with the flag, takes exactly the warnings raised: none missing, none added', async () => {
    const confirmer = headlessConfirmer(true);
    await expect(confirmer.confirmTransaction(WARNED)).resolves.toBeUndefined();
    await expect(
      confirmer.confirmTransaction({ ...WARNED, confirmedOnPage: ['limit-zero', 'limit-zero'] }),
    ).rejects.toMatchObject({ code: 'WARNINGS_NOT_CONFIRMED' });
    await expect(
      confirmer.confirmTransaction({ ...WARNED, confirmedOnPage: [...WARNED.confirmedOnPage, 'fee-above-median'] }),
    ).rejects.toMatchObject({ code: 'WARNINGS_NOT_CONFIRMED' });
  });
});
