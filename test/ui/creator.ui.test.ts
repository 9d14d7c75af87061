import type { Browser, Page } from 'playwright-core';
import { type Address, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { LaunchFactory } from '../../src-main/chain/generated/contracts';
import { formatAmount } from '../../src-shared/format/numbers';
import { describeViolations, seriousViolations } from '../support/accessibility';
import { type ApiClient, apiClient } from '../support/apiClient';
import { type CreatorLaunchFixture, DEAD, launchAndTrade } from '../support/creatorLaunch';
import { startTestService, type TestService } from '../support/startTestService';
import {
  approveReview,
  importLocalKey,
  inEveryLook,
  launchChromium,
  openApp,
  screenshot,
  webUiOptions,
} from '../support/webUi';

/*
 * Issue 31, the creator's side in the browser: the signer's launches on "Your launches" with the figures the chain
 * holds, and Collect through the review and the local key, after which the figures move to what the collect did.
 */

const CREATOR = testAccounts()[11] as TestAccount;
const SHARER = testAccounts()[12] as TestAccount;
const WAIT = { timeout: 30_000, interval: 200 };

let service: TestService;
let api: ApiClient;
let browser: Browser;
let f: CreatorLaunchFixture;

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  api = apiClient(service);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

const card = (page: Page) => page.getByTestId('creator-launch');
const weiAt = (page: Page, testId: string) => card(page).getByTestId(testId).getAttribute('data-wei');
const holderWei = (page: Page, wallet: Address) =>
  card(page)
    .locator(`[data-testid="creator-holder"][data-wallet="${wallet}"]`)
    .getByTestId('creator-holder-balance')
    .getAttribute('data-wei');

describe('Your launches', () => {
  it('shows what the launch earned as the chain holds it, and collects through the review', async () => {
    const { page, errors } = await openApp(browser, service.origin, '/');
    try {
      await importLocalKey(page, service.origin, CREATOR);
      await page.getByTestId('nav-creator').click();
      // Before it launched anything, the page says so.
      await page.getByTestId('creator-none').waitFor();
      await inEveryLook(page, ({ width, colorScheme }) => screenshot(page, `creator-none-${width}-${colorScheme}`));

      f = await launchAndTrade(service, api, { creator: 11, sharer: 12, trader: 13 });
      await page.reload();
      await card(page).waitFor();
      expect(await page.title()).toBe('Your launches · Launchpad Companion');
      expect(await card(page).getAttribute('data-token')).toBe(f.token);

      // Before: nothing collected, the fees waiting are what the pool's positions owe, the holders' balances the chain's.
      const before = (await api.get(`/wallets/${CREATOR.address}/launches`)).body.launches[0];
      expect(await weiAt(page, 'creator-fees-uncollected-pair')).toBe(before.fees.pair.uncollected.wei);
      expect(await weiAt(page, 'creator-fees-uncollected-tokens')).toBe(before.fees.token.uncollected.wei);
      expect(BigInt(before.fees.pair.uncollected.wei) > 0n).toBe(true);
      expect(await weiAt(page, 'creator-royalty-pair')).toBe('0');
      expect(await weiAt(page, 'creator-burned-tokens')).toBe('0');
      expect(await weiAt(page, 'creator-pending-pair')).toBe((await f.pending()).toString());
      for (const holder of [CREATOR, SHARER]) {
        expect(await holderWei(page, holder.address)).toBe((await f.balanceOf(holder.address)).toString());
      }
      // Amounts as a trader reads them: a few significant digits with separators, the dollars under the pair side.
      const uncollected = BigInt(before.fees.token.uncollected.wei);
      const shown = await card(page).getByTestId('creator-fees-uncollected-tokens').textContent();
      expect(shown?.startsWith(`${formatAmount(uncollected, 18, { significant: 5 })}RCAT`), shown ?? '').toBe(true);
      expect(await card(page).getByTestId('creator-fees-total-pair').textContent()).toMatch(/BNB\$\d/);
      await inEveryLook(page, async ({ width, colorScheme }) => {
        await screenshot(page, `creator-${width}-${colorScheme}`);
        const found = await seriousViolations(page);
        expect(found, describeViolations(found)).toEqual([]);
      });

      // Collect: the review decodes it as a collect of this token on our factory, with who gains what.
      const creatorBnb = await api.client.getBalance({ address: CREATOR.address as Address });
      const creatorTokens = await f.balanceOf(CREATOR.address as Address);
      const deadTokens = await f.balanceOf(DEAD);
      await card(page).getByTestId('creator-collect').click();
      const review = page.getByTestId('review');
      await review.waitFor();
      expect(await review.textContent()).toContain('Collect the trading fees of');
      expect(await review.textContent()).toContain(`${CREATOR.address} receives`);
      const told = async (testId: string) =>
        review
          .getByTestId(testId)
          .locator('[data-wei]')
          .evaluateAll((els) => els.map((el) => el.getAttribute('data-wei')));
      const toldRoyalty = await told('review-collect-royalty');
      const toldBurned = await told('review-collect-burned');
      const toldPending = await told('review-collect-pending');
      expect(await review.getByTestId('review-collect-royalty').textContent()).toContain('Royalty to you');
      await inEveryLook(page, ({ width, colorScheme }) => screenshot(page, `creator-review-${width}-${colorScheme}`));
      await approveReview(page);
      await expect.poll(() => card(page).getByTestId('progress').getAttribute('data-stage'), WAIT).toBe('done');

      const logs = await api.client.getContractEvents({
        address: f.factory,
        abi: LaunchFactory.abi,
        eventName: 'Collected',
        fromBlock: 0n,
      });
      const [event] = parseEventLogs({ abi: LaunchFactory.abi, logs, eventName: 'Collected' });
      if (!event) throw new Error('the collect emitted no Collected event');
      const { args } = event;
      const receipt = await api.client.getTransactionReceipt({ hash: event.transactionHash });
      expect(receipt.from.toLowerCase()).toBe(CREATOR.address.toLowerCase());
      // The review said what the chain then did, to the wei.
      expect(toldRoyalty).toEqual([args.pairToRoyalty.toString(), args.tokenToRoyalty.toString()]);
      expect(toldBurned).toEqual([args.tokensBurned.toString()]);
      expect(toldPending).toEqual([args.buybackPending.toString()]);
      // It took exactly what the page said was waiting, and paid the creator and the burn to the wei.
      expect(args.pairFees.toString()).toBe(before.fees.pair.uncollected.wei);
      expect(args.tokenFees.toString()).toBe(before.fees.token.uncollected.wei);
      const gas = receipt.gasUsed * receipt.effectiveGasPrice;
      expect((await api.client.getBalance({ address: CREATOR.address as Address })) - creatorBnb).toBe(
        args.pairToRoyalty - gas,
      );
      expect((await f.balanceOf(CREATOR.address as Address)) - creatorTokens).toBe(args.tokenToRoyalty);
      expect((await f.balanceOf(DEAD)) - deadTokens).toBe(args.tokensBurned);

      // After: the page reads again once the collect is indexed, and every figure is the chain's.
      await expect.poll(() => weiAt(page, 'creator-royalty-pair'), WAIT).toBe(args.pairToRoyalty.toString());
      expect(await weiAt(page, 'creator-royalty-tokens')).toBe(args.tokenToRoyalty.toString());
      expect(await weiAt(page, 'creator-burned-tokens')).toBe(args.tokensBurned.toString());
      expect(await weiAt(page, 'creator-pending-pair')).toBe((await f.pending()).toString());
      expect(await weiAt(page, 'creator-pending-pair')).toBe(args.buybackPending.toString());
      const after = (await api.get(`/wallets/${CREATOR.address}/launches`)).body.launches[0];
      expect(BigInt(after.fees.pair.total.wei)).toBe(args.pairFees + BigInt(after.fees.pair.uncollected.wei));
      expect(await weiAt(page, 'creator-fees-total-pair')).toBe(after.fees.pair.total.wei);
      expect(await holderWei(page, CREATOR.address as Address)).toBe(
        (await f.balanceOf(CREATOR.address as Address)).toString(),
      );
      await inEveryLook(page, ({ width, colorScheme }) =>
        screenshot(page, `creator-collected-${width}-${colorScheme}`),
      );
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
