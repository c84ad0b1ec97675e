//! The store and the request readers, against an in-memory database with the real schema.

use std::collections::BTreeSet;

use platform::native::NativeHost;
use platform::{Database, FixedClock, Id};

use super::*;

type Fixture = NativeHost;

/// Fresh in-memory storage with the glossary schema, at 2026-11-21T10:00:00.123Z.
fn fixture() -> Fixture {
    let clock = FixedClock::new(std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_795_255_200_123));
    NativeHost::in_memory(&[include_str!("../../../sql/0005_glossaries.sql")], clock).expect("set up the host")
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
    assert_eq!(pairs, [("DE → EN".to_string(), 1), ("EN → DE".to_string(), 2)]);

    assert_eq!(store::list(&fixture.db, "sub-a").unwrap(), std::slice::from_ref(&created));
    assert!(store::list(&fixture.db, "sub-b").unwrap().is_empty());
    assert!(matches!(store::get(&fixture.db, "sub-b", &id(&created)), Err(GlossaryError::NotFound)));
    assert!(matches!(store::delete(&fixture.db, "sub-b", &id(&created)), Err(GlossaryError::NotFound)));

    let entries = store::entries(&fixture.db, "sub-a", &id(&created), &LanguagePair::new("en", "de")).unwrap();
    assert_eq!(entries, [("house".to_string(), "Haus".to_string()), ("car".to_string(), "Auto".to_string())]);
    assert!(matches!(
        store::entries(&fixture.db, "sub-a", &id(&created), &LanguagePair::new("en", "fr")),
        Err(GlossaryError::DictionaryNotFound)
    ));

    store::delete(&fixture.db, "sub-a", &id(&created)).unwrap();
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
        &fixture.db,
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

    let added =
        store::update(&fixture.db, "s", &id(&glossary), None, Some(&dictionary("en", "fr", &[("car", "voiture")])))
            .unwrap();
    assert_eq!(added.dictionaries.len(), 2);

    let replaced =
        store::replace_dictionary(&fixture.db, "s", &id(&glossary), &dictionary("en", "de", &[("sun", "Sonne")]))
            .unwrap();
    assert_eq!(replaced.entry_count, 1);
    assert_eq!(
        store::entries(&fixture.db, "s", &id(&glossary), &pair).unwrap(),
        [("sun".to_string(), "Sonne".to_string())]
    );

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
    assert_eq!(missing.to_string(), format!("Glossary {} has no dictionary for the language pair EN → FR.", first.id));
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
