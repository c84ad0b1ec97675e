-- Versions of glossary dictionaries, so that concurrent changes never lose one. Idempotent:
-- applied at every start.
--
-- A merge too large for one short transaction reads the dictionary, writes it again with the
-- merge applied under a draft key (sql/0007_glossary_writes.sql), and swaps the copy in at the
-- end. Every other change to a glossary's dictionary either gives it a new id (a replaced or
-- recreated dictionary) or, for a merge small enough to be written in place, raises its version
-- here in the same transaction. The swap takes place only if the dictionary still has the id
-- and version the merge read; otherwise the merge is done again from what is there now. A
-- dictionary without a row here is at version 0; its row goes when the dictionary is removed.
CREATE TABLE IF NOT EXISTS glossary_dictionary_versions (
    dictionary_id   INTEGER PRIMARY KEY,                            -- glossary_dictionaries.id
    version         INTEGER NOT NULL                                -- changes in place so far
) STRICT;
