//! Text between tags, decoded, with a map back to the source bytes it came from.
//!
//! The engine reads decoded text (`&amp;` is `&`), but untouched text must come back byte for
//! byte and a unit may start or end in the middle of a run. So a run is a list of atoms: a
//! *literal* atom is text whose bytes are the source's (any cut inside it is fine); a *coded*
//! atom is a character reference, a CDATA section or a normalised line break, whose text differs
//! from its source and which is never cut.

use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Atom {
    /// Where the atom's text is in the run's text.
    pub text: Range<usize>,
    /// Where the atom came from in the source.
    pub source: Range<usize>,
    /// Whether the text is the source bytes themselves.
    pub literal: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TextRun {
    pub text: String,
    pub atoms: Vec<Atom>,
}

impl TextRun {
    /// Text found as it is at `source_start` in the source.
    pub(crate) fn push_literal(&mut self, text: &str, source_start: usize) {
        if text.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.atoms.push(Atom {
            text: start..self.text.len(),
            source: source_start..source_start + text.len(),
            literal: true,
        });
    }

    /// Text written differently in the source (`&amp;` for `&`).
    pub(crate) fn push_coded(&mut self, text: &str, source: Range<usize>) {
        if text.is_empty() {
            // Nothing to read: the source bytes join the previous atom so they are not lost.
            match self.atoms.last_mut() {
                Some(last) => {
                    last.source.end = source.end;
                    last.literal = false;
                }
                None => self.atoms.push(Atom { text: 0..0, source, literal: false }),
            }
            return;
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.atoms.push(Atom { text: start..self.text.len(), source, literal: false });
    }

    /// Adds a run that follows this one in the source.
    pub(crate) fn append(&mut self, other: TextRun) {
        let shift = self.text.len();
        self.text.push_str(&other.text);
        self.atoms.extend(
            other.atoms.into_iter().map(|atom| Atom { text: atom.text.start + shift..atom.text.end + shift, ..atom }),
        );
    }

    /// Moves the run `by` bytes further into the source.
    pub(crate) fn shift_source(&mut self, by: usize) {
        for atom in &mut self.atoms {
            atom.source = atom.source.start + by..atom.source.end + by;
        }
    }

    /// The source bytes the run covers.
    pub(crate) fn source(&self) -> Range<usize> {
        match (self.atoms.first(), self.atoms.last()) {
            (Some(first), Some(last)) => first.source.start..last.source.end,
            _ => 0..0,
        }
    }

    pub(crate) fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// The index of the first atom that ends after text offset `at` (atoms are in text order,
    /// so this is a binary search: long runs with many references stay fast).
    fn atom_index_after(&self, at: usize) -> usize {
        self.atoms.partition_point(|atom| atom.text.end <= at)
    }

    /// The coded atom strictly containing text offset `at`, if any.
    fn coded_atom_around(&self, at: usize) -> Option<&Atom> {
        self.atoms
            .get(self.atom_index_after(at))
            .filter(|atom| !atom.literal && atom.text.start < at && at < atom.text.end)
    }

    /// Whether the run can be cut at text offset `at`.
    pub(crate) fn can_cut(&self, at: usize) -> bool {
        self.text.is_char_boundary(at) && self.coded_atom_around(at).is_none()
    }

    /// `at`, or the start of the coded atom around it.
    pub(crate) fn snap_down(&self, at: usize) -> usize {
        self.coded_atom_around(at).map_or(at, |atom| atom.text.start)
    }

    /// `at`, or the end of the coded atom around it.
    pub(crate) fn snap_up(&self, at: usize) -> usize {
        self.coded_atom_around(at).map_or(at, |atom| atom.text.end)
    }

    /// The source offset of text offset `at`, which must be a place the run can be cut.
    pub(crate) fn source_at(&self, at: usize) -> usize {
        match self.atoms.get(self.atom_index_after(at)) {
            Some(atom) if at <= atom.text.start => atom.source.start,
            Some(atom) => {
                debug_assert!(atom.literal, "cut inside a coded atom");
                atom.source.start + (at - atom.text.start)
            }
            None => self.source().end,
        }
    }

    /// The part of the run between two text offsets the run can be cut at.
    pub(crate) fn slice(&self, range: Range<usize>) -> TextRun {
        let mut part = TextRun::default();
        for atom in &self.atoms[self.atom_index_after(range.start)..] {
            if atom.text.start >= range.end {
                break;
            }
            let start = atom.text.start.max(range.start);
            let end = atom.text.end.min(range.end);
            if start >= end {
                continue;
            }
            let text = &self.text[start..end];
            if atom.literal {
                part.push_literal(text, atom.source.start + (start - atom.text.start));
            } else {
                part.push_coded(text, atom.source.clone());
            }
        }
        part
    }

    /// The coded atoms that are a character or entity reference for one character, with that
    /// character: the spellings worth reusing when the same character is written back.
    pub(crate) fn references<'a>(&'a self, source: &'a str) -> impl Iterator<Item = (char, &'a str)> + 'a {
        self.atoms.iter().filter(|atom| !atom.literal).filter_map(move |atom| {
            let spelled = &source[atom.source.clone()];
            let mut characters = self.text[atom.text.clone()].chars();
            match (characters.next(), characters.next()) {
                (Some(character), None) if spelled.starts_with('&') => Some((character, spelled)),
                _ => None,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `a &amp; b` at offset 10: literal `a `, coded `&`, literal ` b`.
    fn sample() -> TextRun {
        let mut run = TextRun::default();
        run.push_literal("a ", 10);
        run.push_coded("&", 12..17);
        run.push_literal(" b", 17);
        run
    }

    #[test]
    fn offsets_inside_literal_text_map_one_to_one() {
        let run = sample();
        assert_eq!(run.text, "a & b");
        assert_eq!(run.source_at(1), 11);
        assert_eq!(run.source_at(3), 17);
        assert_eq!(run.source_at(5), 19);
        assert_eq!(run.source(), 10..19);
    }

    #[test]
    fn coded_atoms_are_never_cut() {
        let mut run = TextRun::default();
        run.push_coded("ab", 0..9);
        assert!(!run.can_cut(1));
        assert_eq!(run.snap_down(1), 0);
        assert_eq!(run.snap_up(1), 2);
    }

    #[test]
    fn a_slice_keeps_its_source_offsets() {
        let part = sample().slice(2..5);
        assert_eq!(part.text, "& b");
        assert_eq!(part.source(), 12..19);
    }

    #[test]
    fn references_name_the_characters_and_their_spelling() {
        let source = "0123456789a &amp; b";
        assert_eq!(sample().references(source).collect::<Vec<_>>(), [('&', "&amp;")]);
    }
}
