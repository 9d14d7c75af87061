// Loaded into the benchmarked server with --require (and --expose-gc): on SIGUSR2 it runs a full collection and
// prints the heap in use, so the load test can tell a leak from V8 letting its heap grow between major collections
// (the resident size alone grows by hundreds of MiB under a flood of POSTs and comes back down once collected).
process.on('SIGUSR2', () => {
  globalThis.gc();
  process.stderr.write(`heap-after-gc ${process.memoryUsage().heapUsed}\n`);
});
