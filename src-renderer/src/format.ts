/** 0x1234…abcd: an address shortened for a row or a chip (the whole one goes in a title or a copy button). */
export const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`;
