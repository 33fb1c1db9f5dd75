/**
 * The database schema, as numbered migrations: migration N takes a database from schema
 * version N-1 to N. They are applied in order at start; a database whose version is higher
 * than this list is long was written by a newer wfkit and is refused. Never edit a migration
 * that has shipped: add the next one.
 */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    `CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      plan TEXT NOT NULL,
      region TEXT NOT NULL,
      acceptance_outstanding INTEGER NOT NULL DEFAULT 0,
      allowance_minor_units INTEGER NOT NULL,
      used_minor_units INTEGER NOT NULL DEFAULT 0
    )`,
    "CREATE TABLE organisations (id TEXT PRIMARY KEY, name TEXT NOT NULL)",
    `CREATE TABLE users (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      organisation_id TEXT REFERENCES organisations (id),
      name TEXT NOT NULL
    )`,
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      secret_hash TEXT NOT NULL,
      user_id TEXT NOT NULL REFERENCES users (id),
      label TEXT NOT NULL,
      products TEXT NOT NULL,
      scopes TEXT NOT NULL,
      expires_at INTEGER,
      ip_allowlist TEXT NOT NULL,
      revoked_at INTEGER,
      created_at INTEGER NOT NULL
    )`,
    `CREATE TABLE oauth_tokens (
      token_hash TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users (id),
      expires_at INTEGER,
      revoked_at INTEGER
    )`,
    `CREATE TABLE workflows (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      owner_user_id TEXT NOT NULL REFERENCES users (id),
      published_version_id TEXT,
      created_at INTEGER NOT NULL
    )`,
    `CREATE TABLE versions (
      id TEXT PRIMARY KEY,
      workflow_id TEXT NOT NULL REFERENCES workflows (id),
      body TEXT NOT NULL,
      estimate TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      published_at INTEGER
    )`,
    `CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      workflow_id TEXT NOT NULL REFERENCES workflows (id),
      version_id TEXT NOT NULL REFERENCES versions (id),
      owner_user_id TEXT NOT NULL,
      account_id TEXT NOT NULL,
      state TEXT NOT NULL,
      question TEXT,
      mock_case TEXT NOT NULL,
      reserved_minor_units INTEGER NOT NULL,
      drawn_minor_units INTEGER NOT NULL DEFAULT 0,
      released_minor_units INTEGER NOT NULL DEFAULT 0,
      nodes TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      finished_at INTEGER
    )`,
    "CREATE INDEX runs_by_workflow ON runs (workflow_id, created_at)",
    "CREATE INDEX runs_by_owner ON runs (owner_user_id, created_at)",
    `CREATE TABLE idempotency_keys (
      caller TEXT NOT NULL,
      key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      status INTEGER NOT NULL,
      response TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (caller, key)
    )`,
    "CREATE TABLE mock_counters (mock_case TEXT NOT NULL, target TEXT NOT NULL, calls INTEGER NOT NULL, PRIMARY KEY (mock_case, target))",
  ],
  // The Consumer Signals API: alert tokens (hashed), alerts and saved views, per user.
  [
    `CREATE TABLE alert_tokens (
      token_hash TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users (id),
      created_at INTEGER NOT NULL
    )`,
    `CREATE TABLE alerts (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users (id),
      name TEXT NOT NULL,
      type TEXT NOT NULL,
      condition TEXT NOT NULL,
      threshold REAL,
      geography TEXT NOT NULL,
      active INTEGER NOT NULL,
      email TEXT NOT NULL,
      sector_id TEXT,
      series_key TEXT,
      whatsapp_number TEXT,
      min_consecutive REAL,
      created_at INTEGER NOT NULL
    )`,
    "CREATE INDEX alerts_by_user ON alerts (user_id, created_at)",
    `CREATE TABLE saved_views (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users (id),
      name TEXT NOT NULL,
      geography TEXT NOT NULL,
      driver_ids TEXT NOT NULL,
      question TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`,
    "CREATE INDEX saved_views_by_user ON saved_views (user_id, created_at)",
  ],
  // Session JWTs are signed with a key kept in memory only, made anew by each process: the
  // key earlier versions kept in the database, in clear, is deleted (and signs nothing now).
  ["DELETE FROM meta WHERE key = 'session_secret'"],
  // Alerts that fire: each alert's run of periods in which its condition held and the end of
  // the last period it was judged for; the notifications recorded in place of sending them;
  // and the entitlements an account holds beyond its plan (the assistant surface's `anya`).
  [
    "ALTER TABLE alerts ADD COLUMN consecutive_periods INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE alerts ADD COLUMN judged_until INTEGER",
    `CREATE TABLE alert_notifications (
      id TEXT PRIMARY KEY,
      alert_id TEXT NOT NULL REFERENCES alerts (id),
      user_id TEXT NOT NULL REFERENCES users (id),
      period_end INTEGER NOT NULL,
      body TEXT NOT NULL
    )`,
    "CREATE INDEX alert_notifications_by_time ON alert_notifications (period_end)",
    "ALTER TABLE accounts ADD COLUMN entitlements TEXT NOT NULL DEFAULT '[]'",
  ],
  // A run's nodes as rows of their own: a node has its row from the moment it leaves
  // `pending` (the nodes still pending are its version's plan), and a part that finishes
  // writes its own row (its state, output and charge), not the whole run; a run list reads no
  // node at all. The nodes of every existing run move out of the JSON column `runs.nodes` (an
  // array in walking order: an element's index is its position), which then goes.
  [
    `CREATE TABLE run_nodes (
      run_id TEXT NOT NULL REFERENCES runs (id),
      position INTEGER NOT NULL,
      node_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      part_id TEXT,
      cost_minor_units INTEGER NOT NULL,
      state TEXT NOT NULL,
      output TEXT,
      below_floor INTEGER NOT NULL DEFAULT 0,
      failure TEXT,
      delivered INTEGER NOT NULL DEFAULT 0,
      started_at TEXT,
      finished_at TEXT,
      PRIMARY KEY (run_id, position)
    )`,
    `INSERT INTO run_nodes (run_id, position, node_id, kind, part_id, cost_minor_units, state, output, below_floor, failure, delivered, started_at, finished_at)
      SELECT r.id, n.key, n.value ->> '$.nodeId', n.value ->> '$.kind', n.value ->> '$.partId', COALESCE(n.value ->> '$.costMinorUnits', 0),
        n.value ->> '$.state', n.value -> '$.output', COALESCE(n.value ->> '$.belowFloor', 0), n.value -> '$.failure',
        COALESCE(n.value ->> '$.delivered', 0), n.value ->> '$.startedAt', n.value ->> '$.finishedAt'
      FROM runs r, json_each(r.nodes) n
      WHERE n.value ->> '$.state' <> 'pending'`,
    "ALTER TABLE runs DROP COLUMN nodes",
    // A workflow's run list in its order (newest first, then by id) straight from the index, with no sort.
    "DROP INDEX runs_by_workflow",
    "CREATE INDEX runs_listed ON runs (workflow_id, created_at DESC, id)",
  ],
];

/**
 * Migrations that delete a secret: after applying one to an existing database the store
 * rebuilds it (VACUUM), since SQLite leaves a deleted row's bytes in its freed space and the
 * snapshot is a copy of every page.
 */
export const VACUUM_AFTER: ReadonlySet<number> = new Set([3]);
