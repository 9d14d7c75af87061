import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type Address, getAddress, parseEther, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { TokenSchema } from '../../src-shared/schema/tokens';
import { describeViolations, seriousViolations, type Violation } from '../support/accessibility';
import { type ServiceDrivers, serviceDrivers } from '../support/serviceDrivers';
import { startTestService, type TestService } from '../support/startTestService';
import { tokenBalance } from '../support/tokenBalance';
import { tokenMoves } from '../support/tokenMoves';
import { ARTIFACTS, importLocalKey, inEveryLook, launchChromium, openApp, webUiOptions } from '../support/webUi';

const WAIT = { timeout: 20_000, interval: 100 };
const accounts = testAccounts();
const address = (index: number) => getAddress(accounts[index]?.address ?? zeroAddress);
const DEAD = getAddress('0x000000000000000000000000000000000000dEaD');
/** The signer imported in the browser: a buyer of the token, so the page marks its row "you". */
const SIGNER = 6;

let service: TestService;
let s: ServiceDrivers;
let browser: Browser;
let token: Address;
let pool: Address;
let moves: ReturnType<typeof tokenMoves>;

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  s = await serviceDrivers(service);
  moves = tokenMoves(service, s);
  browser = await launchChromium();
  ({ token, pool } = await moves.launchSplit('holders-ui', 'HOWL', [
    [3, 7000],
    [4, 3000],
  ]));
  await moves.trade(2, 'buyExactIn', token, pool, parseEther('0.4'));
  await moves.trade(SIGNER, 'buyExactIn', token, pool, parseEther('1.5'));
  await moves.trade(7, 'buyExactIn', token, pool, parseEther('0.05'));
  await moves.trade(
    SIGNER,
    'sellExactIn',
    token,
    pool,
    (await tokenBalance(s.api.client, token, address(SIGNER))) / 4n,
  );
  await moves.transfer(3, token, address(8), (await tokenBalance(s.api.client, token, address(3))) / 3n);
  await moves.transfer(7, token, DEAD, 10n ** 18n);
  // A holder with a sliver of the supply, whose share reads as under a hundredth of a percent.
  await moves.transfer(7, token, address(9), 10n ** 15n);
  await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  rmSync(webUiOptions.settingsFile ?? '', { force: true });
});

/** What the page's holder rows say: address, labels, the balance's wei and the share as written. */
function rowsOf(page: Page) {
  return page.getByTestId('holder-row').evaluateAll((rows) =>
    rows.map((row) => ({
      address: row.getAttribute('data-address'),
      labels: row.getAttribute('data-labels'),
      wei: row.querySelector('[data-testid="holder-balance"]')?.getAttribute('data-wei'),
      share: row.querySelector('[data-testid="holder-share"]')?.textContent,
    })),
  );
}

/** The holders card at both sizes in both themes, and the whole page, each checked by axe-core. */
async function shots(page: Page, name: string): Promise<void> {
  const dir = join(ARTIFACTS, 'screens');
  mkdirSync(dir, { recursive: true });
  const found: Violation[] = [];
  await inEveryLook(page, async ({ width, colorScheme }) => {
    await page.getByTestId('token-holders').screenshot({ path: join(dir, `${name}-${width}-${colorScheme}.png`) });
    await page.screenshot({ path: join(dir, `${name}-page-${width}-${colorScheme}.png`), fullPage: true });
    for (const violation of await seriousViolations(page))
      found.push({ ...violation, where: [`${colorScheme} ${width}`] });
  });
  expect(found, describeViolations(found)).toEqual([]);
}

describe('the token page: holders', () => {
  it('lists the indexed holders as the chain has them, largest first, labelled, the signer marked "you"', async () => {
    const { page, errors } = await openApp(browser, service.origin, '/');
    const signer = accounts[SIGNER];
    if (!signer) throw new Error(`no test account ${SIGNER}`);
    await importLocalKey(page, service.origin, signer);
    await page.goto(`${service.origin}/token/${token}`);
    await page.getByTestId('holders').waitFor(WAIT);

    const answer = TokenSchema.parse((await s.api.get(`/tokens/${token}`)).body);
    const holders = answer.holders;
    if (!holders) throw new Error('no holders in the answer');
    await expect
      .poll(() => page.getByTestId('holders-count').getAttribute('data-count'), WAIT)
      .toBe(`${holders.count}`);
    expect(await page.getByTestId('holders-count').textContent()).toBe(`${holders.count} holders`);

    const rows = await rowsOf(page);
    expect(rows.map((row) => row.address)).toEqual(holders.top.map((holder) => holder.address));
    // Every balance shown is the chain's, and the largest comes first.
    for (const row of rows) {
      expect(row.wei, row.address ?? '').toBe(`${await tokenBalance(s.api.client, token, row.address as Address)}`);
    }
    const weis = rows.map((row) => BigInt(row.wei ?? '0'));
    expect([...weis].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))).toEqual(weis);

    const labelsOf = (who: Address) => rows.find((row) => row.address === who)?.labels;
    expect(labelsOf(pool)).toBe('pool');
    expect(labelsOf(address(2))).toBe('creator');
    expect(labelsOf(address(3))).toBe('firstBuy');
    expect(labelsOf(address(4))).toBe('firstBuy');
    expect(labelsOf(DEAD)).toBe('dead');
    expect(labelsOf(address(SIGNER))).toBe('you');
    expect(labelsOf(address(8))).toBe('');
    expect(rows.find((row) => row.address === address(9))?.share).toBe('<0.01%');
    const you = page.locator(`[data-testid="holder-row"][data-address="${address(SIGNER)}"]`);
    expect(await you.getByTestId('holder-label-you').textContent()).toBe('You');
    expect(await you.getByTestId('holder-address').getAttribute('data-hash')).toBe(address(SIGNER));

    await shots(page, 'token-holders');
    expect(errors).toEqual([]);
  });

  it('follows a transfer to a new holder, and one that empties a holder', async () => {
    await moves.transfer(4, token, address(10), await tokenBalance(s.api.client, token, address(4)));
    await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
    const { page, errors } = await openApp(browser, service.origin, `/token/${token}`);
    await page.getByTestId('holders').waitFor(WAIT);
    const rows = await rowsOf(page);
    expect(rows.find((row) => row.address === address(4))).toBeUndefined();
    expect(rows.find((row) => row.address === address(10))?.labels).toBe('');
    expect(rows.find((row) => row.address === address(10))?.wei).toBe(
      `${await tokenBalance(s.api.client, token, address(10))}`,
    );
    expect(errors).toEqual([]);
  });
});
