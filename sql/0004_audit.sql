-- The audit log: every change to a subscription's keys, key limits, cost control, rate limit,
-- spoken terms lists and translated speech switch, written in the same transaction as the change.
-- Never holds a secret. Idempotent: applied at every start.
CREATE TABLE IF NOT EXISTS audit_log (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,              -- order of the changes (never shown: see reports/audit.rs)
    subscription_id TEXT NOT NULL,
    at              TEXT NOT NULL,                                  -- RFC 3339, UTC, whole seconds
    actor_key_id    TEXT,                                           -- the acting admin key; NULL: the operator
    action          TEXT NOT NULL,                                  -- create_key, relabel_key, ...
    target_type     TEXT NOT NULL,                                  -- developer_key, admin_key, subscription, spoken_terms
    target_id       TEXT NOT NULL,
    old_value       TEXT,                                           -- JSON: the changed values before
    new_value       TEXT                                            -- JSON: and after
) STRICT;
-- The report reads one subscription's entries newest first from a cursor.
CREATE INDEX IF NOT EXISTS audit_log_by_subscription ON audit_log (subscription_id, id);
