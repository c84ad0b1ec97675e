-- Applied at every start (`--sqlite @sql/...`, by the local runner and by `spin up`), so every
-- statement is idempotent.

-- Write-ahead logging lets readers run beside the one writer; the mode is stored in the file.
PRAGMA journal_mode = WAL;

-- One row: how many health checks this database has recorded, and when the last one ran.
CREATE TABLE IF NOT EXISTS health_checks (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    checks        INTEGER NOT NULL,
    last_check_at TEXT    NOT NULL
);
