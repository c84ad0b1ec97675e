//! The store and the request readers, against an in-memory database with the real schema.

use std::collections::BTreeSet;

use platform::native::NativeHost;
use platform::{Database, FixedClock, Id};

use super::*;

type Fixture = NativeHost;

/// Fresh in-memory storage with the glossary schema, at 2026-11-21T10:00:00.123Z.
fn fixture() -> Fixture {
    let clock = FixedClock::new(std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_795_255_200_123));
    NativeHost::in_memory(
        &[
            include_str!("../../../sql/0005_glossaries.sql"),
            include_str!("../../../sql/0007_glossary_writes.sql"),
            include_str!("../../../sql/0009_glossary_versions.sql"),
        ],
        clock,
    )
    .expect("set up the host")
}

/// A stored glossary's id.
fn id(glossary: &Glossary) -> Id {
    Id::parse(&glossary.id).expect("glossary ids are UUIDs")
}

fn dictionary(source: &str, target: &str, entries: &[(&str, &str)]) -> NewDictionary {
    NewDictionary {
        pair: LanguagePair::new(source, target),
        entries: entries.iter().map(|(s, t)| (s.to_string(), t.to_string())).collect(),
    }
}

#[test]
fn a_glossary_is_created_listed_read_and_deleted_within_its_subscription() {
    let fixture = fixture();
    let created = store::create(
        &fixture.services(),
        "sub-a",
        "Terms",
        &[dictionary("en", "de", &[("house", "Haus"), ("car", "Auto")]), dictionary("de", "en", &[("Haus", "house")])],
    )
    .unwrap();
    assert_eq!(created.name, "Terms");
    assert_eq!(created.creation_time, "2026-11-21T10:00:00.123Z");
    assert_eq!(created.id.len(), 36);
    let pairs: Vec<(String, i64)> = created.dictionaries.iter().map(|d| (d.pair.to_string(), d.entry_count)).collect();
    assert_eq!(pairs, [("EN → DE".to_string(), 2), ("DE → EN".to_string(), 1)], "in the order given");

    assert_eq!(store::list(&fixture.db, "sub-a").unwrap(), std::slice::from_ref(&created));
    assert!(store::list(&fixture.db, "sub-b").unwrap().is_empty());
    assert!(matches!(store::get(&fixture.db, "sub-b", &id(&created)), Err(GlossaryError::NotFound)));
    assert!(matches!(store::delete(&fixture.services(), "sub-b", &id(&created)), Err(GlossaryError::NotFound)));

    let entries = store::entries(&fixture.db, "sub-a", &id(&created), &LanguagePair::new("en", "de")).unwrap();
    assert_eq!(entries, [("house".to_string(), "Haus".to_string()), ("car".to_string(), "Auto".to_string())]);
    assert!(matches!(
        store::entries(&fixture.db, "sub-a", &id(&created), &LanguagePair::new("en", "fr")),
        Err(GlossaryError::DictionaryNotFound)
    ));

    store::delete(&fixture.services(), "sub-a", &id(&created)).unwrap();
    assert!(store::list(&fixture.db, "sub-a").unwrap().is_empty());
    let left = fixture.db.execute("SELECT count(*) FROM glossary_entries", &[]).unwrap();
    assert_eq!(left.rows[0].get::<i64>(0).unwrap(), 0, "entries go with their glossary");
}

#[test]
fn patch_merges_and_put_replaces() {
    let fixture = fixture();
    let glossary =
        store::create(&fixture.services(), "s", "G", &[dictionary("en", "de", &[("house", "Haus"), ("car", "Auto")])])
            .unwrap();
    let merged = store::update(
        &fixture.services(),
        "s",
        &id(&glossary),
        Some("Renamed"),
        Some(&dictionary("en", "de", &[("car", "Wagen"), ("tree", "Baum")])),
    )
    .unwrap();
    assert_eq!(merged.name, "Renamed");
    assert_eq!(merged.dictionaries[0].entry_count, 3);
    let pair = LanguagePair::new("en", "de");
    let entries = store::entries(&fixture.db, "s", &id(&glossary), &pair).unwrap();
    assert_eq!(
        entries,
        [
            ("house".to_string(), "Haus".to_string()),
            ("car".to_string(), "Wagen".to_string()),
            ("tree".to_string(), "Baum".to_string())
        ]
    );

    let added = store::update(
        &fixture.services(),
        "s",
        &id(&glossary),
        None,
        Some(&dictionary("en", "fr", &[("car", "voiture")])),
    )
    .unwrap();
    assert_eq!(added.dictionaries.len(), 2);

    let replaced = store::replace_dictionary(
        &fixture.services(),
        "s",
        &id(&glossary),
        &dictionary("en", "de", &[("sun", "Sonne")]),
    )
    .unwrap();
    assert_eq!(replaced.entry_count, 1);
    assert_eq!(
        store::entries(&fixture.db, "s", &id(&glossary), &pair).unwrap(),
        [("sun".to_string(), "Sonne".to_string())]
    );
    let order = |fixture: &Fixture| -> Vec<String> {
        let glossary = store::get(&fixture.db, "s", &id(&glossary)).unwrap();
        glossary.dictionaries.iter().map(|d| d.pair.to_string()).collect()
    };
    assert_eq!(order(&fixture), ["EN → DE", "EN → FR"], "a replaced dictionary keeps its place");

    store::delete_dictionary(&fixture.db, "s", &id(&glossary), &pair).unwrap();
    assert!(matches!(
        store::delete_dictionary(&fixture.db, "s", &id(&glossary), &pair),
        Err(GlossaryError::DictionaryNotFound)
    ));
    assert_eq!(store::get(&fixture.db, "s", &id(&glossary)).unwrap().dictionaries.len(), 1);
}

#[test]
fn a_subscription_holds_at_most_the_maximum_number_of_glossaries() {
    let fixture = fixture();
    fixture
        .db
        .execute(
            "INSERT INTO glossaries (id, subscription_id, name, created_at) \
             SELECT 'g' || value, 's', 'n', 'now' FROM generate_series(1, ?)",
            &[MAX_GLOSSARIES.into()],
        )
        .or_else(|_| {
            // Without the series extension: a recursive count.
            fixture.db.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) \
                 INSERT INTO glossaries (id, subscription_id, name, created_at) SELECT 'g' || i, 's', 'n', 'now' FROM n",
                &[MAX_GLOSSARIES.into()],
            )
        })
        .unwrap();
    let refused = store::create(&fixture.services(), "s", "one more", &[dictionary("en", "de", &[("a", "b")])]);
    assert!(matches!(refused, Err(GlossaryError::TooMany)));
    assert!(store::create(&fixture.services(), "other", "fine", &[dictionary("en", "de", &[("a", "b")])]).is_ok());
}

#[test]
fn a_translation_reads_only_entries_whose_first_word_occurs_and_the_first_glossary_wins() {
    let fixture = fixture();
    let services = fixture.services();
    let first = store::create(
        &services,
        "s",
        "first",
        &[dictionary("en", "de", &[("red house", "Rothaus"), ("car", "Auto"), ("tree", "Baum")])],
    )
    .unwrap();
    let second =
        store::create(&services, "s", "second", &[dictionary("en", "de", &[("car", "Wagen"), ("sun", "Sonne")])])
            .unwrap();
    let pair = LanguagePair::new("en", "de");
    let selection = Selection::resolve(&fixture.db, "s", &[id(&first), id(&second)], &pair).unwrap();
    let keys: BTreeSet<String> = ["red", "car", "sun", "moon"].iter().map(|key| key.to_string()).collect();
    let mut found = selection.entries_for(&fixture.db, &keys).unwrap();
    found.sort();
    assert_eq!(
        found,
        [
            ("car".to_string(), "Auto".to_string()),
            ("red house".to_string(), "Rothaus".to_string()),
            ("sun".to_string(), "Sonne".to_string())
        ]
    );

    assert!(matches!(
        Selection::resolve(&fixture.db, "other", &[id(&first)], &pair),
        Err(LookupError::UnknownGlossary(_))
    ));
    let missing = Selection::resolve(&fixture.db, "s", &[id(&first)], &LanguagePair::new("en", "fr")).unwrap_err();
    assert_eq!(missing.to_string(), "No dictionary found for language pair EN-FR");
}

#[test]
fn the_key_lookup_uses_the_index() {
    let fixture = fixture();
    let plan = fixture
        .db
        .execute(&format!("EXPLAIN QUERY PLAN {}", store::ENTRIES_FOR_KEYS), &["[\"a\"]".into(), 1.into()])
        .unwrap();
    let text = format!("{:?}", plan.rows);
    assert!(text.contains("glossary_entries_by_key"), "{text}");
}

#[test]
fn a_translation_reads_the_named_glossaries_through_its_term_source() {
    use terms::TermSource;

    let fixture = fixture();
    let glossary =
        store::create(&fixture.services(), "s", "G", &[dictionary("en", "de", &[("house", "Haus"), ("car", "Auto")])])
            .unwrap();
    let (english, british, german) =
        (catalogue::find("EN").unwrap(), catalogue::find("EN-GB").unwrap(), catalogue::find("DE").unwrap());
    let keys: BTreeSet<String> = ["house".to_owned()].into();
    let terms = Terms::resolve(&fixture.db, "s", &[id(&glossary)], Some(english), german).unwrap();
    assert_eq!(terms.terms_for(&keys).unwrap(), [("house".to_owned(), "Haus".to_owned())]);

    let none = Terms::resolve(&fixture.db, "s", &[], Some(english), german).unwrap();
    assert!(none.terms_for(&keys).unwrap().is_empty(), "no glossary named, no entries");
    assert!(matches!(
        Terms::resolve(&fixture.db, "s", &[id(&glossary)], Some(german), british),
        Err(LookupError::NoDictionary { .. })
    ));
    assert!(matches!(
        Terms::resolve(&fixture.db, "other", &[id(&glossary)], Some(english), german),
        Err(LookupError::UnknownGlossary(_))
    ));
}

/// Rows of a table, for checks that nothing is left behind.
fn rows(fixture: &Fixture, table: &str) -> i64 {
    let result = fixture.db.execute(&format!("SELECT count(*) FROM {table}"), &[]).unwrap();
    result.rows[0].get(0).unwrap()
}

/// `count` entries `t0 → z0`, `t1 → z1`, …
fn numbered(count: usize, target: &str) -> Vec<Entry> {
    (0..count).map(|index| (format!("t{index}"), format!("{target}{index}"))).collect()
}

#[test]
fn large_writes_go_in_chunks_and_leave_nothing_behind() {
    let fixture = fixture();
    let services = fixture.services();
    let size = limits::WRITE_CHUNK_ROWS * 2 + 7;
    let big = NewDictionary { pair: LanguagePair::new("en", "de"), entries: numbered(size, "a") };
    let small = dictionary("de", "en", &[("Haus", "house")]);
    let glossary = store::create(&services, "s", "Big", &[big.clone(), small]).unwrap();
    let pairs: Vec<(String, i64)> = glossary.dictionaries.iter().map(|d| (d.pair.to_string(), d.entry_count)).collect();
    assert_eq!(pairs, [("EN → DE".to_owned(), size as i64), ("DE → EN".to_owned(), 1)]);
    let pair = LanguagePair::new("en", "de");
    assert_eq!(store::entries(&fixture.db, "s", &id(&glossary), &pair).unwrap(), big.entries);
    assert_eq!(rows(&fixture, "glossary_drafts"), 0);

    // A large merge is written beside the dictionary and takes its place.
    let mut merge = numbered(size, "b");
    merge.push(("new".to_owned(), "neu".to_owned()));
    let merged = store::update(
        &services,
        "s",
        &id(&glossary),
        None,
        Some(&NewDictionary { pair: pair.clone(), entries: merge.clone() }),
    )
    .unwrap();
    let pairs: Vec<(String, i64)> = merged.dictionaries.iter().map(|d| (d.pair.to_string(), d.entry_count)).collect();
    assert_eq!(pairs, [("EN → DE".to_owned(), size as i64 + 1), ("DE → EN".to_owned(), 1)], "in its place");
    assert_eq!(store::entries(&fixture.db, "s", &id(&glossary), &pair).unwrap(), merge);
    assert_eq!(rows(&fixture, "glossary_entries"), size as i64 + 2, "the old entries are gone");

    store::replace_dictionary(&services, "s", &id(&glossary), &big).unwrap();
    assert_eq!(rows(&fixture, "glossary_entries"), size as i64 + 1);
    store::delete(&services, "s", &id(&glossary)).unwrap();
    for table in ["glossary_entries", "glossary_dictionaries", "glossary_drafts", "glossary_dictionary_positions"] {
        assert_eq!(rows(&fixture, table), 0, "{table}");
    }
}

#[test]
fn a_failed_upload_is_never_visible_and_is_removed() {
    let fixture = fixture();
    let services = fixture.services();
    // One place left in the quota, taken (below) before the upload: it is refused.
    let size = limits::WRITE_CHUNK_ROWS + 1;
    let dictionaries = [NewDictionary { pair: LanguagePair::new("en", "de"), entries: numbered(size, "z") }];
    fixture
        .db
        .execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) \
             INSERT INTO glossaries (id, subscription_id, name, created_at) SELECT 'g' || i, 's', 'n', 'now' FROM n",
            &[(MAX_GLOSSARIES - 1).into()],
        )
        .unwrap();
    // A draft another upload is still writing (by hand here): invisible to every read.
    let draft_key = "draft:test";
    fixture.db.execute("INSERT INTO glossary_drafts VALUES (?, 's', ?)", &[draft_key.into(), i64::MAX.into()]).unwrap();
    fixture
        .db
        .execute(
            "INSERT INTO glossary_dictionaries (glossary_id, source_lang, target_lang, entry_count) VALUES (?, 'en', 'de', 1)",
            &[draft_key.into()],
        )
        .unwrap();
    fixture
        .db
        .execute(
            "INSERT INTO glossary_entries SELECT max(id), 0, 'half', 'halb', 'half' FROM glossary_dictionaries",
            &[],
        )
        .unwrap();
    assert_eq!(store::list(&fixture.db, "s").unwrap().len(), MAX_GLOSSARIES as usize - 1, "a draft is no glossary");
    let listed = store::list(&fixture.db, "s").unwrap();
    assert!(listed.iter().all(|glossary| glossary.dictionaries.is_empty()), "nor part of one");

    fixture.db.execute("INSERT INTO glossaries VALUES ('last', 's', 'n', 'now')", &[]).unwrap();
    let refused = store::create(&services, "s", "late", &dictionaries);
    assert!(matches!(refused, Err(GlossaryError::TooMany)));
    // The refused upload left nothing; the hand-made draft is not stale yet and stays.
    assert_eq!(rows(&fixture, "glossary_drafts"), 1);
    assert_eq!(rows(&fixture, "glossary_entries"), 1);

    // Once stale (its instance died), the subscription's next write removes it.
    fixture.db.execute("UPDATE glossary_drafts SET started_at = 0", &[]).unwrap();
    fixture.db.execute("DELETE FROM glossaries WHERE id = 'last'", &[]).unwrap();
    store::create(&services, "s", "fits", &[dictionary("en", "de", &[("a", "b")])]).unwrap();
    assert_eq!(rows(&fixture, "glossary_drafts"), 0);
    assert_eq!(rows(&fixture, "glossary_entries"), 1, "only the new glossary's entry");
}

#[test]
fn a_glossary_holds_at_most_the_maximum_number_of_dictionaries() {
    let fixture = fixture();
    let services = fixture.services();
    let glossary = store::create(&services, "s", "G", &[dictionary("en", "de", &[("a", "b")])]).unwrap();
    fixture
        .db
        .execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) \
             INSERT INTO glossary_dictionaries (glossary_id, source_lang, target_lang, entry_count) \
             SELECT ?, 'x' || i, 'y', 0 FROM n",
            &[(limits::MAX_DICTIONARIES as i64 - 1).into(), glossary.id.as_str().into()],
        )
        .unwrap();
    let more = dictionary("en", "fr", &[("a", "b")]);
    assert!(matches!(
        store::update(&services, "s", &id(&glossary), None, Some(&more)),
        Err(GlossaryError::TooManyDictionaries)
    ));
    assert!(matches!(
        store::replace_dictionary(&services, "s", &id(&glossary), &more),
        Err(GlossaryError::TooManyDictionaries)
    ));
    store::replace_dictionary(&services, "s", &id(&glossary), &dictionary("en", "de", &[("c", "d")])).unwrap();
    assert_eq!(rows(&fixture, "glossary_drafts"), 0);
}

/// The store's connection, with another request's change slipped in between two of the store's
/// transactions: once a statement containing `after` has run, `meanwhile` runs (on the same
/// database, no transaction open) before the next transaction begins, up to `times` times (once
/// for each such statement).
/// Merged entries are written by a statement with `ON CONFLICT` ([`MERGED_ENTRIES`]), so a merge
/// written beside its dictionary meets the change after it read and copied the dictionary, and
/// before its swap.
struct Interleaved<'a> {
    db: &'a dyn Database,
    after: &'static str,
    meanwhile: std::cell::RefCell<Box<dyn FnMut() + 'a>>,
    times: std::cell::Cell<usize>,
    armed: std::cell::Cell<bool>,
}

/// What only the statement writing merged entries contains.
const MERGED_ENTRIES: &str = "ON CONFLICT (dictionary_id, source)";

impl<'a> Interleaved<'a> {
    fn new(db: &'a dyn Database, times: usize, meanwhile: impl FnMut() + 'a) -> Interleaved<'a> {
        Interleaved {
            db,
            after: MERGED_ENTRIES,
            meanwhile: std::cell::RefCell::new(Box::new(meanwhile)),
            times: std::cell::Cell::new(times),
            armed: std::cell::Cell::new(false),
        }
    }

    /// How often `meanwhile` ran.
    fn ran(&self, times: usize) -> usize {
        times - self.times.get()
    }
}

impl Database for Interleaved<'_> {
    fn execute(&self, sql: &str, params: &[platform::Value]) -> Result<platform::QueryResult, platform::DbError> {
        if sql == "BEGIN IMMEDIATE" && self.times.get() > 0 && self.armed.replace(false) {
            self.times.set(self.times.get() - 1);
            (self.meanwhile.borrow_mut())();
        }
        let result = self.db.execute(sql, params);
        if sql.contains(self.after) {
            self.armed.set(true);
        }
        result
    }
}

/// A glossary `G` of subscription `s` with an EN → DE dictionary of `house → Haus`, `car → Auto`
/// and `t0 → a0` … (`size` entries in all).
fn glossary_of(fixture: &Fixture, size: usize) -> Id {
    let mut entries = vec![("house".to_owned(), "Haus".to_owned()), ("car".to_owned(), "Auto".to_owned())];
    entries.extend(numbered(size - 2, "a"));
    let dictionary = NewDictionary { pair: LanguagePair::new("en", "de"), entries };
    id(&store::create(&fixture.services(), "s", "G", &[dictionary]).unwrap())
}

/// The EN → DE entries of the glossary, as a map.
fn en_de(fixture: &Fixture, glossary: &Id) -> std::collections::BTreeMap<String, String> {
    store::entries(&fixture.db, "s", glossary, &LanguagePair::new("en", "de")).unwrap().into_iter().collect()
}

/// A merge too large for one transaction: `t0 → b0` … (two chunks and a bit), and `big → groß`.
fn large_merge() -> NewDictionary {
    let mut entries = numbered(limits::WRITE_CHUNK_ROWS * 2 + 3, "b");
    entries.push(("big".to_owned(), "groß".to_owned()));
    NewDictionary { pair: LanguagePair::new("en", "de"), entries }
}

/// Checks that `entries` hold every entry of the large merge.
fn assert_holds_large_merge(entries: &std::collections::BTreeMap<String, String>) {
    for (source, target) in large_merge().entries {
        assert_eq!(entries.get(&source), Some(&target), "the large merge's {source}");
    }
}

#[test]
fn a_merge_in_place_during_a_large_merge_is_kept() {
    let fixture = fixture();
    let glossary = glossary_of(&fixture, 10);
    let small = dictionary("en", "de", &[("house", "Maus"), ("late", "spät")]);
    let db = Interleaved::new(&fixture.db, 1, || {
        // Another PATCH, small enough to be merged in place, acknowledged in the middle.
        store::update(&fixture.services(), "s", &glossary, None, Some(&small)).unwrap();
    });
    let services = fixture.services().with_db(&db);
    let merged = store::update(&services, "s", &glossary, Some("Renamed"), Some(&large_merge())).unwrap();
    assert_eq!(db.ran(1), 1, "the other merge ran during this one");

    let entries = en_de(&fixture, &glossary);
    assert_holds_large_merge(&entries);
    assert_eq!(entries.get("late").map(String::as_str), Some("spät"), "the other merge's new entry");
    assert_eq!(entries.get("house").map(String::as_str), Some("Maus"), "the other merge's change");
    assert_eq!(entries.get("car").map(String::as_str), Some("Auto"));
    assert_eq!(merged.name, "Renamed");
    assert_eq!(merged.dictionaries[0].entry_count, entries.len() as i64);
    assert_eq!(rows(&fixture, "glossary_drafts"), 0, "the discarded attempt left nothing");
    assert_eq!(rows(&fixture, "glossary_dictionaries"), 1);
    assert_eq!(rows(&fixture, "glossary_entries"), entries.len() as i64);
    assert_eq!(rows(&fixture, "glossary_dictionary_versions"), 0, "the replaced dictionary's version went with it");
}

#[test]
fn two_large_merges_at_once_both_take_effect() {
    let fixture = fixture();
    let glossary = glossary_of(&fixture, limits::WRITE_CHUNK_ROWS + 10);
    let mut other: Vec<Entry> =
        (0..limits::WRITE_CHUNK_ROWS + 1).map(|index| (format!("o{index}"), format!("c{index}"))).collect();
    other.push(("car".to_owned(), "Wagen".to_owned()));
    let other = NewDictionary { pair: LanguagePair::new("en", "de"), entries: other };
    let db = Interleaved::new(&fixture.db, 1, || {
        store::update(&fixture.services(), "s", &glossary, None, Some(&other)).unwrap();
    });
    store::update(&fixture.services().with_db(&db), "s", &glossary, None, Some(&large_merge())).unwrap();
    assert_eq!(db.ran(1), 1);

    let entries = en_de(&fixture, &glossary);
    assert_holds_large_merge(&entries);
    for (source, target) in &other.entries {
        assert_eq!(entries.get(source), Some(target), "the other merge's {source}");
    }
    assert_eq!(entries.get("house").map(String::as_str), Some("Haus"), "the first entries stay");
    assert_eq!(rows(&fixture, "glossary_drafts"), 0);
    assert_eq!(rows(&fixture, "glossary_entries"), entries.len() as i64, "the replaced entries are gone");
    assert_eq!(rows(&fixture, "glossary_dictionary_versions"), 0, "versions go with their dictionaries");
}

#[test]
fn a_large_merge_after_a_concurrent_replacement_or_deletion_applies_to_what_is_there_then() {
    let fixture = fixture();
    let pair = LanguagePair::new("en", "de");

    // PUT during the merge: the merge applies to the new dictionary, as if it came second.
    let glossary = glossary_of(&fixture, 10);
    let replacement = dictionary("en", "de", &[("sun", "Sonne"), ("big", "gross")]);
    let db = Interleaved::new(&fixture.db, 1, || {
        store::replace_dictionary(&fixture.services(), "s", &glossary, &replacement).unwrap();
    });
    store::update(&fixture.services().with_db(&db), "s", &glossary, None, Some(&large_merge())).unwrap();
    let entries = en_de(&fixture, &glossary);
    assert_holds_large_merge(&entries);
    assert_eq!(entries.get("sun").map(String::as_str), Some("Sonne"), "the replacement's entry");
    assert!(!entries.contains_key("house"), "replaced before the merge took effect");
    assert_eq!(entries.len(), large_merge().entries.len() + 1);

    // DELETE of the dictionary during the merge: the merge creates it again, with its entries.
    let glossary = glossary_of(&fixture, 10);
    let db = Interleaved::new(&fixture.db, 1, || {
        store::delete_dictionary(&fixture.db, "s", &glossary, &pair).unwrap();
    });
    store::update(&fixture.services().with_db(&db), "s", &glossary, None, Some(&large_merge())).unwrap();
    let entries = en_de(&fixture, &glossary);
    assert_eq!(entries.len(), large_merge().entries.len(), "only the merge's entries");
    assert_holds_large_merge(&entries);

    // A dictionary created by another request while a merge was creating it: both merged.
    let glossary = id(&store::create(&fixture.services(), "s", "F", &[dictionary("de", "en", &[("a", "b")])]).unwrap());
    let first = dictionary("en", "de", &[("first", "erste")]);
    let db = Interleaved::new(&fixture.db, 1, || {
        store::update(&fixture.services(), "s", &glossary, None, Some(&first)).unwrap();
    });
    let merged = store::update(&fixture.services().with_db(&db), "s", &glossary, None, Some(&large_merge())).unwrap();
    let entries = en_de(&fixture, &glossary);
    assert_holds_large_merge(&entries);
    assert_eq!(entries.get("first").map(String::as_str), Some("erste"));
    let pairs: Vec<String> = merged.dictionaries.iter().map(|d| d.pair.to_string()).collect();
    assert_eq!(pairs, ["DE → EN", "EN → DE"]);
    assert_eq!(rows(&fixture, "glossary_drafts"), 0);
}

#[test]
fn a_merge_that_meets_a_change_at_every_attempt_is_refused_having_changed_nothing() {
    let fixture = fixture();
    let glossary = glossary_of(&fixture, 10);
    let mut round = 0;
    let db = Interleaved::new(&fixture.db, usize::MAX, || {
        round += 1;
        let change =
            NewDictionary { pair: LanguagePair::new("en", "de"), entries: vec![(format!("r{round}"), "x".into())] };
        store::update(&fixture.services(), "s", &glossary, None, Some(&change)).unwrap();
    });
    let refused =
        store::update(&fixture.services().with_db(&db), "s", &glossary, Some("Renamed"), Some(&large_merge()));
    assert!(matches!(&refused, Err(GlossaryError::Contended(pair)) if *pair == LanguagePair::new("en", "de")));
    let changes = db.ran(usize::MAX);
    assert!(changes >= store::MERGE_ATTEMPTS, "another change during every attempt: {changes}");
    let error = api::ApiError::from(refused.unwrap_err());
    assert_eq!(error.status, 503);
    assert!(error.message.contains("EN → DE") && error.message.contains("Nothing was changed"), "{}", error.message);

    let entries = en_de(&fixture, &glossary);
    assert_eq!(entries.len(), 10 + changes, "the other merges, and nothing of this one");
    assert!(!entries.contains_key("big"));
    assert_eq!(store::get(&fixture.db, "s", &glossary).unwrap().name, "G");
    assert_eq!(rows(&fixture, "glossary_drafts"), 0);
    assert_eq!(rows(&fixture, "glossary_dictionaries"), 1);
    assert_eq!(rows(&fixture, "glossary_entries"), entries.len() as i64);
}
