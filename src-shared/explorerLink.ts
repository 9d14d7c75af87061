/*
 * Where a token can be looked at by anyone: BscScan on BNB Chain and its testnet. The devnet and a rehearsal fork run
 * on this computer only, so no explorer knows what is on them.
 */

/** The block explorers of the chains that have one, by chain id. */
const EXPLORERS: Record<number, { name: string; origin: string }> = {
  56: { name: 'BscScan', origin: 'https://bscscan.com' },
  97: { name: 'BscScan (testnet)', origin: 'https://testnet.bscscan.com' },
};

/**
 * A token's page on the chain's block explorer, or null on a chain no explorer shows (the devnet, a fork).
 *
 * @example explorerTokenLink(56, '0x5FbD…0aa3') // { name: 'BscScan', link: 'https://bscscan.com/token/0x5FbD…0aa3' }
 */
export function explorerTokenLink(chainId: number, token: string): { name: string; link: string } | null {
  const explorer = EXPLORERS[chainId];
  if (!explorer || !/^0x[0-9a-fA-F]{40}$/.test(token)) return null;
  return { name: explorer.name, link: `${explorer.origin}/token/${token}` };
}
