//! Text helpers the engines share beyond [`terms`], which finds placeholders and glossary terms.

/// Splits a text into its leading whitespace, its body and its trailing whitespace.
pub(crate) fn split_outer_whitespace(text: &str) -> (&str, &str, &str) {
    let body_start = text.len() - text.trim_start().len();
    let body_end = text.trim_end().len().max(body_start);
    (&text[..body_start], &text[body_start..body_end], &text[body_end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outer_whitespace_is_split_off() {
        assert_eq!(split_outer_whitespace("  a b \n"), ("  ", "a b", " \n"));
        assert_eq!(split_outer_whitespace("   "), ("   ", "", ""));
        assert_eq!(split_outer_whitespace("x"), ("", "x", ""));
    }
}
