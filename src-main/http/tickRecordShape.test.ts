import { expect, it } from 'vitest';
import { heldTickRecord, holdTickRecordShape } from './tickRecordShape';

it("holds one of Node's own nextTick records, and only the first one caught", async () => {
  holdTickRecordShape();
  const record = heldTickRecord() as Record<string | symbol, unknown> | undefined;
  // The record as Node builds it: its async id and trigger id under Node's symbols first (Node 22 adds its async
  // context frame after them), then the callback and its args.
  expect(record).toBeDefined();
  expect(Object.getOwnPropertySymbols(record).map(String).slice(0, 2)).toEqual([
    'Symbol(async_id_symbol)',
    'Symbol(trigger_async_id_symbol)',
  ]);
  expect(Object.keys(record as object)).toEqual(['callback', 'args']);
  expect(typeof record?.callback).toBe('function');
  // The hook is off again: later ticks neither replace the record nor are caught.
  await new Promise((resolve) => process.nextTick(resolve));
  holdTickRecordShape();
  expect(heldTickRecord()).toBe(record);
});
