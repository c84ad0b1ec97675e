//! Configured rules as instructions a language model can follow.

/// A configured rule as one instruction sentence, in the rule's own words: the names with
/// underscores read as spaces, e.g. `("punctuation", "apostrophe", "use_curly_apostrophes")` →
/// "Punctuation, apostrophe: use curly apostrophes."
pub fn instruction(category: &str, rule: &str, option: &str) -> String {
    let category = words(category);
    let mut sentence = String::with_capacity(category.len() + rule.len() + option.len() + 4);
    let mut letters = category.chars();
    if let Some(first) = letters.next() {
        sentence.extend(first.to_uppercase());
        sentence.push_str(letters.as_str());
    }
    sentence.push_str(", ");
    sentence.push_str(&words(rule));
    sentence.push_str(": ");
    sentence.push_str(&words(option));
    sentence.push('.');
    sentence
}

/// A name's words: underscores become spaces, and runs of them one space.
fn words(name: &str) -> String {
    name.split(['_', ' ']).filter(|word| !word.is_empty()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instruction_reads_the_names_as_words() {
        assert_eq!(
            instruction("punctuation", "apostrophe", "use_curly_apostrophes"),
            "Punctuation, apostrophe: use curly apostrophes."
        );
        assert_eq!(
            instruction("style_and_tone", "formality", "use_formal_tone"),
            "Style and tone, formality: use formal tone."
        );
    }

    #[test]
    fn an_instruction_keeps_the_options_own_words() {
        assert_eq!(
            instruction(
                "dates_and_times",
                "date_format",
                "use_yyyy_korean word_년_space_mm_korean word_월_space_dd_korean word_일_without_leading_zero_for_single_digit_days_and_months"
            ),
            "Dates and times, date format: use yyyy korean word 년 space mm korean word 월 space dd korean word 일 without leading zero for single digit days and months."
        );
        assert_eq!(
            instruction(
                "spelling_and_grammar",
                "accents_in_verbs_conjugated_like_french_word_céder",
                "use_grave_accent"
            ),
            "Spelling and grammar, accents in verbs conjugated like french word céder: use grave accent."
        );
    }
}
