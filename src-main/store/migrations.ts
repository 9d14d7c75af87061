/**
 * Append-only schema history, named by date. Never edit or reorder an entry once it has shipped: a database written
 * by an older version must open, so changes are always new entries at the end.
 */
export interface Migration {
  readonly id: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: '2026-11-22-devnet-journal',
    sql: `
      -- Every block that users made on the embedded devnet (through /rpc), replayed in order on the next start.
      CREATE TABLE devnet_journal (
        seq         INTEGER PRIMARY KEY,
        fingerprint TEXT    NOT NULL,  -- hash of the devnet's last deployment block: which devnet build it ran on
        kind        TEXT    NOT NULL CHECK (kind IN ('tx', 'mine')),
        timestamp   INTEGER NOT NULL,  -- the block's timestamp, reused on replay
        raw         TEXT,              -- the signed transaction, for kind 'tx'
        tx_hash     TEXT,
        block_hash  TEXT    NOT NULL,  -- checked on replay: the same block must come out
        recorded_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX devnet_journal_fingerprint ON devnet_journal (fingerprint, seq);
    `,
  },
  {
    id: '2026-11-23-indexer',
    sql: `
      -- What the indexer follows and how far it got: every event up to and including \`block\` is stored.
      CREATE TABLE index_state (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        chain_id   INTEGER NOT NULL,
        factory    TEXT    NOT NULL,
        router     TEXT    NOT NULL,
        referrals  TEXT,
        from_block INTEGER NOT NULL,  -- where the backfill started (the contracts' deploy block)
        block      INTEGER NOT NULL,  -- from_block - 1 until the first batch is in
        hash       TEXT,              -- that block's hash, checked against the chain before going on
        updated_at INTEGER NOT NULL
      ) STRICT;

      -- Hashes of recently indexed blocks, to find where a reorganized chain forked from the one indexed.
      CREATE TABLE index_blocks (
        number INTEGER PRIMARY KEY,
        hash   TEXT NOT NULL
      ) STRICT;

      -- One row per Launched event. Amounts are wei as decimal strings; addresses checksummed.
      CREATE TABLE launches (
        token            TEXT    PRIMARY KEY,
        creator          TEXT    NOT NULL,
        pool             TEXT    NOT NULL,
        pair             TEXT    NOT NULL,
        fee              INTEGER NOT NULL,
        supply           TEXT    NOT NULL,
        opening_tick     INTEGER NOT NULL,
        salt             TEXT    NOT NULL,
        name             TEXT    NOT NULL,
        symbol           TEXT    NOT NULL,
        metadata_uri     TEXT    NOT NULL,
        royalty_to       TEXT,             -- null: royalties go to the creator
        burn_bps         INTEGER NOT NULL,
        ranges           TEXT    NOT NULL, -- the shape: JSON [{ tickLower, tickUpper, bps }]
        first_buy_spent  TEXT,             -- null when the launch had no first buy
        first_buy_tokens TEXT,
        block            INTEGER NOT NULL,
        log_index        INTEGER NOT NULL,
        tx_hash          TEXT    NOT NULL,
        timestamp        INTEGER NOT NULL  -- the block's, Unix seconds
      ) STRICT;
      CREATE UNIQUE INDEX launches_position ON launches (block, log_index);
      CREATE INDEX launches_creator ON launches (creator);

      -- The logo of each launch, found in its metadata after indexing (network work, kept apart from the events).
      CREATE TABLE launch_images (
        token        TEXT    PRIMARY KEY REFERENCES launches (token) ON DELETE CASCADE,
        state        TEXT    NOT NULL CHECK (state IN ('pending', 'found', 'none', 'retry')),
        image        TEXT,               -- ipfs:// or https:// link from the metadata
        attempts     INTEGER NOT NULL DEFAULT 0,
        next_attempt INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX launch_images_due ON launch_images (state, next_attempt);

      -- Every Trade event of the router.
      CREATE TABLE trades (
        block        INTEGER NOT NULL,
        log_index    INTEGER NOT NULL,
        tx_hash      TEXT    NOT NULL,
        timestamp    INTEGER NOT NULL,
        trader       TEXT    NOT NULL,
        token        TEXT    NOT NULL,
        referrer     TEXT,              -- null: no referrer
        pair         TEXT    NOT NULL,
        is_buy       INTEGER NOT NULL CHECK (is_buy IN (0, 1)),
        pair_amount  TEXT    NOT NULL,
        token_amount TEXT    NOT NULL,
        fee          TEXT    NOT NULL,
        cut          TEXT    NOT NULL,
        PRIMARY KEY (block, log_index)
      ) STRICT;
      CREATE INDEX trades_token ON trades (token, block);
      CREATE INDEX trades_trader ON trades (trader, block);
      CREATE INDEX trades_referrer ON trades (referrer, block) WHERE referrer IS NOT NULL;

      -- Wallet -> referrer, from the router's Bound events: made once, for life.
      CREATE TABLE bindings (
        wallet    TEXT    PRIMARY KEY,
        referrer  TEXT    NOT NULL,
        block     INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        tx_hash   TEXT    NOT NULL,
        timestamp INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX bindings_referrer ON bindings (referrer);
      CREATE INDEX bindings_block ON bindings (block);

      -- Royalty collections, from the factory's Collected events.
      CREATE TABLE collections (
        block            INTEGER NOT NULL,
        log_index        INTEGER NOT NULL,
        tx_hash          TEXT    NOT NULL,
        timestamp        INTEGER NOT NULL,
        token            TEXT    NOT NULL,
        recipient        TEXT    NOT NULL,
        pair_fees        TEXT    NOT NULL,
        token_fees       TEXT    NOT NULL,
        pair_to_royalty  TEXT    NOT NULL,
        token_to_royalty TEXT    NOT NULL,
        tokens_burned    TEXT    NOT NULL,
        PRIMARY KEY (block, log_index)
      ) STRICT;
      CREATE INDEX collections_token ON collections (token, block);

      -- The referral vault's weekly roots and the claims paid from them.
      CREATE TABLE referral_roots (
        block     INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        tx_hash   TEXT    NOT NULL,
        timestamp INTEGER NOT NULL,
        week      INTEGER NOT NULL,
        root      TEXT    NOT NULL,
        total     TEXT    NOT NULL,
        PRIMARY KEY (block, log_index)
      ) STRICT;
      CREATE INDEX referral_roots_week ON referral_roots (week);
      CREATE TABLE referral_claims (
        block     INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        tx_hash   TEXT    NOT NULL,
        timestamp INTEGER NOT NULL,
        referrer  TEXT    NOT NULL,
        week      INTEGER NOT NULL,
        amount    TEXT    NOT NULL,
        PRIMARY KEY (block, log_index)
      ) STRICT;
      CREATE INDEX referral_claims_referrer ON referral_claims (referrer, week);
    `,
  },
  {
    id: '2026-11-24-accounts',
    sql: `
      -- Signed-challenge nonces: issued for one purpose and one wallet, valid 5 minutes, redeemed once.
      CREATE TABLE challenges (
        nonce      TEXT    PRIMARY KEY,
        purpose    TEXT    NOT NULL CHECK (purpose IN ('referral', 'key', 'session')),
        address    TEXT    NOT NULL,
        message    TEXT    NOT NULL,  -- the exact text the wallet signs
        expires_at INTEGER NOT NULL,  -- Unix milliseconds
        used_at    INTEGER            -- set once, when redeemed
      ) STRICT;
      CREATE INDEX challenges_expiry ON challenges (expires_at);

      -- Wallets registered as referrers by signing a challenge.
      CREATE TABLE referrers (
        address       TEXT    PRIMARY KEY,
        registered_at INTEGER NOT NULL
      ) STRICT;

      -- API keys: only a SHA-256 of the secret is kept; the key itself is shown once, when created.
      CREATE TABLE api_keys (
        id           TEXT    PRIMARY KEY,
        wallet       TEXT    NOT NULL,
        label        TEXT    NOT NULL,
        secret_hash  TEXT    NOT NULL UNIQUE,
        hint         TEXT    NOT NULL,  -- the key's last four characters, to tell keys apart in a list
        created_at   INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at   INTEGER
      ) STRICT;
      CREATE INDEX api_keys_wallet ON api_keys (wallet, revoked_at);

      -- Browser sign-in sessions: only a SHA-256 of the cookie's secret is kept.
      CREATE TABLE sessions (
        secret_hash TEXT    PRIMARY KEY,
        wallet      TEXT    NOT NULL,
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        ended_at    INTEGER           -- signed out
      ) STRICT;

      -- Prepared requests: a bot asks for a build, the user reviews and signs it in the app, the hash is reported.
      CREATE TABLE intents (
        id         TEXT    PRIMARY KEY,
        kind       TEXT    NOT NULL CHECK (kind IN ('prepare_buy', 'prepare_sell', 'prepare_launch')),
        wallet     TEXT    NOT NULL,
        request    TEXT    NOT NULL,  -- JSON: the body of the matching build
        key_wallet TEXT,              -- the wallet of the API key the bot sent: the default referrer of the build
        state      TEXT    NOT NULL CHECK (state IN ('pending', 'built', 'sent', 'confirmed', 'failed')),
        build      TEXT,              -- JSON: the build answer shown for review
        tx_hash    TEXT,
        block      INTEGER,           -- where the transaction was mined
        reason     TEXT,              -- why it failed
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX intents_wallet ON intents (wallet, state, created_at);
    `,
  },
  {
    id: '2026-11-25-lifetime-weeks',
    sql: `
      -- Closed weeks of the lifetime referral share: the Merkle root of what each referrer is paid, and its posting.
      CREATE TABLE referral_weeks (
        week        INTEGER PRIMARY KEY,  -- weeks from Monday 2026-01-05 00:00 UTC
        root        TEXT,                 -- null when nobody is owed anything that week
        total       TEXT    NOT NULL,     -- wei the vault is funded with for the week
        post_tx     TEXT,                 -- the operator's postRoot transaction, once sent
        computed_at INTEGER NOT NULL
      ) STRICT;

      -- Each referrer's part of a closed week: what the week owed, what was carried in, what is paid (capped), what
      -- carries on, and the proof the vault checks.
      CREATE TABLE referral_week_shares (
        week          INTEGER NOT NULL,
        referrer      TEXT    NOT NULL,
        owed          TEXT    NOT NULL,
        carried       TEXT    NOT NULL,
        amount        TEXT    NOT NULL,
        backlog       TEXT    NOT NULL,
        backlog_since INTEGER,            -- first week of the backlog still carried
        backlog_last  INTEGER,            -- last week that added to it
        proof         TEXT,               -- JSON array of hashes; null when the amount is 0
        PRIMARY KEY (week, referrer)
      ) STRICT;
      CREATE INDEX referral_week_shares_referrer ON referral_week_shares (referrer, week);
    `,
  },
  {
    id: '2026-11-26-block-prices',
    sql: `
      -- The BNB dollar price (the WBNB/USDT pool's sqrtPriceX96) at each indexed block with trades, read as the block
      -- is indexed: later, only an archive node could read it. Rolled back with the block on a reorganization.
      CREATE TABLE block_prices (
        block          INTEGER PRIMARY KEY,
        sqrt_price_x96 TEXT    NOT NULL
      ) STRICT;
    `,
  },
  {
    id: '2026-11-27-activity',
    sql: `
      -- What the app signed and sent for the person, one row per transaction or message, kept across restarts. A row is
      -- written before the signer is asked and its hash before the transaction is broadcast, so a crash loses nothing:
      -- on the next start, 'sent' rows are followed to their receipt and 'signing' rows are marked interrupted.
      CREATE TABLE activity (
        id         TEXT    PRIMARY KEY,
        group_id   TEXT    NOT NULL,  -- one action: a trade with its approval steps shares one group
        step       TEXT    NOT NULL,  -- 'main', a requires step's name (approve-permit2...), or 'message'
        kind       TEXT    NOT NULL,  -- buy, sell, launch, claim, approve, register, key, transfer...
        title      TEXT    NOT NULL,  -- the one sentence shown when it was reviewed
        wallet     TEXT    NOT NULL,
        chain_id   INTEGER NOT NULL,
        to_address TEXT,
        data       TEXT,
        value      TEXT,
        message    TEXT,              -- for a signed message: its text
        nonce      INTEGER,
        raw        TEXT,              -- the signed transaction, to broadcast again if the node lost it
        hash       TEXT,
        status     TEXT    NOT NULL CHECK (status IN ('signing', 'signed', 'sent', 'confirmed', 'reverted', 'failed')),
        error      TEXT,
        block      INTEGER,
        gas_used   TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX activity_created ON activity (created_at DESC, id);
      CREATE INDEX activity_status ON activity (status) WHERE status IN ('signing', 'sent');
    `,
  },
  {
    id: '2026-11-28-intent-sources',
    sql: `
      -- Who asked for each prepared request: an API key (its id, label and wallet, as they were when it asked) or the
      -- app itself. Rows written before sources were kept have none: those made with a key keep it as the source (id
      -- and label unknown); those made without one came from an unknown source and are closed, not left to sign.
      ALTER TABLE intents ADD COLUMN source TEXT CHECK (source IN ('key', 'app'));
      ALTER TABLE intents ADD COLUMN key_id TEXT;
      ALTER TABLE intents ADD COLUMN key_label TEXT;
      UPDATE intents SET source = 'key' WHERE key_wallet IS NOT NULL;
      UPDATE intents
         SET state = 'failed',
             reason = 'made before prepared requests needed a known source: ask again with an API key',
             updated_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000
       WHERE source IS NULL AND state IN ('pending', 'built');

      -- One transaction fulfils one request. An older version let one hash confirm several: the earliest-made request
      -- keeps it, the others are closed without it.
      UPDATE intents
         SET state = 'failed',
             tx_hash = NULL,
             block = NULL,
             reason = 'its reported transaction fulfilled another request made earlier',
             updated_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000
       WHERE tx_hash IS NOT NULL
         AND EXISTS (
           SELECT 1 FROM intents AS earlier
            WHERE earlier.tx_hash = intents.tx_hash
              AND (earlier.created_at < intents.created_at
                   OR (earlier.created_at = intents.created_at AND earlier.id < intents.id))
         );
      CREATE UNIQUE INDEX intents_tx_hash ON intents (tx_hash) WHERE tx_hash IS NOT NULL;
      `,
  },
  {
    id: '2026-11-28-launch-images-served-here',
    sql: `
      -- Logos are now fetched, checked and served from /media: the state 'held' waits for third-party fetches to be
      -- switched back on, and a logo found before as a remote link is looked for again, to be stored here.
      CREATE TABLE launch_images_next (
        token        TEXT    PRIMARY KEY REFERENCES launches (token) ON DELETE CASCADE,
        state        TEXT    NOT NULL CHECK (state IN ('pending', 'found', 'none', 'retry', 'held')),
        image        TEXT,               -- /media/<cid> of the logo stored here
        attempts     INTEGER NOT NULL DEFAULT 0,
        next_attempt INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      INSERT INTO launch_images_next (token, state, image, attempts, next_attempt)
        SELECT token,
               CASE WHEN state = 'found' AND image NOT LIKE '/media/%' THEN 'pending' ELSE state END,
               CASE WHEN state = 'found' AND image NOT LIKE '/media/%' THEN NULL ELSE image END,
               CASE WHEN state = 'found' AND image NOT LIKE '/media/%' THEN 0 ELSE attempts END,
               CASE WHEN state = 'found' AND image NOT LIKE '/media/%' THEN 0 ELSE next_attempt END
        FROM launch_images;
      DROP TABLE launch_images;
      ALTER TABLE launch_images_next RENAME TO launch_images;
      CREATE INDEX launch_images_due ON launch_images (state, next_attempt);
    `,
  },
  {
    id: '2026-11-29-first-buy-fee-and-token-details',
    sql: `
      -- The first buy is listed among the token's trades, with its site fee as the FirstBuy event tells it: an index
      -- holding first buys without their fee is started afresh (the indexer reads them again from the deploy block).
      ALTER TABLE launches ADD COLUMN first_buy_fee TEXT;
      DELETE FROM index_state WHERE EXISTS (SELECT 1 FROM launches WHERE first_buy_spent IS NOT NULL);
      -- The metadata's details (description, website, X, Telegram), kept as checked JSON when the logo is found; logos
      -- found before are looked for again, so their details are read.
      ALTER TABLE launch_images ADD COLUMN details TEXT;
      UPDATE launch_images SET state = 'pending', attempts = 0, next_attempt = 0 WHERE state = 'found';
    `,
  },
  {
    id: '2026-11-30-devnet-forks',
    sql: `
      -- Which rehearsal each journal fingerprint belongs to: a fork replays only onto the same source and fork block.
      CREATE TABLE devnet_forks (
        fingerprint     TEXT    PRIMARY KEY,
        source_url      TEXT    NOT NULL,
        source_chain_id INTEGER NOT NULL,
        fork_block      INTEGER NOT NULL,
        recorded_at     INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX devnet_forks_source ON devnet_forks (source_url, recorded_at);
    `,
  },
  {
    id: '2026-12-01-devnet-cadence',
    sql: `
      -- The devnet at a block cadence (--block-time): a transaction enters the mempool ('pool') and is mined later in a
      -- block with others ('mine'); empty blocks are kept as runs ('empty', their timestamps in \`times\`); moving the
      -- chain's clock ('time', the offset in seconds from the wall clock in \`timestamp\`) is replayed too. SQLite
      -- cannot widen a CHECK in place, so the table is made anew with the rows it had.
      CREATE TABLE devnet_journal_new (
        seq         INTEGER PRIMARY KEY,
        fingerprint TEXT    NOT NULL,
        kind        TEXT    NOT NULL CHECK (kind IN ('tx', 'mine', 'pool', 'empty', 'time')),
        timestamp   INTEGER NOT NULL,  -- the block's timestamp (an empty run's first), or the clock offset ('time')
        raw         TEXT,              -- the signed transaction, for kinds 'tx' and 'pool'
        tx_hash     TEXT,
        block_hash  TEXT    NOT NULL,  -- checked on replay (an empty run's last block); '' where there is no block
        recorded_at INTEGER NOT NULL,
        times       TEXT               -- an empty run: each later block's timestamp less the one before, comma-separated
      ) STRICT;
      INSERT INTO devnet_journal_new (seq, fingerprint, kind, timestamp, raw, tx_hash, block_hash, recorded_at)
        SELECT seq, fingerprint, kind, timestamp, raw, tx_hash, block_hash, recorded_at FROM devnet_journal;
      DROP TABLE devnet_journal;
      ALTER TABLE devnet_journal_new RENAME TO devnet_journal;
      CREATE INDEX devnet_journal_fingerprint ON devnet_journal (fingerprint, seq);
    `,
  },
  {
    id: '2026-12-02-activity-revert',
    sql: `
      -- A transaction mined but reverted keeps why as data beside the sentence in \`error\`: the contract's error name
      -- (PoolOccupied, LimitNotMet...), so the app can offer what fits (a launch whose pool was taken is launched
      -- again at a new address); and what the network fee came to, once mined. Rows written before have neither.
      ALTER TABLE activity ADD COLUMN revert TEXT;
      ALTER TABLE activity ADD COLUMN fee_wei TEXT;
    `,
  },
  {
    id: '2026-12-02-private-sending',
    sql: `
      -- A launch (and, when asked, a trade) may be sent to a block builder's private RPC instead of the public one: the
      -- activity row says so, set before the transaction leaves. Rows written before are public sends (0).
      ALTER TABLE activity ADD COLUMN sent_privately INTEGER NOT NULL DEFAULT 0 CHECK (sent_privately IN (0, 1));
      -- The devnet's private lane: a transaction held outside the mempool ('private') until the next block takes it.
      -- SQLite cannot widen a CHECK in place, so the journal is made anew with the rows it had.
      CREATE TABLE devnet_journal_new (
        seq         INTEGER PRIMARY KEY,
        fingerprint TEXT    NOT NULL,
        kind        TEXT    NOT NULL CHECK (kind IN ('tx', 'mine', 'pool', 'empty', 'time', 'private')),
        timestamp   INTEGER NOT NULL,  -- the block's timestamp (an empty run's first), or the clock offset ('time')
        raw         TEXT,              -- the signed transaction, for kinds 'tx', 'pool' and 'private'
        tx_hash     TEXT,
        block_hash  TEXT    NOT NULL,  -- checked on replay (an empty run's last block); '' where there is no block
        recorded_at INTEGER NOT NULL,
        times       TEXT               -- an empty run: each later block's timestamp less the one before, comma-separated
      ) STRICT;
      INSERT INTO devnet_journal_new (seq, fingerprint, kind, timestamp, raw, tx_hash, block_hash, recorded_at, times)
        SELECT seq, fingerprint, kind, timestamp, raw, tx_hash, block_hash, recorded_at, times FROM devnet_journal;
      DROP TABLE devnet_journal;
      ALTER TABLE devnet_journal_new RENAME TO devnet_journal;
      CREATE INDEX devnet_journal_fingerprint ON devnet_journal (fingerprint, seq);
    `,
  },
  {
    id: '2026-12-03-key-budgets',
    sql: `
      -- A key the app's owner made may carry its own rate budget a minute, counted instead of its caller's address's;
      -- both or neither. Keys written before, and keys made by signing a challenge alone, have none (NULL).
      ALTER TABLE api_keys ADD COLUMN quotes_per_minute INTEGER CHECK (quotes_per_minute > 0);
      ALTER TABLE api_keys ADD COLUMN builds_per_minute INTEGER CHECK (builds_per_minute > 0);
    `,
  },
  {
    id: '2026-12-07-activity-moved',
    sql: `
      -- What a confirmed transaction really moved for the wallet, read from its receipt's logs (the tokens that
      -- arrived, a sale's BNB, what the trade paid), as JSON: the list shows that rather than the build's floor. Rows
      -- written before have none (NULL) and show the floor, as they did.
      ALTER TABLE activity ADD COLUMN moved TEXT;
    `,
  },
  // issue 31 (holders)
  {
    id: '2026-12-07-holders',
    sql: `
      -- The launched tokens' holders, from their Transfer logs: per token and holder the balance, wei as a decimal
      -- string like every amount here; a holder whose balance comes to zero has no row, so a count is the holders.
      CREATE TABLE holders (
        token   TEXT NOT NULL,
        holder  TEXT NOT NULL,
        balance TEXT NOT NULL,
        PRIMARY KEY (token, holder)
      ) STRICT;
      -- The largest first without a sort: decimal strings without leading zeros order as numbers by length, then text.
      CREATE INDEX holders_top ON holders (token, length(balance) DESC, balance DESC);
      -- What each block changed, signed wei, for the blocks a reorganization can still reach (the kept block hashes'):
      -- a rollback subtracts them from the balances.
      CREATE TABLE holder_changes (
        block  INTEGER NOT NULL,
        token  TEXT    NOT NULL,
        holder TEXT    NOT NULL,
        delta  TEXT    NOT NULL
      ) STRICT;
      CREATE INDEX holder_changes_block ON holder_changes (block);
      -- Who received each launch's first buy (the factory's transfers out in the launch's transaction).
      CREATE TABLE first_buy_recipients (
        token  TEXT    NOT NULL,
        wallet TEXT    NOT NULL,
        tokens TEXT    NOT NULL,
        block  INTEGER NOT NULL,
        PRIMARY KEY (token, wallet)
      ) STRICT;
      CREATE INDEX first_buy_recipients_block ON first_buy_recipients (block);
      -- The transfers so far were not followed: the index starts afresh from the deploy block to read them.
      DELETE FROM index_state;
    `,
  },
  // issue 31 (alerts)
  {
    id: '2026-12-07-watchlist',
    sql: `
      -- Tokens the person starred, each with at most one alert rule: the price of one whole token or the market cap
      -- crossing \`alert_figure\` (wei of 18 decimals of dollars or BNB) upwards ('above') or downwards ('below').
      -- \`alert_state\` is where the value last stood against the rule, so a crossing fires once and a restart does
      -- not fire it again: 'unknown' until first seen, 'armed' on the near side, 'fired' past the figure.
      CREATE TABLE watched_tokens (
        token           TEXT    PRIMARY KEY,
        added_at        INTEGER NOT NULL,
        alert_metric    TEXT    CHECK (alert_metric IN ('price', 'cap')),
        alert_direction TEXT    CHECK (alert_direction IN ('above', 'below')),
        alert_currency  TEXT    CHECK (alert_currency IN ('usd', 'bnb')),
        alert_figure    TEXT,
        alert_state     TEXT    CHECK (alert_state IN ('unknown', 'armed', 'fired')),
        CHECK ((alert_metric IS NULL) = (alert_figure IS NULL))
      ) STRICT;
      -- Creators the person starred: their launches raise a notification.
      CREATE TABLE watched_creators (
        creator  TEXT    PRIMARY KEY,
        added_at INTEGER NOT NULL
      ) STRICT;
      -- Kinds of notification switched off in Settings (every kind is on until switched off).
      CREATE TABLE alert_kinds_off (
        kind TEXT PRIMARY KEY
      ) STRICT;
    `,
  },
];
