//! Installing, replacing, refusing, listing and removing, on small synthetic packages; and the
//! real package `GLOSSA_TEST_ARGOSMODEL` names, when it is set.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use time::OffsetDateTime;
use time::macros::datetime;

use super::listing::{list, remove, render};
use super::testing::{self, Entry, ModelBin, package_entries, replace, write_zip};
use super::*;

const AT: OffsetDateTime = datetime!(2026-11-26 10:00:00.123 UTC);
const TOP: &str = "translate-zh_en-1_9";

/// A scratch directory with a models folder in it.
struct Scratch {
    temp: tempfile::TempDir,
    models: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        let temp = tempfile::tempdir().unwrap();
        let models = temp.path().join("models");
        Scratch { temp, models }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.temp.path().join(name)
    }

    /// Writes a package named `name` holding `entries`.
    fn package(&self, name: &str, entries: &[Entry]) -> PathBuf {
        let path = self.path(name);
        write_zip(&path, entries);
        path
    }

    fn request(&self, from: &Path) -> Install {
        Install { models_dir: self.models.clone(), from: from.to_path_buf(), ..Install::default() }
    }

    fn install(&self, from: &Path) -> anyhow::Result<Installed> {
        install(&self.request(from), AT)
    }

    /// Installs a good zh→en package of `version`.
    fn install_good(&self, version: &str) -> Installed {
        let top = format!("translate-zh_en-{}", version.replace('.', "_"));
        let package = self.package(&format!("{top}.argosmodel"), &package_entries(&top, "zh", "en", version));
        self.install(&package).unwrap()
    }

    /// Every path under the models folder with the bytes of its files.
    fn snapshot(&self) -> BTreeMap<String, Option<Vec<u8>>> {
        let mut found = BTreeMap::new();
        snapshot_into(&self.models, "", &mut found);
        found
    }
}

fn snapshot_into(dir: &Path, prefix: &str, found: &mut BTreeMap<String, Option<Vec<u8>>>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries {
        let entry = entry.unwrap();
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().unwrap().is_dir() {
            found.insert(format!("{name}/"), None);
            snapshot_into(&entry.path(), &format!("{name}/"), found);
        } else {
            found.insert(name, Some(fs::read(entry.path()).unwrap()));
        }
    }
}

fn good_entries() -> Vec<Entry> {
    package_entries(TOP, "zh", "en", "1.9")
}

#[test]
fn a_good_package_installs_with_the_layout_the_service_reads() {
    let scratch = Scratch::new();
    let package = scratch.package("model_data.argosmodel", &good_entries());
    let installed = scratch.install(&package).unwrap();

    let dir = scratch.models.join("zh-en");
    assert_eq!(installed.dir, dir);
    assert_eq!(installed.model.variables, 4);
    assert_eq!(installed.left_out, ["stanza"]);
    assert!(installed.replaced.is_none());
    let files: Vec<String> = scratch.snapshot().into_keys().collect();
    assert_eq!(
        files,
        [
            "zh-en/",
            "zh-en/README.md",
            "zh-en/installed.json",
            "zh-en/metadata.json",
            "zh-en/model/",
            "zh-en/model/config.json",
            "zh-en/model/model.bin",
            "zh-en/model/shared_vocabulary.json",
            "zh-en/sentencepiece.model",
        ],
        "no staging directory and no stanza/ are left"
    );
    assert_eq!(fs::read(dir.join("model/model.bin")).unwrap(), ModelBin::small().bytes());
    assert_eq!(fs::read(dir.join("sentencepiece.model")).unwrap(), testing::sentencepiece());

    let marker: serde_json::Value = serde_json::from_slice(&fs::read(dir.join("installed.json")).unwrap()).unwrap();
    assert_eq!(
        marker,
        serde_json::json!({
            "family": "translation", "source": "zh", "target": "en", "name": TOP, "version": "1.9",
            "model": "model", "sentencepiece": "sentencepiece.model",
            "installed_from": "model_data.argosmodel", "installed_at": "2026-11-26T10:00:00Z",
        })
    );
    assert_eq!(installed.size, super::disk_size(&dir).unwrap());
}

#[test]
fn a_new_installation_of_a_pair_replaces_the_old_one() {
    let scratch = Scratch::new();
    scratch.install_good("1.8");
    fs::write(scratch.models.join("zh-en/model/only-in-1.8"), "old").unwrap();
    let installed = scratch.install_good("1.9");
    let replaced = installed.replaced.expect("1.8 was replaced");
    assert_eq!((replaced.name.as_str(), replaced.version.as_str()), ("translate-zh_en-1_8", "1.8"));
    assert_eq!(read_marker(&installed.dir).unwrap().version, "1.9");
    let files: Vec<String> = scratch.snapshot().into_keys().collect();
    assert!(files.iter().all(|file| file.starts_with("zh-en/")), "nothing left beside it: {files:?}");
    assert!(!files.contains(&"zh-en/model/only-in-1.8".to_owned()), "the old installation is gone: {files:?}");
}

#[test]
fn installs_of_the_same_pair_racing_each_other_all_succeed() {
    let scratch = Scratch::new();
    let package = scratch.package("p.argosmodel", &good_entries());
    std::thread::scope(|threads| {
        for _ in 0..4 {
            threads.spawn(|| {
                for _ in 0..3 {
                    scratch.install(&package).unwrap();
                }
            });
        }
    });
    let files: Vec<String> = scratch.snapshot().into_keys().collect();
    assert!(files.iter().all(|file| file.starts_with("zh-en/")), "nothing left beside it: {files:?}");
    assert_eq!(read_marker(&scratch.models.join("zh-en")).unwrap().name, TOP);
}

/// Installs `package` over a good installation, and into a folder that does not exist yet;
/// both must fail with `expected` in the message and leave the folder as it was.
fn assert_refused(scratch: &Scratch, package: &Path, expected: &str) -> String {
    if !scratch.models.join("zh-en").exists() {
        scratch.install_good("1.8");
    }
    let before = scratch.snapshot();
    let message = format!("{:#}", scratch.install(package).expect_err("the install should fail"));
    assert!(message.contains(expected), "expected {expected:?} in: {message}");
    assert_eq!(scratch.snapshot(), before, "the models folder changed after: {message}");

    // A folder (and its parent) that do not exist yet are not left behind either.
    let fresh = Scratch::new();
    let nested = Install { models_dir: fresh.path("state/models"), ..fresh.request(package) };
    let fresh_message = format!("{:#}", install(&nested, AT).expect_err("the install should fail"));
    assert_eq!(fresh_message, message);
    assert!(!fresh.path("state").exists(), "a models folder was left behind after: {message}");
    message
}

fn refuse_entries(entries: &[Entry], expected: &str) -> String {
    let scratch = Scratch::new();
    let package = scratch.package("bad.argosmodel", entries);
    assert_refused(&scratch, &package, expected)
}

fn with(name: &str, entry: Option<Entry>) -> Vec<Entry> {
    replace(good_entries(), &format!("{TOP}/{name}"), entry)
}

fn with_file(name: &str, bytes: impl Into<Vec<u8>>) -> Vec<Entry> {
    with(name, Some(Entry::file(format!("{TOP}/{name}"), bytes)))
}

#[test]
fn files_that_are_not_zip_archives_are_refused() {
    let scratch = Scratch::new();
    let text = scratch.path("text.argosmodel");
    fs::write(&text, "not a zip file at all").unwrap();
    assert_refused(&scratch, &text, "it is not a readable zip archive");
    let bytes = testing::zip_bytes(&good_entries());
    let cut = scratch.path("cut.argosmodel");
    fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    assert_refused(&scratch, &cut, "it is not a readable zip archive");
    let empty = scratch.path("empty.argosmodel");
    fs::write(&empty, "").unwrap();
    assert_refused(&scratch, &empty, "it is not a readable zip archive");
}

#[test]
fn corrupt_entries_are_refused() {
    // Stored, so that its bytes can be found in the archive and damaged.
    let entries =
        with("model/model.bin", Some(Entry::Stored(format!("{TOP}/model/model.bin"), ModelBin::small().bytes())));
    let mut bytes = testing::zip_bytes(&entries);
    let at = bytes.windows(15).position(|window| window == b"TransformerSpec").unwrap();
    bytes[at] = b'X';
    let scratch = Scratch::new();
    let package = scratch.path("damaged.argosmodel");
    fs::write(&package, bytes).unwrap();
    let message = assert_refused(&scratch, &package, "entry `translate-zh_en-1_9/model/model.bin`: it is corrupt");
    assert!(message.starts_with(&format!("cannot install {}", package.display())), "{message}");
}

#[test]
fn entries_escaping_the_package_are_refused() {
    let mut entries = good_entries();
    entries.push(Entry::file("../x", "outside"));
    refuse_entries(&entries, "entry `../x` has an unsafe path");
    let mut entries = good_entries();
    entries.push(Entry::file(format!("{TOP}/model/../../../x"), "outside"));
    refuse_entries(&entries, "has an unsafe path");
}

#[test]
fn symbolic_links_are_refused() {
    let mut entries = good_entries();
    entries.push(Entry::Symlink(format!("{TOP}/model/passwd"), "/etc/passwd".into()));
    refuse_entries(&entries, "is a symbolic link");
}

#[test]
fn packages_must_be_one_directory() {
    let mut entries = good_entries();
    entries.push(Entry::file("other/metadata.json", "{}"));
    refuse_entries(&entries, "more than one top-level entry");
}

#[test]
fn missing_files_are_refused() {
    refuse_entries(&with("sentencepiece.model", None), "it has no translate-zh_en-1_9/sentencepiece.model");
    refuse_entries(&with("metadata.json", None), "it has no translate-zh_en-1_9/metadata.json");
    refuse_entries(&with("model/model.bin", None), "it has no translate-zh_en-1_9/model/model.bin");
    refuse_entries(&with("model/shared_vocabulary.json", None), "translate-zh_en-1_9/model has no vocabulary");
    refuse_entries(&with("model/config.json", None), "translate-zh_en-1_9/model/config.json is missing");
}

#[test]
fn too_many_entries_or_a_zip_bomb_are_refused() {
    let mut entries = good_entries();
    entries.extend((0..10_000).map(|index| Entry::file(format!("{TOP}/stanza/{index}"), "x")));
    refuse_entries(&entries, "the zip archive has 10011 entries, more than the 10000");
    let mut entries = good_entries();
    entries.push(Entry::file(format!("{TOP}/model/zeros.bin"), vec![0; 4 << 20]));
    refuse_entries(&entries, "a ratio that suggests a zip bomb");
}

#[test]
fn bad_metadata_is_refused() {
    refuse_entries(
        &with_file("metadata.json", "{\"from_code\": "),
        "translate-zh_en-1_9/metadata.json: it is not valid JSON",
    );
    refuse_entries(&with_file("metadata.json", r#"{"from_code": "zh"}"#), "it has no to_code");
    refuse_entries(
        &with_file("metadata.json", testing::metadata("zh", "xx", "1")),
        "to_code `xx` is not a language Glossa knows",
    );
    refuse_entries(&with_file("metadata.json", testing::metadata("en", "en-GB", "1")), "it translates en into en");
    let sbd = r#"{"from_code": "zh", "to_code": "en", "package_type": "sbd"}"#;
    refuse_entries(&with_file("metadata.json", sbd), "only translation packages");
}

#[test]
fn bad_model_files_are_refused() {
    let model = ModelBin::small().bytes();
    refuse_entries(&with_file("model/model.bin", &model[..model.len() - 10]), "model/model.bin: it is truncated");
    let mut padded = model.clone();
    padded.extend_from_slice(b"\0\0\0\0");
    refuse_entries(&with_file("model/model.bin", padded), "4 unexpected bytes follow the end of the model");
    let mut wrong = ModelBin::small();
    wrong.variables[2].bytes = 9;
    refuse_entries(
        &with_file("model/model.bin", wrong.bytes()),
        "model/model.bin: variable #3 `decoder/embeddings/weight` declares 9 bytes of data, but its shape [4, 2] of int8 needs 8",
    );
    refuse_entries(&with_file("model/config.json", "[1, 2]"), "model/config.json: it is not a JSON object");
    refuse_entries(&with_file("model/shared_vocabulary.json", "{}"), "it is not a JSON list of tokens");
    refuse_entries(&with_file("sentencepiece.model", ""), "translate-zh_en-1_9/sentencepiece.model: it is empty");
    refuse_entries(&with_file("sentencepiece.model", "<unk>"), "it is not a SentencePiece model");
}

#[test]
fn flags_must_agree_with_the_package() {
    let scratch = Scratch::new();
    let package = scratch.package("p.argosmodel", &good_entries());
    let request = Install { source: Some("fr".into()), ..scratch.request(&package) };
    let message = format!("{:#}", install(&request, AT).unwrap_err());
    assert!(
        message.contains("--source fr disagrees with translate-zh_en-1_9/metadata.json, whose from_code is zh"),
        "{message}"
    );
    assert!(!scratch.models.exists());
    let request = Install { target: Some("klingon".into()), ..scratch.request(&package) };
    let message = format!("{:#}", install(&request, AT).unwrap_err());
    assert!(message.contains("--target `klingon` is not a language Glossa knows"), "{message}");
    let request = Install { sentencepiece: Some(package.clone()), ..scratch.request(&package) };
    assert!(format!("{:#}", install(&request, AT).unwrap_err()).contains("--sentencepiece is for a model directory"));

    // Agreeing flags, and a name and version of the operator's.
    let request = Install {
        source: Some("ZH".into()),
        target: Some("en-US".into()),
        name: Some("opus-zh-en".into()),
        version: Some("2026.1".into()),
        ..scratch.request(&package)
    };
    let installed = install(&request, AT).unwrap();
    assert_eq!(installed.installation.name, "opus-zh-en");
    assert_eq!(installed.installation.version, "2026.1");
}

#[test]
fn a_ctranslate2_directory_installs_with_the_languages_given() {
    let scratch = Scratch::new();
    let dir = scratch.path("opus-mt-de-en");
    testing::write_model_dir(&dir);
    fs::write(dir.join("sentencepiece.model"), testing::sentencepiece()).unwrap();
    fs::write(dir.join("README.md"), testing::README).unwrap();
    fs::write(dir.join(".DS_Store"), "x").unwrap();

    let message = format!("{:#}", scratch.install(&dir).unwrap_err());
    assert!(message.contains("--source is needed"), "{message}");
    assert!(!scratch.models.exists());

    let request = Install { source: Some("de".into()), target: Some("en".into()), ..scratch.request(&dir) };
    let installed = install(&request, AT).unwrap();
    assert_eq!(installed.installation.dir_name(), "de-en");
    assert_eq!(installed.installation.name, "opus-mt-de-en");
    assert_eq!(installed.installation.version, "0");
    assert_eq!(installed.installation.installed_from, "opus-mt-de-en");
    let files: Vec<String> = scratch.snapshot().into_keys().collect();
    assert_eq!(
        files,
        [
            "de-en/",
            "de-en/README.md",
            "de-en/installed.json",
            "de-en/model/",
            "de-en/model/config.json",
            "de-en/model/model.bin",
            "de-en/model/shared_vocabulary.json",
            "de-en/sentencepiece.model",
        ]
    );
    assert!(dir.join("model.bin").exists(), "the source directory is copied, not moved");
}

#[test]
fn a_ctranslate2_directory_may_name_its_sentencepiece_model() {
    let scratch = Scratch::new();
    let dir = scratch.path("model");
    testing::write_model_dir(&dir);
    let request = Install { source: Some("fr".into()), target: Some("de".into()), ..scratch.request(&dir) };
    let message = format!("{:#}", install(&request, AT).unwrap_err());
    assert!(message.contains("there is no SentencePiece model at"), "{message}");
    assert!(message.contains("--sentencepiece FILE"), "{message}");

    let spm = scratch.path("source.spm");
    fs::write(&spm, testing::sentencepiece()).unwrap();
    let request = Install { sentencepiece: Some(spm), version: Some("3".into()), ..request };
    let installed = install(&request, AT).unwrap();
    assert_eq!(fs::read(installed.dir.join("sentencepiece.model")).unwrap(), testing::sentencepiece());

    // Errors name the operator's files, not the staging directory.
    let bad = scratch.path("bad");
    testing::write_model_dir(&bad);
    fs::write(bad.join("sentencepiece.model"), testing::sentencepiece()).unwrap();
    fs::write(bad.join("model.bin"), &ModelBin::small().bytes()[..40]).unwrap();
    let request = Install { source: Some("fr".into()), target: Some("de".into()), ..scratch.request(&bad) };
    let message = format!("{:#}", install(&request, AT).unwrap_err());
    assert!(message.contains(&format!("{}: it is truncated", bad.join("model.bin").display())), "{message}");
}

#[test]
fn an_unpacked_package_directory_installs_like_the_package() {
    let scratch = Scratch::new();
    let dir = scratch.path(TOP);
    testing::write_model_dir(&dir.join("model"));
    fs::write(dir.join("sentencepiece.model"), testing::sentencepiece()).unwrap();
    fs::write(dir.join("metadata.json"), testing::metadata("zh", "en", "1.9")).unwrap();
    fs::create_dir(dir.join("stanza")).unwrap();

    let request = Install { source: Some("ja".into()), ..scratch.request(&dir) };
    let message = format!("{:#}", install(&request, AT).unwrap_err());
    assert!(message.contains("--source ja disagrees with"), "{message}");

    let installed = scratch.install(&dir).unwrap();
    assert_eq!(installed.installation.dir_name(), "zh-en");
    assert_eq!(installed.installation.name, TOP);
    assert_eq!(installed.installation.version, "1.9");
    assert!(installed.dir.join("metadata.json").is_file());
    assert!(!installed.dir.join("stanza").exists());
}

#[test]
fn the_list_shows_each_installation_or_a_note() {
    let scratch = Scratch::new();
    assert_eq!(list(&scratch.models).unwrap(), (vec![], vec![]));
    let note = render(&scratch.models, &[]);
    assert!(note.starts_with("No models are installed in"), "{note}");

    scratch.install_good("1.9");
    // Named as long as the zh-en package, so that both installations have the same size.
    let entries = package_entries("translate-de_en-1_0", "de", "en", "1.0");
    let package = scratch.package("translate-de_en-1_0.argosmodel", &entries);
    scratch.install(&package).unwrap();
    fs::create_dir(scratch.models.join("stray")).unwrap();

    let (listed, problems) = list(&scratch.models).unwrap();
    assert_eq!(listed.iter().map(|listed| listed.installation.dir_name()).collect::<Vec<_>>(), ["de-en", "zh-en"]);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("stray has no installed.json"), "{problems:?}");
    assert_eq!(listed[0].size_bytes, listed[1].size_bytes);
    let size = human_size(listed[0].size_bytes);
    assert_eq!(
        render(&scratch.models, &listed),
        format!(
            "de-en  translate-de_en-1_0  version 1.0  {size}  installed 2026-11-26T10:00:00Z\n\
             zh-en  translate-zh_en-1_9  version 1.9  {size}  installed 2026-11-26T10:00:00Z\n"
        )
    );

    let json = serde_json::to_value(&listed).unwrap();
    assert_eq!(json[1]["source"], "zh");
    assert_eq!(json[1]["name"], TOP);
    assert_eq!(json[1]["installed_at"], "2026-11-26T10:00:00Z");
    assert_eq!(json[1]["size_bytes"], listed[1].size_bytes);
    assert_eq!(json[1]["path"], scratch.models.join("zh-en").display().to_string());
}

#[test]
fn remove_takes_the_installation_away_whole() {
    let scratch = Scratch::new();
    scratch.install_good("1.9");
    let message = format!("{:#}", remove(&scratch.models, "de-en").unwrap_err());
    assert!(message.contains("no model for de-en is installed"), "{message}");
    let message = format!("{:#}", remove(&scratch.models, "../etc").unwrap_err());
    assert!(message.contains("is not a language pair"), "{message}");
    // A bare word could be a speech model's name.
    assert!(format!("{:#}", remove(&scratch.models, "zh").unwrap_err()).contains("no model for zh is installed"));
    let message = format!("{:#}", remove(&scratch.models, ".hidden").unwrap_err());
    assert!(message.contains("is not a language pair or a speech model's name"), "{message}");

    let message = format!("{:#}", remove(&scratch.path("nowhere"), "zh-en").unwrap_err());
    assert!(message.contains("no model for zh-en is installed"), "{message}");

    let removed = remove(&scratch.models, "ZH-en").unwrap().expect("it had an installed.json");
    assert_eq!(removed.name, TOP);
    assert!(scratch.snapshot().is_empty(), "{:?}", scratch.snapshot().keys());
}

#[test]
fn sizes_read_as_people_write_them() {
    assert_eq!(human_size(12), "12 bytes");
    assert_eq!(human_size(2048), "2.0 KiB");
    assert_eq!(human_size(82_713_318), "78.9 MiB");
    assert_eq!(human_size(5 << 30), "5.0 GiB");
}

/// The real package `GLOSSA_TEST_ARGOSMODEL` names (an Argos Translate `.argosmodel`, such as
/// translate-zh_en-1_9); skipped when it is not set.
#[test]
fn a_real_package_installs() {
    let Some(package) = std::env::var_os("GLOSSA_TEST_ARGOSMODEL").map(PathBuf::from) else {
        eprintln!("GLOSSA_TEST_ARGOSMODEL is not set: skipping the real package");
        return;
    };
    let scratch = Scratch::new();
    let installed = scratch.install(&package).unwrap();
    let installation = &installed.installation;
    eprintln!("{installation:?}\n{:?}\n{} bytes", installed.model, installed.size);
    assert!(matches!(installation.kind, Kind::Translation { .. }), "{installation:?}");
    assert_eq!(installed.model.binary_version, 6);
    assert!(installed.model.variables > 100, "{:?}", installed.model);
    let dir = &installed.dir;
    for file in
        ["installed.json", "metadata.json", "README.md", "sentencepiece.model", "model/model.bin", "model/config.json"]
    {
        assert!(dir.join(file).is_file(), "{file} is not installed");
    }
    assert!(!dir.join("stanza").exists());
    assert_eq!(installed.model.bytes, fs::metadata(dir.join("model/model.bin")).unwrap().len());

    // Installing it again replaces it; then it is listed, and removed.
    let again = scratch.install(&package).unwrap();
    assert_eq!(again.replaced.as_ref(), Some(installation));
    let (listed, problems) = list(&scratch.models).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].size_bytes, installed.size);
    remove(&scratch.models, &installation.dir_name()).unwrap();
    assert!(scratch.snapshot().is_empty());
}

#[test]
fn a_whisper_directory_installs_as_a_speech_model() {
    let scratch = Scratch::new();
    let dir = scratch.path("whisper-tiny.en");
    testing::write_whisper_dir(&dir, false, 1);
    fs::write(dir.join("README.md"), "# tiny.en\n\nMIT\n").unwrap();
    fs::write(dir.join(".DS_Store"), "x").unwrap();
    let installed = scratch.install(&dir).unwrap();
    assert_eq!(installed.dir, scratch.models.join("whisper-tiny.en"));
    assert_eq!(installed.model.spec.as_deref(), Some("WhisperSpec"));
    let files: Vec<String> = scratch.snapshot().into_keys().collect();
    assert_eq!(
        files,
        [
            "whisper-tiny.en/",
            "whisper-tiny.en/README.md",
            "whisper-tiny.en/installed.json",
            "whisper-tiny.en/model/",
            "whisper-tiny.en/model/config.json",
            "whisper-tiny.en/model/model.bin",
            "whisper-tiny.en/model/tokenizer.json",
            "whisper-tiny.en/model/vocabulary.txt",
        ]
    );
    let marker: serde_json::Value =
        serde_json::from_slice(&fs::read(installed.dir.join("installed.json")).unwrap()).unwrap();
    assert_eq!(
        marker,
        serde_json::json!({
            "family": "speech", "languages": ["en"], "multilingual": false, "name": "whisper-tiny.en",
            "version": "0", "model": "model", "installed_from": "whisper-tiny.en",
            "installed_at": "2026-11-26T10:00:00Z",
        })
    );
    // It reads back, and lists beside a translation model.
    assert_eq!(read_marker(&installed.dir).unwrap(), installed.installation);
    scratch.install_good("1.9");
    let (listed, problems) = list(&scratch.models).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let text = render(&scratch.models, &listed);
    assert!(text.contains("whisper-tiny.en  speech recognition, en"), "{text}");
    assert!(text.contains("zh-en            translate-zh_en-1_9"), "{text}");
}

#[test]
fn a_multilingual_whisper_model_in_parts_is_joined_and_lists_its_languages() {
    let scratch = Scratch::new();
    let dir = scratch.path("base-parts");
    testing::write_whisper_dir(&dir, true, 3);
    let request = Install { name: Some("whisper-base".into()), version: Some("1.0.0".into()), ..scratch.request(&dir) };
    let installed = install(&request, AT).unwrap();
    assert_eq!(installed.dir, scratch.models.join("whisper-base"));
    assert_eq!(fs::read(installed.dir.join("model/model.bin")).unwrap(), testing::whisper_model_bin());
    assert!(!installed.dir.join("model/model.bin.part1").exists());
    assert_eq!(
        installed.installation.kind,
        Kind::Speech { languages: vec!["en".into(), "de".into(), "haw".into()], multilingual: true }
    );
    assert_eq!(installed.installation.version, "1.0.0");

    // Installing again replaces it; removing it by name takes it away.
    let again = install(&request, AT).unwrap();
    assert_eq!(again.replaced.as_ref(), Some(&installed.installation));
    let removed = remove(&scratch.models, "whisper-base").unwrap().expect("it had an installed.json");
    assert_eq!(removed.name, "whisper-base");
    assert!(scratch.snapshot().is_empty(), "{:?}", scratch.snapshot().keys());
}

/// A whisper directory written by `write_whisper_dir` and then changed by `change`.
fn whisper_dir(scratch: &Scratch, parts: usize, change: impl FnOnce(&Path)) -> PathBuf {
    let dir = scratch.path("whisper-small");
    let _ = fs::remove_dir_all(&dir);
    testing::write_whisper_dir(&dir, true, parts);
    change(&dir);
    dir
}

#[test]
fn broken_whisper_directories_are_refused_and_leave_the_folder_as_it_was() {
    let scratch = Scratch::new();
    let refuse = |parts: usize, change: &dyn Fn(&Path), expected: &str| {
        let dir = whisper_dir(&scratch, parts, change);
        assert_refused(&scratch, &dir, expected);
    };
    // Parts missing, out of order, or beside a whole model.bin.
    refuse(3, &|dir| fs::remove_file(dir.join("model.bin.part2")).unwrap(), "has no model.bin.part2");
    refuse(3, &|dir| fs::remove_file(dir.join("model.bin.part3")).unwrap(), "it is truncated");
    refuse(
        2,
        &|dir| {
            let (first, second) = (fs::read(dir.join("model.bin.part1")).unwrap(), dir.join("model.bin.part2"));
            fs::write(dir.join("model.bin.part2"), &first).unwrap();
            fs::write(dir.join("model.bin.part3"), fs::read(&second).unwrap()).unwrap();
        },
        "model.bin joined from 3 parts",
    );
    refuse(2, &|dir| fs::write(dir.join("model.bin"), "x").unwrap(), "has both model.bin and model.bin.part1");
    refuse(2, &|dir| fs::write(dir.join("model.bin.part01"), "x").unwrap(), "is not a part of model.bin");
    // The files faster-whisper needs.
    refuse(1, &|dir| fs::remove_file(dir.join("tokenizer.json")).unwrap(), "tokenizer.json is missing");
    refuse(1, &|dir| fs::write(dir.join("tokenizer.json"), "[]").unwrap(), "tokenizer.json: it is not a JSON object");
    refuse(1, &|dir| fs::remove_file(dir.join("vocabulary.txt")).unwrap(), "has no vocabulary.txt or vocabulary.json");
    refuse(1, &|dir| fs::write(dir.join("config.json"), "{}").unwrap(), "config.json: it has no lang_ids");
    refuse(
        1,
        &|dir| fs::write(dir.join("config.json"), r#"{"lang_ids": [50258]}"#).unwrap(),
        r#"whose token "<|startoftranscript|>" is not a language token"#,
    );
    refuse(1, &|dir| fs::write(dir.join("config.json"), r#"{"lang_ids": [99999999]}"#).unwrap(), "not a vocabulary id");
}

#[test]
fn speech_models_take_no_languages_and_a_name_that_is_not_a_pair() {
    let scratch = Scratch::new();
    let dir = whisper_dir(&scratch, 1, |_| {});
    for request in [
        Install { source: Some("en".into()), ..scratch.request(&dir) },
        Install { sentencepiece: Some(dir.join("config.json")), ..scratch.request(&dir) },
    ] {
        let message = format!("{:#}", install(&request, AT).unwrap_err());
        assert!(message.contains("is for translation models"), "{message}");
    }
    for (name, expected) in [("de-en", "reads as a language pair"), (".hidden", "cannot name"), ("a/b", "cannot name")]
    {
        let request = Install { name: Some(name.into()), ..scratch.request(&dir) };
        let message = format!("{:#}", install(&request, AT).unwrap_err());
        assert!(message.contains(expected), "{name}: {message}");
    }
    assert!(!scratch.models.exists());
}

#[test]
fn a_translation_model_is_not_taken_for_a_whisper_model() {
    let scratch = Scratch::new();
    let dir = scratch.path("opus");
    testing::write_model_dir(&dir);
    assert!(!speech::is_whisper(&dir));
    assert!(speech::is_whisper(&whisper_dir(&scratch, 2, |_| {})));
}

/// The whisper model directory `GLOSSA_TEST_WHISPER` names (such as the tiny.en model the
/// Makefile's test target installs); skipped when it is not set.
#[test]
fn a_real_whisper_model_installs() {
    let Some(dir) = std::env::var_os("GLOSSA_TEST_WHISPER").map(PathBuf::from) else {
        eprintln!("GLOSSA_TEST_WHISPER is not set: skipping the real whisper model");
        return;
    };
    let scratch = Scratch::new();
    let installed = scratch.install(&dir).unwrap();
    eprintln!("{:?}\n{:?}\n{} bytes", installed.installation, installed.model, installed.size);
    let Kind::Speech { languages, multilingual } = &installed.installation.kind else { panic!("not speech") };
    assert!(languages.contains(&"en".to_owned()));
    assert_eq!(*multilingual, languages.len() > 1);
    assert!(installed.model.variables > 50, "{:?}", installed.model);
}
