-- Translation memories: a memory belongs to one subscription, translates from one source
-- language into one or more target languages, and holds segments (a source text and its
-- translation into one of the targets). Idempotent: applied at every start.
--
-- A memory's segments live in a segment set; the memory names the one readers see (`set_id`).
-- A large write (a TMX import, a replacement) fills a new set in short transactions, which no
-- reader sees, and the last short transaction points the memory at it; the set it replaced is
-- put aside and removed in chunks. A small write (up to 500 segments, a segment deleted) changes
-- the memory's set in place and raises the memory's `version`, so that a large append written
-- beside the set (the set copied, the new segments added) takes its place only if nothing
-- changed it meanwhile.
CREATE TABLE IF NOT EXISTS translation_memories (
    id              TEXT PRIMARY KEY,                               -- UUID, lower case
    subscription_id TEXT NOT NULL,
    name            TEXT NOT NULL,
    source_lang     TEXT NOT NULL,                                  -- lower-case base code: en
    target_langs    TEXT NOT NULL,                                  -- JSON array of lower-case codes: ["de","en-gb"]
    set_id          INTEGER NOT NULL,                               -- memory_segment_sets.id
    version         INTEGER NOT NULL DEFAULT 0                      -- changes in place to set_id's segments
) STRICT;
-- Listings read one subscription's memories in creation (rowid) order.
CREATE INDEX IF NOT EXISTS translation_memories_by_subscription ON translation_memories (subscription_id);
-- Whether a set is a memory's (live) or a draft.
CREATE INDEX IF NOT EXISTS translation_memories_by_set ON translation_memories (set_id);

-- A set of segments: a memory's, or a draft no memory names yet (`started_at` its start, Unix ms),
-- or one put aside to remove (`started_at` 0). A draft an instance left behind when it died is
-- removed by its subscription's next large write, once older than 15 minutes.
CREATE TABLE IF NOT EXISTS memory_segment_sets (
    id              INTEGER PRIMARY KEY,
    subscription_id TEXT NOT NULL,
    memory_id       TEXT NOT NULL,
    started_at      INTEGER NOT NULL,
    segment_count   INTEGER NOT NULL DEFAULT 0,
    text_bytes      INTEGER NOT NULL DEFAULT 0                      -- UTF-8 bytes of sources and targets
) STRICT;
CREATE INDEX IF NOT EXISTS memory_segment_sets_by_subscription ON memory_segment_sets (subscription_id, started_at);

-- A set holds each (target language, source, target) once. `segment_id` is what the API names a
-- segment by; it stays the same when the segment is copied into another set.
CREATE TABLE IF NOT EXISTS memory_segments (
    id              INTEGER PRIMARY KEY,
    set_id          INTEGER NOT NULL,
    segment_id      TEXT NOT NULL,                                  -- UUID, lower case
    target_lang     TEXT NOT NULL,                                  -- lower-case code, one of the memory's targets
    source          TEXT NOT NULL,
    target          TEXT NOT NULL,
    source_key      INTEGER NOT NULL,                               -- memory_match::exact_key(source)
    token_count     INTEGER NOT NULL                                -- memory_match::tokens(source).len()
) STRICT;
-- Exact lookups and duplicate checks: the segments of a set whose normalised source has a key.
CREATE INDEX IF NOT EXISTS memory_segments_by_key ON memory_segments (set_id, source_key, target_lang);
-- Deleting a segment by the id the API names it by.
CREATE UNIQUE INDEX IF NOT EXISTS memory_segments_by_segment_id ON memory_segments (set_id, segment_id);
-- Listings (by target language, then in the order added), copies and removals a page at a time.
CREATE INDEX IF NOT EXISTS memory_segments_by_target ON memory_segments (set_id, target_lang);

-- Fuzzy candidates: for each distinct token of a segment's source (memory_match::tokens; its
-- hash, FNV-1a of the token's UTF-8 bytes), the segment, with the source's token count so that a lookup reads
-- only segments whose length could score above its threshold.
CREATE TABLE IF NOT EXISTS memory_tokens (
    set_id          INTEGER NOT NULL,
    target_lang     TEXT NOT NULL,
    token           INTEGER NOT NULL,
    token_count     INTEGER NOT NULL,
    segment         INTEGER NOT NULL,                               -- memory_segments.id
    PRIMARY KEY (set_id, target_lang, token, token_count, segment)
) STRICT, WITHOUT ROWID;

-- How many segments of a set (for a target language) hold each token: a lookup uses its
-- segment's rarest tokens only.
CREATE TABLE IF NOT EXISTS memory_token_counts (
    set_id          INTEGER NOT NULL,
    target_lang     TEXT NOT NULL,
    token           INTEGER NOT NULL,
    segments        INTEGER NOT NULL,
    PRIMARY KEY (set_id, target_lang, token)
) STRICT, WITHOUT ROWID;
