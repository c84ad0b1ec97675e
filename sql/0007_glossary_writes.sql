-- Glossary writes in short transactions. Idempotent: applied at every start.
--
-- A new or replacing dictionary is written in chunks of a few thousand entries, each chunk its
-- own transaction, under a draft key no glossary has (`glossary_dictionaries.glossary_id` =
-- `draft_key`), so no listing, read or translation sees it half-written; the last short
-- transaction moves it to its glossary. A removed dictionary is moved under a draft key first
-- (`started_at` 0), then its entries are deleted in chunks. A draft an instance left behind when
-- it died is removed by its subscription's next glossary write, once older than 15 minutes.
CREATE TABLE IF NOT EXISTS glossary_drafts (
    draft_key       TEXT PRIMARY KEY,                               -- 'draft:' || UUID
    subscription_id TEXT NOT NULL,
    started_at      INTEGER NOT NULL                                -- Unix time in ms; 0: to remove
) STRICT;
CREATE INDEX IF NOT EXISTS glossary_drafts_by_subscription ON glossary_drafts (subscription_id, started_at);

-- A glossary's dictionaries are listed in the order they were sent: by `position`, which is a
-- dictionary's own `id` (ids only grow), unless it replaced another dictionary of its pair and
-- took that one's place: then it has a row here.
CREATE TABLE IF NOT EXISTS glossary_dictionary_positions (
    dictionary_id   INTEGER PRIMARY KEY,                            -- glossary_dictionaries.id
    position        INTEGER NOT NULL
) STRICT;
