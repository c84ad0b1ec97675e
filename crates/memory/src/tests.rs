//! The store, against an in-memory database with the real schema.

use std::cell::{Cell, RefCell};
use std::time::Instant;

use catalogue::Language;
use memory_match::{MemoryMatch, MemorySource};
use platform::native::NativeHost;
use platform::{Database, FixedClock, Id};

use super::*;
use crate::limits::{MAX_MEMORIES, MAX_MEMORY_SEGMENTS, MAX_MEMORY_TEXT_BYTES, WRITE_CHUNK_SEGMENTS};
use crate::request::Page;

/// Fresh in-memory storage with the memory schema.
fn fixture() -> NativeHost {
    let clock = FixedClock::new(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_255_200));
    NativeHost::in_memory(&[include_str!("../../../sql/0011_memories.sql")], clock).expect("set up the host")
}

fn language(code: &str) -> &'static Language {
    catalogue::find(code).unwrap()
}

fn new_memory(name: &str, source: &str, targets: &[&str]) -> NewMemory {
    NewMemory {
        name: name.into(),
        source: language(source),
        targets: targets.iter().map(|code| language(code)).collect(),
    }
}

fn segment(target: &str, source: &str, text: &str) -> NewSegment {
    NewSegment { target_language: language(target), source: source.into(), target: text.into() }
}

const ALL: Page = Page { offset: 0, limit: 100 };

/// A memory `en` → `de`, `en-gb` of subscription `s`.
fn memory(fixture: &NativeHost) -> TranslationMemory {
    store::create(&fixture.services(), "s", &new_memory("TM", "en", &["de", "en-gb"])).unwrap()
}

/// The segments of a memory as (target language, source, target), by target language and then
/// in the order added (as a TMX export writes them).
fn listed(fixture: &NativeHost, id: &Id) -> Vec<(String, String, String)> {
    let (_, segments) = store::export(&fixture.db, "s", id).unwrap();
    segments
        .into_iter()
        .map(|segment| (segment.target_language.lang().to_ascii_lowercase(), segment.source, segment.target))
        .collect()
}

fn rows(fixture: &NativeHost, table: &str) -> i64 {
    let result = fixture.db.execute(&format!("SELECT count(*) FROM {table}"), &[]).unwrap();
    result.rows[0].get(0).unwrap()
}

/// Checks that the token index holds exactly the tokens of the live segments.
fn assert_index_consistent(fixture: &NativeHost) {
    let tokens: i64 =
        fixture.db.execute("SELECT coalesce(sum(segments), 0) FROM memory_token_counts", &[]).unwrap().rows[0]
            .get(0)
            .unwrap();
    assert_eq!(tokens, rows(fixture, "memory_tokens"), "the counts add up to the token rows");
    let orphans: i64 = fixture
        .db
        .execute("SELECT count(*) FROM memory_tokens t WHERE NOT EXISTS (SELECT 1 FROM memory_segments s WHERE s.id = t.segment)", &[])
        .unwrap()
        .rows[0]
        .get(0)
        .unwrap();
    assert_eq!(orphans, 0, "no token row of a removed segment");
    let counted: i64 =
        fixture.db.execute("SELECT coalesce(sum(segment_count), 0) FROM memory_segment_sets", &[]).unwrap().rows[0]
            .get(0)
            .unwrap();
    assert_eq!(counted, rows(fixture, "memory_segments"), "the sets count their segments");
}

#[test]
fn a_memory_is_created_listed_read_renamed_and_deleted_within_its_subscription() {
    let fixture = fixture();
    let services = fixture.services();
    let created = memory(&fixture);
    assert_eq!((created.name.as_str(), created.source, created.segment_count), ("TM", language("en"), 0));
    assert_eq!(created.targets, [language("de"), language("en-gb")]);
    let second = store::create(&services, "s", &new_memory("Second", "de", &["en"])).unwrap();
    let (page, total) = store::list(&fixture.db, "s", Page { offset: 0, limit: 1 }).unwrap();
    assert_eq!((page, total), (vec![created.clone()], 2), "oldest first, one page");
    let (page, _) = store::list(&fixture.db, "s", Page { offset: 1, limit: 1 }).unwrap();
    assert_eq!(page, [second]);
    assert_eq!(store::list(&fixture.db, "other", ALL).unwrap(), (vec![], 0));

    assert!(matches!(store::get(&fixture.db, "other", &created.id), Err(MemoryError::NotFound)));
    assert!(matches!(store::rename(&fixture.db, "other", &created.id, "x"), Err(MemoryError::NotFound)));
    assert!(matches!(store::delete(&fixture.db, "other", &created.id), Err(MemoryError::NotFound)));
    assert_eq!(store::rename(&fixture.db, "s", &created.id, "Renamed").unwrap().name, "Renamed");

    store::add_segments(&services, "s", &created.id, &[segment("de", "Hello", "Hallo")]).unwrap();
    store::delete(&fixture.db, "s", &created.id).unwrap();
    assert!(matches!(store::get(&fixture.db, "s", &created.id), Err(MemoryError::NotFound)));
    assert_eq!(store::list(&fixture.db, "s", ALL).unwrap().1, 1);
    assert_eq!(rows(&fixture, "memory_segments"), 0, "segments go with their memory");
    assert_eq!(rows(&fixture, "memory_segment_sets"), 1, "the other memory's set stays");
    assert_index_consistent(&fixture);
}

#[test]
fn a_subscription_holds_at_most_the_maximum_number_of_memories() {
    let fixture = fixture();
    fixture
        .db
        .execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) \
             INSERT INTO translation_memories (id, subscription_id, name, source_lang, target_langs, set_id) \
             SELECT 'm' || i, 's', 'n', 'en', '[\"de\"]', 0 FROM n",
            &[MAX_MEMORIES.into()],
        )
        .unwrap();
    let refused = store::create(&fixture.services(), "s", &new_memory("one more", "en", &["de"]));
    assert!(matches!(refused, Err(MemoryError::TooMany)));
    assert!(store::create(&fixture.services(), "other", &new_memory("fine", "en", &["de"])).is_ok());
}

#[test]
fn segments_are_added_once_listed_by_language_and_deleted() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = memory(&fixture);
    let added = store::add_segments(
        &services,
        "s",
        &tm.id,
        &[segment("en-gb", "Colour", "Colour"), segment("de", "Hello", "Hallo"), segment("de", "Hello", "Hallo")],
    )
    .unwrap();
    assert_eq!(added.memory.segment_count, 2);
    assert_eq!(added.segments.len(), 3, "each segment sent is answered");
    assert_eq!(added.segments[1].id, added.segments[2].id, "sent twice, stored once");
    let again = store::add_segments(
        &services,
        "s",
        &tm.id,
        &[segment("de", "Hello", "Hallo"), segment("de", "Hello", "Servus")],
    )
    .unwrap();
    assert_eq!(again.segments[0].id, added.segments[1].id, "held already: answered as stored");
    assert_ne!(again.segments[1].id, added.segments[1].id, "another translation is another segment");
    assert_eq!(again.memory.segment_count, 3);

    assert_eq!(
        listed(&fixture, &tm.id),
        [
            ("de".to_owned(), "Hello".to_owned(), "Hallo".to_owned()),
            ("de".to_owned(), "Hello".to_owned(), "Servus".to_owned()),
            ("en-gb".to_owned(), "Colour".to_owned(), "Colour".to_owned()),
        ],
        "by target language, then in the order added"
    );
    let query = SegmentQuery { page_size: 1, after: None, filter: None };
    let first = store::source_segments(&fixture.db, "s", &tm.id, &query).unwrap();
    let query = SegmentQuery { after: first.next, ..query };
    let second = store::source_segments(&fixture.db, "s", &tm.id, &query).unwrap();
    assert_eq!((first.segment_count, first.segments.len(), second.segments.len(), second.next), (3, 1, 1, None));
    let mut sources: Vec<&SourceSegment> = first.segments.iter().chain(&second.segments).collect();
    sources.sort_by_key(|segment| segment.source.clone());
    let targets =
        |segment: &SourceSegment| segment.targets.iter().map(|target| target.target.clone()).collect::<Vec<_>>();
    assert_eq!((sources[0].source.as_str(), targets(sources[0])), ("Colour", vec!["Colour".to_owned()]));
    assert_eq!(
        (sources[1].source.as_str(), targets(sources[1])),
        ("Hello", vec!["Hallo".to_owned(), "Servus".to_owned()]),
        "one source segment, its translations in the order added"
    );
    assert!(matches!(store::source_segments(&fixture.db, "other", &tm.id, &query), Err(MemoryError::NotFound)));

    assert!(matches!(
        store::delete_segment(&fixture.db, "other", &tm.id, &added.segments[0].id),
        Err(MemoryError::NotFound)
    ));
    store::delete_segment(&fixture.db, "s", &tm.id, &added.segments[0].id).unwrap();
    assert!(matches!(
        store::delete_segment(&fixture.db, "s", &tm.id, &added.segments[0].id),
        Err(MemoryError::SegmentNotFound)
    ));
    assert_eq!(store::get(&fixture.db, "s", &tm.id).unwrap().segment_count, 2);
    assert_index_consistent(&fixture);
    let colour = memory_match::exact_key("colour");
    let left =
        fixture.db.execute("SELECT count(*) FROM memory_token_counts WHERE token = ?", &[colour.into()]).unwrap();
    assert_eq!(left.rows[0].get::<i64>(0).unwrap(), 0, "a token no segment holds has no count");
}

#[test]
fn a_memory_holds_at_most_its_limits_and_a_refused_write_changes_nothing() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = memory(&fixture);
    store::add_segments(&services, "s", &tm.id, &[segment("de", "a", "b")]).unwrap();
    fixture.db.execute("UPDATE memory_segment_sets SET segment_count = ?", &[MAX_MEMORY_SEGMENTS.into()]).unwrap();
    let refused = store::add_segments(&services, "s", &tm.id, &[segment("de", "c", "d")]);
    assert!(matches!(refused, Err(MemoryError::TooManySegments(count)) if count == MAX_MEMORY_SEGMENTS + 1));
    let refused = store::import(&services, "s", &tm.id, &[segment("de", "c", "d")], ImportMode::Append);
    assert!(matches!(refused, Err(MemoryError::TooManySegments(_))));
    assert_eq!(rows(&fixture, "memory_segments"), 1, "nothing of a refused write");

    fixture
        .db
        .execute("UPDATE memory_segment_sets SET segment_count = 1, text_bytes = ?", &[MAX_MEMORY_TEXT_BYTES.into()])
        .unwrap();
    let refused = store::add_segments(&services, "s", &tm.id, &[segment("de", "c", "d")]);
    assert!(matches!(refused, Err(MemoryError::TooMuchText(_))));
    let refused = store::import(&services, "s", &tm.id, &[segment("de", "c", "d")], ImportMode::Append);
    assert!(matches!(refused, Err(MemoryError::TooMuchText(_))));
    assert_eq!(rows(&fixture, "memory_segments"), 1, "nothing of a refused write");
}

/// `count` segments `source N` → `target N` in German.
fn numbered(count: usize, target: &str) -> Vec<NewSegment> {
    (0..count).map(|index| segment("de", &format!("source {index}"), &format!("{target} {index}"))).collect()
}

#[test]
fn imports_append_in_place_or_beside_and_replace_leaving_nothing_behind() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = memory(&fixture);
    let first = store::add_segments(&services, "s", &tm.id, &[segment("de", "Hello", "Hallo")]).unwrap();
    let kept = first.segments[0].id;

    let small = store::import(
        &services,
        "s",
        &tm.id,
        &[segment("de", "Hello", "Hallo"), segment("en-gb", "Color", "Colour")],
        ImportMode::Append,
    )
    .unwrap();
    assert_eq!((small.added, small.duplicates, small.memory.segment_count), (1, 1, 2));

    let size = WRITE_CHUNK_SEGMENTS * 2 + 7;
    let mut large = numbered(size, "Ziel");
    large.push(segment("de", "Hello", "Hallo"));
    large.push(segment("de", "source 0", "Ziel 0"));
    let appended = store::import(&services, "s", &tm.id, &large, ImportMode::Append).unwrap();
    assert_eq!((appended.added, appended.duplicates, appended.memory.segment_count), (size, 2, size as i64 + 2));
    let (_, german) = store::export(&fixture.db, "s", &tm.id).unwrap();
    assert_eq!(german[0].id, kept, "a segment copied beside its set keeps its id and its place");
    assert_eq!(rows(&fixture, "memory_segment_sets"), 1, "the replaced set is removed");
    assert_eq!(rows(&fixture, "memory_segments"), size as i64 + 2);
    assert_index_consistent(&fixture);

    let replaced = store::import(&services, "s", &tm.id, &numbered(size, "Neu"), ImportMode::Replace).unwrap();
    assert_eq!((replaced.added, replaced.duplicates, replaced.memory.segment_count), (size, 0, size as i64));
    let listing = listed(&fixture, &tm.id);
    assert_eq!(listing.len(), size);
    assert!(listing.iter().all(|(_, _, target)| target.starts_with("Neu ")), "only the new segments");
    assert_eq!(rows(&fixture, "memory_segment_sets"), 1);
    assert_index_consistent(&fixture);

    let emptied = store::import(&services, "s", &tm.id, &[], ImportMode::Replace).unwrap();
    assert_eq!(emptied.memory.segment_count, 0);
    for table in ["memory_segments", "memory_tokens", "memory_token_counts"] {
        assert_eq!(rows(&fixture, table), 0, "{table}");
    }
    assert!(matches!(store::import(&services, "other", &tm.id, &[], ImportMode::Replace), Err(MemoryError::NotFound)));
}

/// The store's connection, with another request's change slipped in: before each `BEGIN
/// IMMEDIATE` after a statement containing `after` ran, `meanwhile` runs (at most `times` times).
struct Interleaved<'a> {
    db: &'a dyn Database,
    after: &'static str,
    meanwhile: RefCell<Box<dyn FnMut() + 'a>>,
    times: Cell<usize>,
    armed: Cell<bool>,
}

impl<'a> Interleaved<'a> {
    fn new(db: &'a dyn Database, after: &'static str, times: usize, meanwhile: impl FnMut() + 'a) -> Interleaved<'a> {
        Interleaved {
            db,
            after,
            meanwhile: RefCell::new(Box::new(meanwhile)),
            times: Cell::new(times),
            armed: Cell::new(false),
        }
    }

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

/// What only the statement inserting segments contains.
const INSERT_SEGMENTS: &str = "INSERT INTO memory_segments";

#[test]
fn a_change_during_a_large_append_is_kept_and_the_append_done_again() {
    let fixture = fixture();
    let tm = memory(&fixture);
    let db = Interleaved::new(&fixture.db, INSERT_SEGMENTS, 1, || {
        store::add_segments(&fixture.services(), "s", &tm.id, &[segment("en-gb", "Meanwhile", "Meanwhile")]).unwrap();
    });
    let services = fixture.services().with_db(&db);
    let large = numbered(WRITE_CHUNK_SEGMENTS + 3, "Ziel");
    let imported = store::import(&services, "s", &tm.id, &large, ImportMode::Append).unwrap();
    assert_eq!(db.ran(1), 1, "the other change ran during the append");
    assert_eq!(imported.added, large.len());
    let listing = listed(&fixture, &tm.id);
    assert_eq!(listing.len(), large.len() + 1, "both changes are there");
    assert!(listing.contains(&("en-gb".into(), "Meanwhile".into(), "Meanwhile".into())));
    assert_eq!(rows(&fixture, "memory_segment_sets"), 1, "the discarded attempt left nothing");
    assert_index_consistent(&fixture);
}

#[test]
fn an_append_that_meets_a_change_at_every_attempt_is_refused_having_changed_nothing() {
    let fixture = fixture();
    let tm = memory(&fixture);
    let mut round = 0;
    let db = Interleaved::new(&fixture.db, INSERT_SEGMENTS, usize::MAX, || {
        round += 1;
        store::add_segments(&fixture.services(), "s", &tm.id, &[segment("de", &format!("r{round}"), "x")]).unwrap();
    });
    let services = fixture.services().with_db(&db);
    let refused =
        store::import(&services, "s", &tm.id, &numbered(WRITE_CHUNK_SEGMENTS + 1, "Ziel"), ImportMode::Append);
    assert!(matches!(refused, Err(MemoryError::Contended)));
    let changes = db.ran(usize::MAX);
    assert!(changes >= store::APPEND_ATTEMPTS, "{changes}");
    assert_eq!(store::get(&fixture.db, "s", &tm.id).unwrap().segment_count, changes as i64, "only the other changes");
    assert_eq!(rows(&fixture, "memory_segment_sets"), 1);
    assert_index_consistent(&fixture);
}

#[test]
fn a_reader_never_sees_half_a_replacement() {
    let fixture = fixture();
    let tm = memory(&fixture);
    store::import(&fixture.services(), "s", &tm.id, &numbered(WRITE_CHUNK_SEGMENTS * 2, "Alt"), ImportMode::Replace)
        .unwrap();
    let memories = Memories::new(&fixture.db, "s");
    let queries = vec!["source 7".to_owned(), "source 900".to_owned()];
    let mut seen = Vec::new();
    let db = Interleaved::new(&fixture.db, INSERT_SEGMENTS, usize::MAX, || {
        let found = memories.lookup(&tm.id, language("de"), &queries, 100, false).unwrap();
        let count = store::get(&fixture.db, "s", &tm.id).unwrap().segment_count;
        seen.push((found, count));
    });
    let services = fixture.services().with_db(&db);
    store::import(&services, "s", &tm.id, &numbered(WRITE_CHUNK_SEGMENTS * 2, "Neu"), ImportMode::Replace).unwrap();
    drop(db);
    assert!(seen.len() >= 2, "readers ran between the chunks: {}", seen.len());
    for (found, count) in seen {
        assert_eq!(count, WRITE_CHUNK_SEGMENTS as i64 * 2);
        let targets: Vec<&str> = found.iter().map(|found| found.as_ref().unwrap().target.as_str()).collect();
        assert!(targets == ["Alt 7", "Alt 900"] || targets == ["Neu 7", "Neu 900"], "{targets:?}");
    }
}

#[test]
fn a_draft_whose_instance_died_is_removed_by_the_next_large_write() {
    let fixture = fixture();
    let tm = memory(&fixture);
    fixture
        .db
        .execute("INSERT INTO memory_segment_sets (subscription_id, memory_id, started_at) VALUES ('s', 'x', 1)", &[])
        .unwrap();
    fixture
        .db
        .execute(
            "INSERT INTO memory_segments (set_id, segment_id, target_lang, source, target, source_key, token_count) \
             SELECT max(id), 'id', 'de', 'half', 'halb', 0, 1 FROM memory_segment_sets",
            &[],
        )
        .unwrap();
    assert!(listed(&fixture, &tm.id).is_empty(), "a draft is no memory's");
    store::import(&fixture.services(), "s", &tm.id, &[segment("de", "a", "b")], ImportMode::Replace).unwrap();
    assert_eq!(rows(&fixture, "memory_segment_sets"), 1);
    assert_eq!(rows(&fixture, "memory_segments"), 1, "only the new segment");
}

fn found(matches: &[Option<MemoryMatch>]) -> Vec<Option<(String, u8)>> {
    matches.iter().map(|found| found.as_ref().map(|found| (found.target.clone(), found.score))).collect()
}

#[test]
fn a_translation_finds_exact_and_fuzzy_matches_of_its_target() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = store::create(&services, "s", &new_memory("TM", "en", &["de", "en-gb", "zh-hans"])).unwrap();
    store::add_segments(
        &services,
        "s",
        &tm.id,
        &[
            segment("de", "The printer is out of paper.", "Der Drucker hat kein Papier mehr."),
            segment("de", "Restart the printer now.", "Starten Sie den Drucker jetzt neu."),
            segment("de", "Hello world", "Hallo Welt"),
            segment("de", "hello, world!", "Hallo, Welt!"),
            segment("en-gb", "The color is red.", "The colour is red."),
            segment("zh-hans", "Good morning", "早上好"),
        ],
    )
    .unwrap();
    let memories = Memories::new(&fixture.db, "s");
    assert_eq!(memories.memory(&tm.id).unwrap().unwrap().targets, tm.targets);
    assert_eq!(Memories::new(&fixture.db, "other").memory(&tm.id).unwrap(), None, "another subscription's");

    let queries: Vec<String> = [
        "the printer is OUT of paper",
        "The printer is out of ink.",
        "Restart the printer.",
        "hello, world!",
        "Hello World",
        "Something else entirely",
        "...",
    ]
    .iter()
    .map(|text| text.to_string())
    .collect();
    let german = memories.lookup(&tm.id, language("de"), &queries, 70, true).unwrap();
    assert_eq!(
        found(&german),
        [
            Some(("Der Drucker hat kein Papier mehr.".to_owned(), 100)),
            Some(("Der Drucker hat kein Papier mehr.".to_owned(), 83)),
            Some(("Starten Sie den Drucker jetzt neu.".to_owned(), 75)),
            Some(("Hallo, Welt!".to_owned(), 100)),
            Some(("Hallo, Welt!".to_owned(), 100)),
            None,
            None,
        ],
        "the same text wins over another spelling of it, else the segment added last"
    );
    assert_eq!(memory_match::score("Restart the printer.", "Restart the printer now."), 75);
    let strict = memories.lookup(&tm.id, language("de"), &queries, 80, true).unwrap();
    assert_eq!(found(&strict)[2], None, "below the threshold");
    let exact_only = memories.lookup(&tm.id, language("de"), &queries, 0, false).unwrap();
    assert_eq!(found(&exact_only)[1], None, "no fuzzy match without fuzzy");
    assert_eq!(found(&exact_only)[0], Some(("Der Drucker hat kein Papier mehr.".to_owned(), 100)));

    let british = memories.lookup(&tm.id, language("en-gb"), &["The color is red".to_owned()], 75, true).unwrap();
    assert_eq!(found(&british), [Some(("The colour is red.".to_owned(), 100))]);
    let american = memories.lookup(&tm.id, language("en-us"), &["The color is red".to_owned()], 75, true).unwrap();
    assert_eq!(found(&american), [None], "the memory holds en-gb, not en-us or en");
    let chinese = memories.lookup(&tm.id, language("zh"), &["Good morning".to_owned()], 75, true).unwrap();
    assert_eq!(found(&chinese), [None], "zh-hans is not zh");
    let simplified = memories.lookup(&tm.id, language("zh-hans"), &["good morning!".to_owned()], 75, true).unwrap();
    assert_eq!(found(&simplified), [Some(("早上好".to_owned(), 100))]);
    let other = Memories::new(&fixture.db, "other").lookup(&tm.id, language("de"), &queries, 0, true).unwrap();
    assert!(other.iter().all(Option::is_none), "another subscription finds nothing");
}

#[test]
fn a_memory_for_a_base_language_serves_its_variants() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = store::create(&services, "s", &new_memory("TM", "de", &["en"])).unwrap();
    store::add_segments(&services, "s", &tm.id, &[segment("en", "Guten Morgen", "Good morning")]).unwrap();
    let memories = Memories::new(&fixture.db, "s");
    let found = memories.lookup(&tm.id, language("en-gb"), &["Guten Morgen".to_owned()], 100, false).unwrap();
    assert_eq!(found[0].as_ref().map(|found| found.target.as_str()), Some("Good morning"));
}

/// The query plan of `sql` with `params`, as text.
fn plan(fixture: &NativeHost, sql: &str, params: &[platform::Value]) -> String {
    let plan = fixture.db.execute(&format!("EXPLAIN QUERY PLAN {sql}"), params).unwrap();
    format!("{:?}", plan.rows)
}

#[test]
fn lookups_listings_and_copies_read_ranges_of_their_indexes() {
    let fixture = fixture();
    let exact = plan(&fixture, store::SQL_EXACT, &["[1]".into(), 1.into(), "de".into()]);
    assert!(exact.contains("memory_segments_by_key") && !exact.contains("SCAN s"), "{exact}");
    let counts = plan(&fixture, store::SQL_TOKEN_COUNTS, &[1.into(), "de".into(), "[1]".into()]);
    assert!(counts.contains("PRIMARY KEY") && !counts.contains("SCAN c"), "{counts}");
    let candidates = plan(
        &fixture,
        store::SQL_CANDIDATES,
        &["[1]".into(), 1.into(), "de".into(), 1.into(), 9.into(), 2000.into(), 20.into()],
    );
    assert!(candidates.contains("PRIMARY KEY") && !candidates.contains("SCAN t"), "{candidates}");
    let page = plan(&fixture, store::SQL_PAGE_AFTER, &[1.into(), "de".into(), 5.into(), 500.into()]);
    assert!(page.contains("memory_segments_by_target") && !page.contains("TEMP B-TREE"), "{page}");
}

#[test]
fn a_memory_of_100000_segments_is_imported_in_reasonable_time_and_looked_up_through_its_indexes() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = memory(&fixture);
    let words = ["printer", "paper", "network", "cable", "screen", "battery", "charger", "keyboard", "mouse", "window"];
    let segments: Vec<NewSegment> = (0..100_000)
        .map(|index| {
            let (a, b, c) = (words[index % 10], words[(index / 10) % 10], words[(index / 100) % 10]);
            segment("de", &format!("Check the {a} and the {b} near {c} number {index}."), &format!("Ziel {index}"))
        })
        .collect();
    let started = Instant::now();
    let imported = store::import(&services, "s", &tm.id, &segments, ImportMode::Replace).unwrap();
    let import_time = started.elapsed();
    assert_eq!(imported.memory.segment_count, 100_000);
    eprintln!("imported 100,000 segments in {import_time:?}");

    let memories = Memories::new(&fixture.db, "s");
    let queries: Vec<String> = vec![
        "Check the battery and the screen near cable number 12345.".into(),
        "Please check the battery and the screen near the cable, number 12345".into(),
        "check the mouse and the window near cable no. 4398".into(),
        "Nothing like it".into(),
    ];
    let started = Instant::now();
    let found = memories.lookup(&tm.id, language("de"), &queries, 60, true).unwrap();
    let lookup_time = started.elapsed();
    eprintln!("looked up {} segments (fuzzy) in {lookup_time:?}", queries.len());
    let found: Vec<Option<(&str, u8)>> =
        found.iter().map(|found| found.as_ref().map(|found| (found.target.as_str(), found.score))).collect();
    assert_eq!(found, [Some(("Ziel 12345", 100)), Some(("Ziel 12345", 83)), Some(("Ziel 4398", 90)), None]);
    assert!(lookup_time.as_secs_f64() < 2.0, "lookups read index ranges only: {lookup_time:?}");
    assert_index_consistent(&fixture);
}

/// Every page of a listing, following its cursors.
fn pages(fixture: &NativeHost, id: &Id, page_size: i64, filter: Option<TextFilter>) -> Vec<SegmentPage> {
    let mut pages = Vec::new();
    let mut after = None;
    loop {
        let query = SegmentQuery { page_size, after, filter: filter.clone() };
        let page = store::source_segments(&fixture.db, "s", id, &query).unwrap();
        after = page.next;
        pages.push(page);
        if after.is_none() {
            return pages;
        }
    }
}

#[test]
fn the_listing_pages_through_every_source_segment_once_across_batches() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = memory(&fixture);
    // 1,500 sources with two translations each: 3,000 rows, three batches and more.
    let mut segments = numbered(1500, "Ziel");
    segments.extend((0..1500).map(|i| segment("en-gb", &format!("source {i}"), &format!("target {i}"))));
    store::import(&services, "s", &tm.id, &segments, ImportMode::Append).unwrap();

    let listed = pages(&fixture, &tm.id, 100, None);
    assert_eq!(listed.len(), 15);
    assert!(listed.iter().all(|page| page.segments.len() == 100 && page.segment_count == 3000));
    let mut sources: Vec<&str> =
        listed.iter().flat_map(|page| &page.segments).map(|segment| segment.source.as_str()).collect();
    assert!(listed.iter().flat_map(|page| &page.segments).all(|segment| segment.targets.len() == 2));
    sources.sort_unstable();
    sources.dedup();
    assert_eq!(sources.len(), 1500, "no source segment twice, none missed");

    // Changes between pages: what stays is listed once, whatever is added meanwhile.
    let first =
        store::source_segments(&fixture.db, "s", &tm.id, &SegmentQuery { page_size: 700, after: None, filter: None })
            .unwrap();
    store::add_segments(&services, "s", &tm.id, &[segment("de", "a new source", "neu")]).unwrap();
    let rest = store::source_segments(
        &fixture.db,
        "s",
        &tm.id,
        &SegmentQuery { page_size: 100, after: first.next, filter: None },
    )
    .unwrap();
    assert!(rest.segments.iter().all(|later| first.segments.iter().all(|earlier| earlier.id != later.id)));
}

#[test]
fn one_source_with_more_translations_than_a_batch_is_one_source_segment() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = memory(&fixture);
    let mut segments: Vec<NewSegment> = (0..1200).map(|i| segment("de", "Hello", &format!("Hallo {i}"))).collect();
    segments.push(segment("de", "Goodbye", "Tschüss"));
    store::import(&services, "s", &tm.id, &segments, ImportMode::Append).unwrap();
    let listed = pages(&fixture, &tm.id, 1, None);
    let counts: Vec<(String, usize)> = listed
        .iter()
        .flat_map(|page| &page.segments)
        .map(|segment| (segment.source.clone(), segment.targets.len()))
        .collect();
    assert_eq!(counts.len(), 2);
    assert!(counts.contains(&("Hello".to_owned(), 1200)) && counts.contains(&("Goodbye".to_owned(), 1)));
}

#[test]
fn the_listing_filters_by_source_or_target_text() {
    let fixture = fixture();
    let services = fixture.services();
    let tm = memory(&fixture);
    let mut segments = numbered(2500, "Ziel");
    segments.push(segment("de", "About cats", "Über Katzen"));
    segments.push(segment("de", "HELLO world", "Hallo Welt"));
    segments.push(segment("de", "hello", "hallo"));
    store::import(&services, "s", &tm.id, &segments, ImportMode::Append).unwrap();
    let found = |text: &str, case_sensitive: Option<bool>| {
        let filter = TextFilter::parse(text.into(), case_sensitive).unwrap();
        let mut sources: Vec<String> = pages(&fixture, &tm.id, 10, Some(filter))
            .iter()
            .flat_map(|page| &page.segments)
            .map(|segment| segment.source.clone())
            .collect();
        sources.sort();
        sources
    };
    assert_eq!(found("über", None), ["About cats"], "targets too, in either case, beyond ASCII");
    assert_eq!(found("über", Some(true)), Vec::<String>::new());
    assert_eq!(found("hello", None), ["HELLO world", "hello"], "a case variant is another source segment");
    assert_eq!(found("HELLO", Some(true)), ["HELLO world"]);
    assert_eq!(found("source 24", None).len(), 111, "source 24, 240 to 249 and 2400 to 2499");
}
