import { formatDecimalDigits } from '../core/units/decimalAmount';
import { type MicroPrice, usdText } from '../core/units/dollarValue';
import { type Quote, quotePrices } from '../services/quoteService';
import type { TokenFacts } from '../services/tokenRegistry';
import { tradeJson } from './tradeInput';

/** Each token's part of the answer, `{"token":{…}`, written once by tradeJson itself: a token's facts never change. */
const heads = new WeakMap<TokenFacts, string>();

/**
 * The answer's pieces, written in place and joined once: joining writes one flat string, where concatenation built a
 * tree of some eighty strings that sending it flattened again. The text allocated 3.6 KB per quote, joined 2.4 KB
 * (`npm run bench -- quote-work`); the join takes a little longer than concatenating, but under load each byte
 * allocated costs more than its time here (quote-vs-bare read 51.8 and 54.7% joined against 50.4 and 51.4%
 * concatenated, taken in turn). The answer always has PIECES pieces (a null dollar value swaps its quotes for `null`),
 * so the array never changes size.
 */
const PIECES = 41;
const pieces: string[] = new Array<string>(PIECES).fill('');

/**
 * Writes an amount's `"amount":"…","wei":"…"`, then `middle` (its symbol or its kind), its dollar value and the
 * closing brace, from piece `at` on; returns the next piece's index. Its digits are written once.
 */
function putAmount(at: number, wei: bigint, decimals: number, middle: string, price: MicroPrice | null): number {
  const digits = wei.toString();
  const usd = usdText(wei, price);
  pieces[at] = '"amount":"';
  pieces[at + 1] = formatDecimalDigits(digits, decimals);
  pieces[at + 2] = '","wei":"';
  pieces[at + 3] = digits;
  pieces[at + 4] = middle;
  // A dollar value is digits and a dot: nothing to escape.
  pieces[at + 5] = usd === null ? '"usd":null}' : '"usd":"';
  pieces[at + 6] = usd ?? '';
  pieces[at + 7] = usd === null ? '' : '"}';
  return at + 8;
}

/**
 * `","symbol":…,` of a currency: its symbol as JSON (escaped as JSON.stringify escapes it: a symbol is whatever its
 * creator chose) between the amount's fields.
 */
const symbolMiddles = new Map<string, string>();
const MAX_SYMBOLS = 1024;

function symbolMiddle(symbol: string): string {
  let text = symbolMiddles.get(symbol);
  if (text === undefined) {
    if (symbolMiddles.size >= MAX_SYMBOLS) symbolMiddles.clear();
    text = `","symbol":${JSON.stringify(symbol)},`;
    symbolMiddles.set(symbol, text);
  }
  return text;
}

/** The site fee's `","symbol":…,"bps":…,`, the last one kept: the pair and the fee rate change rarely. */
let lastFeeMiddle = { symbol: '', bps: -1, text: '' };

function siteFeeMiddle(symbol: string, bps: number): string {
  if (lastFeeMiddle.symbol !== symbol || lastFeeMiddle.bps !== bps)
    lastFeeMiddle = { symbol, bps, text: `${symbolMiddle(symbol).slice(0, -1)},"bps":${bps},` };
  return lastFeeMiddle.text;
}

/**
 * `JSON.stringify(tradeJson(quote))`, the same bytes (a test holds the two equal), written out field by field: GET
 * /quote's lean route answers with it, where JSON.stringify's walk of the nested object cost a fifth of a quote. Only
 * the symbols need escaping; amounts and wei are digits, the rest are the schema's own words and numbers.
 */
export function tradeJsonText(quote: Quote): string {
  const { token } = quote;
  let head = heads.get(token);
  if (head === undefined) {
    head = `{"token":${JSON.stringify(tradeJson(quote).token)}`;
    heads.set(token, head);
  }
  const minReceive = quote.limitKind === 'minReceive';
  const limitCurrency = minReceive ? quote.receiveCurrency : quote.payCurrency;
  const prices = quotePrices(quote);
  const impact = quote.priceImpactPct;
  pieces[0] = head;
  pieces[1] = quote.side === 'buy' ? ',"side":"buy","exact":"' : ',"side":"sell","exact":"';
  pieces[2] = quote.exact === 'in' ? 'in","slippageBps":' : 'out","slippageBps":';
  pieces[3] = String(quote.slippageBps);
  pieces[4] = ',"pay":{';
  let at = putAmount(5, quote.pay, quote.payCurrency.decimals, symbolMiddle(quote.payCurrency.symbol), prices.pay);
  pieces[at] = ',"receive":{';
  const receive = quote.receiveCurrency;
  at = putAmount(at + 1, quote.receive, receive.decimals, symbolMiddle(receive.symbol), prices.receive);
  pieces[at] = ',"limit":{';
  const limitPrice = minReceive ? prices.receive : prices.pay;
  const kind = minReceive ? '","kind":"minReceive",' : '","kind":"maxPay",';
  at = putAmount(at + 1, quote.limit, limitCurrency.decimals, kind, limitPrice);
  pieces[at] = ',"siteFee":{';
  const feeMiddle = siteFeeMiddle(token.pair.symbol, quote.siteFeeBps);
  at = putAmount(at + 1, quote.siteFee, token.pair.decimals, feeMiddle, prices.pair);
  pieces[at] = `,"priceImpactPct":${Number.isFinite(impact) ? String(impact) : 'null'}}`;
  return pieces.join('');
}
