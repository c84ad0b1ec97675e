//! The tag handling options of a translate request, and what they make of each element name.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::html;

/// Which markup the texts carry (the `tag_handling` request parameter).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TagHandling {
    #[default]
    Xml,
    Html,
}

impl TagHandling {
    /// The wire spelling: `xml` or `html`.
    pub fn as_str(self) -> &'static str {
        match self {
            TagHandling::Xml => "xml",
            TagHandling::Html => "html",
        }
    }
}

impl fmt::Display for TagHandling {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// A `tag_handling` value that is neither `xml` nor `html`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Value for 'tag_handling' not supported.")]
pub struct UnknownTagHandling;

impl FromStr for TagHandling {
    type Err = UnknownTagHandling;

    fn from_str(value: &str) -> Result<TagHandling, UnknownTagHandling> {
        match value {
            "xml" => Ok(TagHandling::Xml),
            "html" => Ok(TagHandling::Html),
            _ => Err(UnknownTagHandling),
        }
    }
}

/// Which tag handling algorithm is asked for (the `tag_handling_version` request parameter).
///
/// For XML, `V2` is strict (any well-formedness error is an error) and `V1` tolerates some
/// errors (see `Markup::parse`). For HTML both read tag soup the same way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TagHandlingVersion {
    #[default]
    V1,
    V2,
}

impl TagHandlingVersion {
    /// The wire spelling: `v1` or `v2`, as echoed in the response.
    pub fn as_str(self) -> &'static str {
        match self {
            TagHandlingVersion::V1 => "v1",
            TagHandlingVersion::V2 => "v2",
        }
    }
}

impl fmt::Display for TagHandlingVersion {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// A `tag_handling_version` value that is neither `v1` nor `v2`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Value for 'tag_handling_version' not supported.")]
pub struct UnknownTagHandlingVersion;

impl FromStr for TagHandlingVersion {
    type Err = UnknownTagHandlingVersion;

    fn from_str(value: &str) -> Result<TagHandlingVersion, UnknownTagHandlingVersion> {
        match value {
            "v1" => Ok(TagHandlingVersion::V1),
            "v2" => Ok(TagHandlingVersion::V2),
            _ => Err(UnknownTagHandlingVersion),
        }
    }
}

/// Everything a translate request says about its tags.
///
/// Which elements split (end the unit before them and start a new one after them):
///
/// * XML with `outline_detection` (the default): every element, except those in
///   `non_splitting_tags`.
/// * XML without `outline_detection`: only those in `splitting_tags`; every other element is
///   inline.
/// * HTML: block-level and document-structure elements (`p`, `div`, `h1`–`h6`, `li`, `ul`, `ol`,
///   `table`, `tr`, `td`, `th`, `br`, `hr`, `blockquote`, `section`, `article`, `header`,
///   `footer`, `nav`, `pre`, `title`, `option`, `textarea`, ...); every other element, unknown
///   and custom ones included, is inline (`b`, `i`, `em`, `strong`, `span`, `a`, `code`, `sub`,
///   `sup`, `u`, `small`, `mark`, `img`, ...). `splitting_tags` and `non_splitting_tags`
///   override this for the elements they name. `outline_detection` is ignored.
///
/// A name in both lists splits. XML names match exactly as written (prefix included); HTML names
/// match without regard to case. Names are trimmed and empty ones dropped, since form bodies send
/// the lists comma-separated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagOptions {
    pub handling: TagHandling,
    pub version: TagHandlingVersion,
    /// XML only: `true` (the default) makes every element split except `non_splitting_tags`;
    /// `false` makes only `splitting_tags` split. HTML ignores it.
    pub outline_detection: bool,
    /// Elements that always end a unit.
    pub splitting_tags: Vec<String>,
    /// Elements that never end a unit (unless also named in `splitting_tags`).
    pub non_splitting_tags: Vec<String>,
    /// Elements whose content is never translated and comes back byte for byte.
    pub ignore_tags: Vec<String>,
}

impl Default for TagOptions {
    fn default() -> TagOptions {
        TagOptions {
            handling: TagHandling::Xml,
            version: TagHandlingVersion::V1,
            outline_detection: true,
            splitting_tags: Vec::new(),
            non_splitting_tags: Vec::new(),
            ignore_tags: Vec::new(),
        }
    }
}

/// The options turned into answers about element names (the rules are on [`TagOptions`]).
pub(crate) struct Classifier {
    handling: TagHandling,
    outline_detection: bool,
    splitting: HashSet<String>,
    non_splitting: HashSet<String>,
    ignored: HashSet<String>,
}

impl Classifier {
    pub(crate) fn new(options: &TagOptions) -> Classifier {
        let names = |list: &[String]| -> HashSet<String> {
            list.iter()
                .map(|name| name.trim())
                .filter(|name| !name.is_empty())
                .map(|name| match options.handling {
                    TagHandling::Xml => name.to_owned(),
                    TagHandling::Html => name.to_ascii_lowercase(),
                })
                .collect()
        };
        Classifier {
            handling: options.handling,
            outline_detection: options.outline_detection,
            splitting: names(&options.splitting_tags),
            non_splitting: names(&options.non_splitting_tags),
            ignored: names(&options.ignore_tags),
        }
    }

    /// Whether an element of this name ends the unit before it and starts a new one after it.
    /// A name in both lists splits: a split never breaks the output, an inline tag might be
    /// what the client wanted kept apart.
    pub(crate) fn splits(&self, name: &str) -> bool {
        if self.splitting.contains(name) {
            return true;
        }
        if self.non_splitting.contains(name) {
            return false;
        }
        match self.handling {
            TagHandling::Xml => self.outline_detection,
            TagHandling::Html => html::is_block(name),
        }
    }

    /// Whether the content of an element of this name is never translated.
    pub(crate) fn ignores(&self, name: &str) -> bool {
        self.ignored.contains(name) || (self.handling == TagHandling::Html && html::is_never_translated(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_spellings_parse_and_print() {
        for handling in [TagHandling::Xml, TagHandling::Html] {
            assert_eq!(handling.as_str().parse::<TagHandling>(), Ok(handling));
        }
        for version in [TagHandlingVersion::V1, TagHandlingVersion::V2] {
            assert_eq!(version.as_str().parse::<TagHandlingVersion>(), Ok(version));
        }
        assert!("XML".parse::<TagHandling>().is_err());
        assert!("v3".parse::<TagHandlingVersion>().is_err());
    }

    #[test]
    fn serde_reads_the_wire_spellings() {
        use serde::de::IntoDeserializer;
        use serde::de::value::{Error, StrDeserializer};
        let handling = |value: &str| TagHandling::deserialize::<StrDeserializer<'_, Error>>(value.into_deserializer());
        let version =
            |value: &str| TagHandlingVersion::deserialize::<StrDeserializer<'_, Error>>(value.into_deserializer());
        assert_eq!(handling("html"), Ok(TagHandling::Html));
        assert_eq!(handling("xml"), Ok(TagHandling::Xml));
        assert_eq!(version("v2"), Ok(TagHandlingVersion::V2));
        assert!(handling("HTML").is_err());
    }

    #[test]
    fn xml_with_outline_detection_splits_everything_but_non_splitting_tags() {
        let options = TagOptions { non_splitting_tags: vec!["b".into(), " i ".into()], ..TagOptions::default() };
        let classifier = Classifier::new(&options);
        assert!(classifier.splits("par"));
        assert!(!classifier.splits("b"));
        assert!(!classifier.splits("i"));
        assert!(classifier.splits("B"), "XML names are case-sensitive");
    }

    #[test]
    fn xml_without_outline_detection_splits_only_splitting_tags() {
        let options =
            TagOptions { outline_detection: false, splitting_tags: vec!["par".into()], ..TagOptions::default() };
        let classifier = Classifier::new(&options);
        assert!(classifier.splits("par"));
        assert!(!classifier.splits("p"));
    }

    #[test]
    fn a_tag_in_both_lists_splits() {
        let options = TagOptions {
            splitting_tags: vec!["x".into()],
            non_splitting_tags: vec!["x".into()],
            ..TagOptions::default()
        };
        assert!(Classifier::new(&options).splits("x"));
    }

    #[test]
    fn html_lists_override_the_built_in_classes_without_regard_to_case() {
        let options = TagOptions {
            handling: TagHandling::Html,
            splitting_tags: vec!["SPAN".into()],
            non_splitting_tags: vec!["div".into()],
            ignore_tags: vec!["Code".into()],
            ..TagOptions::default()
        };
        let classifier = Classifier::new(&options);
        assert!(classifier.splits("span"));
        assert!(!classifier.splits("div"));
        assert!(classifier.splits("p"));
        assert!(!classifier.splits("em"));
        assert!(classifier.ignores("code"));
        assert!(classifier.ignores("script"));
        assert!(!classifier.ignores("p"));
    }
}
