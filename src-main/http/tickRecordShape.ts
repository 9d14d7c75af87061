import { createHook } from 'node:async_hooks';

/** Node's async-resource type of the records `process.nextTick` queues. */
export const TICK_RECORD = 'TickObject';

/** One of Node's own nextTick records, held for the life of the process (see holdTickRecordShape). */
let held: object | undefined;

/**
 * Keeps one of `process.nextTick`'s own records alive for the life of the process, so the shape V8 gives those records
 * is never collected. Every HTTP answer queues several of them (Node's streams defer their reads, writes and ends
 * through nextTick), each built as `{ [async_id]: …, [trigger_async_id]: …, callback, args }`. In the service's
 * process, once a major collection had found no record alive and dropped the shape, V8 never built it again: each record got a
 * map of its own through V8's slow runtime path, and every stream site that queues one went megamorphic. perf showed
 * that path on every answer (Runtime_DefineKeyedOwnPropertyInLiteral, MigrateToMap, TransitionToDataProperty), and a
 * bare node:http handler run inside the service's process answered 30-40% fewer requests than the same handler in a
 * process of its own. With one record held, the shape survives every collection, the runtime path is gone from the
 * profile, and GET /quote answered 25-30% more after an idle spell (bench quote-vs-bare, issue 28).
 *
 * The record is caught with an async hook switched on for the one synchronous nextTick call and off again at once;
 * call this first thing, before the process has done enough work for a major collection.
 */
export function holdTickRecordShape(): void {
  if (held !== undefined) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === TICK_RECORD && held === undefined) held = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
}

/** The record held, for the test that checks Node still hands one over (undefined before holdTickRecordShape). */
export function heldTickRecord(): object | undefined {
  return held;
}
