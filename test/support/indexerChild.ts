/**
 * An indexer in a process of its own, for the crash test: indexes a chain over HTTP into a database file up to the
 * chain's head, printing `ready` once started, `batch <block>` after each stored batch and `done` at the end. Bundled and run with node by the test, one JSON
 * argument: { rpc, db, chainId, deployBlock, range, addresses: { factory, router, referrals } }.
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import { devnetChain } from '../../src-main/chain/networks';
import { Indexer } from '../../src-main/services/indexer/indexer';
import { IndexStore } from '../../src-main/store/indexStore';
import { openDatabase } from '../../src-main/store/openDatabase';

const options = JSON.parse(process.argv[2] ?? '{}');
const client = createPublicClient({ chain: devnetChain, transport: http(options.rpc) }) as PublicClient;
const db = openDatabase(options.db);
const indexer = new Indexer(
  {
    client,
    chainId: options.chainId,
    addresses: options.addresses,
    deployBlock: BigInt(options.deployBlock),
    consistentRead: (work) => work(),
  },
  new IndexStore(db),
  { confirmations: 0, maxRange: options.range, onBatch: (cursor) => process.stdout.write(`batch ${cursor.block}\n`) },
);
process.stdout.write('ready\n');
await indexer.catchUpOnce();
db.close();
process.stdout.write('done\n');
