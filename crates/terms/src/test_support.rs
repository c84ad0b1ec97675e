//! What the tests share: reproducible random glossaries and texts that stress case, punctuation,
//! scripts and placeholders.

/// What random texts and terms are made of: letters in both cases (some whose lower case is
/// shorter in bytes), spaces, punctuation, quotes, unspaced scripts, a combining mark, and
/// placeholders, well-formed or not.
pub const PIECES: &[&str] = &[
    "a", "A", "b", "B", "ab", "AB", "Ab", " ", " ", "  ", ".", ". ", "-", "+", "'", "«", "»", "(", ")", "東", "京",
    "は", "ก", "é", "É", "İ", "i", "\u{212A}", "k", "ß", "ẞ", "<g1>", "</g1>", "<x2/>", "<g", "1", "?", "\u{301}",
];

/// 2,000 glossaries with their texts, the same for the same seed: each glossary has 12 random
/// terms shared by ten texts, and three terms cut from its own text, in its case or another,
/// so that many match. Targets are `t0`, `t1`, ….
pub fn random_cases(seed: u64) -> Vec<(Vec<(String, String)>, String)> {
    let mut random = XorShift(seed);
    let mut cases = Vec::new();
    for _ in 0..200 {
        let mut sources: Vec<String> = (0..12).map(|_| random.pieces(PIECES, 4).concat()).collect();
        for _ in 0..10 {
            let pieces = random.pieces(PIECES, 30);
            for _ in 0..3 {
                let from = random.below(pieces.len());
                let to = from + 1 + random.below(pieces.len() - from);
                let term = pieces[from..to].concat();
                sources.push(match random.below(3) {
                    0 => term.to_uppercase(),
                    1 => term.to_lowercase(),
                    _ => term,
                });
            }
            let entries =
                sources.iter().enumerate().map(|(index, source)| (source.clone(), format!("t{index}"))).collect();
            cases.push((entries, pieces.concat()));
            sources.truncate(12);
        }
    }
    cases
}

/// Xorshift64: reproducible pseudo-random numbers for the randomised tests.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }

    /// One to `most` pieces drawn from `pieces`.
    pub fn pieces(&mut self, pieces: &[&'static str], most: usize) -> Vec<&'static str> {
        let count = 1 + self.below(most);
        (0..count).map(|_| pieces[self.below(pieces.len())]).collect()
    }
}
