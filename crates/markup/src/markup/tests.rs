//! Tag handling from the outside: units for a text, and what renders back.

use super::*;
use crate::options::TagHandlingVersion;
use crate::placeholder::segments;

fn xml() -> TagOptions {
    TagOptions::default()
}

fn xml_v2() -> TagOptions {
    TagOptions { version: TagHandlingVersion::V2, ..TagOptions::default() }
}

fn xml_inline() -> TagOptions {
    TagOptions { outline_detection: false, ..TagOptions::default() }
}

fn html() -> TagOptions {
    TagOptions { handling: TagHandling::Html, ..TagOptions::default() }
}

fn parse(text: &str, options: &TagOptions) -> Markup {
    let split = SplitSentences::default_for(Some(options.handling));
    Markup::parse(text, options, split).unwrap_or_else(|error| panic!("{text:?}: {error}"))
}

fn texts(markup: &Markup) -> Vec<&str> {
    markup.units().iter().map(Unit::text).collect()
}

/// An engine that changes the text between placeholders and keeps the placeholders.
fn translate_with(unit: &Unit, change: impl Fn(&str) -> String) -> String {
    segments(unit.text())
        .into_iter()
        .map(|segment| match segment {
            Segment::Text(text) => change(text),
            Segment::Open(id) => format!("<g{id}>"),
            Segment::Close(id) => format!("</g{id}>"),
            Segment::Empty(id) => format!("<x{id}/>"),
        })
        .collect()
}

fn render_with(markup: &Markup, change: impl Fn(&str) -> String) -> String {
    let results: Vec<UnitResult> =
        markup.units().iter().map(|unit| UnitResult::Translated(translate_with(unit, &change))).collect();
    markup.render(&results).unwrap()
}

/// What a caller does: the whole unit when the engine kept its placeholders, else the pieces.
/// The engine here changes the text between placeholders (and may add placeholders of its own).
fn render_or_fall_back(markup: &Markup, engine: impl Fn(&str) -> String) -> String {
    let results: Vec<UnitResult> = markup
        .units()
        .iter()
        .map(|unit| {
            let translation = translate_with(unit, &engine);
            if unit.accepts(&translation) {
                UnitResult::Translated(translation)
            } else {
                UnitResult::Pieces(unit.pieces().iter().map(|piece| engine(piece)).collect())
            }
        })
        .collect();
    markup.render(&results).unwrap()
}

fn identity(markup: &Markup) -> String {
    render_with(markup, str::to_owned)
}

fn identity_by_pieces(markup: &Markup) -> String {
    let results: Vec<UnitResult> =
        markup.units().iter().map(|unit| UnitResult::Pieces(unit.pieces().to_vec())).collect();
    markup.render(&results).unwrap()
}

fn assert_well_formed_xml(text: &str) {
    if let Err(error) = Markup::parse(text, &xml_v2(), SplitSentences::Off) {
        panic!("not well-formed: {error}\n{text}");
    }
}

const XML_SAMPLE: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
<!DOCTYPE doc>\n\
<!-- a comment -->\n\
<doc xmlns:x=\"urn:x\" lang='en'>\n  \
<title  id = \"t1\" >Tom &amp; Jerry&#x2019;s &quot;show&quot;</title>\n  \
<par>First sentence. Second <b class='k'>bold</b> one &#233;t&#xE9;!\r\n  Third &lt;one&gt;.</par>\n  \
<par><![CDATA[Raw <text> & more.]]> After CDATA.</par>\n  \
<x:note><?pi data?>Note <br/> text <empty></empty>.</x:note>\n\
</doc>\n";

const HTML_SAMPLE: &str = "<!DOCTYPE html>\n\
<html lang=en>\n\
<head><meta charset=utf-8><title>Caf&eacute; &amp; more</title>\n\
<style>p > b { color: red }</style>\n\
<script>if (a < b && c) { document.write('<p>x</p>') }</script></head>\n\
<BODY class=\"main\">\n\
<!-- navigation -->\n\
<p>Hello <B>world</B>!&nbsp;How are you?<br>Fine &copy 2024.</p>\r\n\
<p>Line one\nline two <img src=a.png alt='An image'/> <input type=checkbox checked> end</p>\n\
<div translate=\"no\">Do not translate this.</div>\n\
<ul><li>One<li>Two &lt;three&gt;</ul>\n\
<span class=\"x notranslate\">Brand</span> <a href=/x?a=1&b=2>link text</a>\n\
</BODY>\n\
</html>\n";

#[test]
fn an_identity_translation_renders_xml_byte_for_byte() {
    for options in [xml(), xml_v2(), xml_inline()] {
        for split in [SplitSentences::Off, SplitSentences::On, SplitSentences::NoNewlines] {
            let markup = Markup::parse(XML_SAMPLE, &options, split).unwrap();
            assert!(!markup.units().is_empty());
            assert_eq!(identity(&markup), XML_SAMPLE, "{options:?} {split}");
            assert_eq!(identity_by_pieces(&markup), XML_SAMPLE, "{options:?} {split}");
        }
    }
}

#[test]
fn an_identity_translation_renders_html_byte_for_byte() {
    for split in [SplitSentences::Off, SplitSentences::On, SplitSentences::NoNewlines] {
        let markup = Markup::parse(HTML_SAMPLE, &html(), split).unwrap();
        assert!(!markup.units().is_empty());
        assert_eq!(identity(&markup), HTML_SAMPLE, "{split}");
        assert_eq!(identity_by_pieces(&markup), HTML_SAMPLE, "{split}");
    }
}

#[test]
fn xml_with_outline_detection_splits_at_every_element() {
    assert_eq!(texts(&parse("Hello <b>world</b>!", &xml())), ["Hello", "world", "!"]);
}

#[test]
fn xml_non_splitting_tags_stay_inside_the_unit() {
    let options = TagOptions { non_splitting_tags: vec!["b".into()], ..xml() };
    assert_eq!(texts(&parse("Hello <b>world</b>!", &options)), ["Hello <g1>world</g1>!"]);
}

#[test]
fn xml_without_outline_detection_only_splitting_tags_split() {
    let text = "<par>The firm said it had been </par><par> conducting an internal investigation.</par>";
    assert_eq!(
        texts(&parse(text, &xml_inline())),
        ["<g1>The firm said it had been </g1><g2> conducting an internal investigation.</g2>"]
    );
    let options = TagOptions { splitting_tags: vec!["par".into()], ..xml_inline() };
    assert_eq!(texts(&parse(text, &options)), ["The firm said it had been", "conducting an internal investigation."]);
}

#[test]
fn the_non_splitting_example_translates_as_one_sentence_with_tags_moved() {
    let text = "<par>The firm said it had been </par><par> conducting an internal investigation.</par>";
    let options = TagOptions { non_splitting_tags: vec!["par".into()], ..xml() };
    let markup = parse(text, &options);
    let translation = "<g1>Die Firma sagte, dass sie</g1><g2> eine interne Untersuchung durchgeführt habe.</g2>";
    assert!(markup.units()[0].accepts(translation));
    let rendered = markup.render(&[UnitResult::Translated(translation.into())]).unwrap();
    assert_eq!(
        rendered,
        "<par>Die Firma sagte, dass sie</par><par> eine interne Untersuchung durchgeführt habe.</par>"
    );
}

#[test]
fn html_blocks_split_and_inline_elements_stay_inside() {
    let text = "<div><h1>Title</h1><p>Hello <b>world</b> and <a href=\"/x\">link</a>.</p><ul><li>One</li><li>Two</li></ul></div>";
    assert_eq!(texts(&parse(text, &html())), ["Title", "Hello <g1>world</g1> and <g2>link</g2>.", "One", "Two"]);
}

#[test]
fn html_lists_override_the_built_in_classes() {
    let options = TagOptions { splitting_tags: vec!["b".into()], non_splitting_tags: vec!["p".into()], ..html() };
    // The second `p` holds a splitting `b`, so it splits too.
    assert_eq!(
        texts(&parse("<p>One</p><p>two <b>three</b> four</p>", &options)),
        ["<g1>One</g1>", "two", "three", "four"]
    );
}

#[test]
fn html_br_splits() {
    assert_eq!(texts(&parse("<p>Line one<br>Line two</p>", &html())), ["Line one", "Line two"]);
}

#[test]
fn sentences_are_cut_inside_a_paragraph_but_not_inside_an_inline_element() {
    let text = "<p>One. <b>Two. Three.</b> Four.</p>";
    assert_eq!(texts(&parse(text, &html())), ["One.", "<g1>Two. Three.</g1>", "Four."]);
    let off = Markup::parse(text, &html(), SplitSentences::Off).unwrap();
    assert_eq!(texts(&off), ["One. <g1>Two. Three.</g1> Four."]);
}

#[test]
fn html_defaults_keep_newlines_inside_sentences_and_splitting_on_newlines_cuts_them() {
    let text = "<p>A sentence\nthat goes on.</p>";
    assert_eq!(texts(&parse(text, &html())), ["A sentence\nthat goes on."]);
    let on = Markup::parse(text, &html(), SplitSentences::On).unwrap();
    assert_eq!(texts(&on), ["A sentence", "that goes on."]);
}

#[test]
fn an_inline_element_holding_a_block_splits_like_one() {
    let text = "<span>Hello <div>World</div> again</span>";
    assert_eq!(texts(&parse(text, &html())), ["Hello", "World", "again"]);
}

#[test]
fn elements_without_text_and_comments_are_empty_placeholders() {
    let text = "<p>Click <a href=x><img src=y></a> here <!-- c --> now<b></b></p>";
    let markup = parse(text, &html());
    assert_eq!(texts(&markup), ["Click <x1/> here <x2/> now"]);
    let placeholders = markup.units()[0].placeholders();
    assert_eq!(placeholders[0].markup(), "<a href=x><img src=y></a>");
    assert_eq!(placeholders[1].name(), "#comment");
    assert_eq!(placeholders[1].kind(), PlaceholderKind::Empty);
}

#[test]
fn placeholders_map_back_to_their_tags_verbatim() {
    let options = TagOptions { non_splitting_tags: vec!["b".into(), "br".into()], ..xml() };
    let markup = parse("Hello <b  class='x' >bold</b ><br/> there", &options);
    let unit = &markup.units()[0];
    assert_eq!(unit.text(), "Hello <g1>bold</g1><x2/> there");
    let [bold, line_break] = unit.placeholders() else { panic!("two placeholders expected") };
    assert_eq!((bold.id(), bold.kind(), bold.name()), (1, PlaceholderKind::Paired, "b"));
    assert_eq!((bold.markup(), bold.end_markup()), ("<b  class='x' >", Some("</b >")));
    assert_eq!((line_break.token(), line_break.markup(), line_break.end_markup()), ("<x2/>".into(), "<br/>", None));
    assert_eq!(
        unit.segments(),
        [
            Segment::Text("Hello "),
            Segment::Open(1),
            Segment::Text("bold"),
            Segment::Close(1),
            Segment::Empty(2),
            Segment::Text(" there")
        ]
    );
    assert_eq!(&markup.source()[unit.source_span()], "Hello <b  class='x' >bold</b ><br/> there");
}

#[test]
fn ignored_xml_elements_come_back_byte_for_byte_while_the_text_around_changes() {
    let options = TagOptions { ignore_tags: vec!["code".into()], ..xml_inline() };
    let text = "<p>Run <code a='1'>rm  -rf &amp; <i>x</i></code> now.</p>";
    let markup = parse(text, &options);
    assert_eq!(texts(&markup), ["<g1>Run <x2/> now.</g1>"]);
    let rendered = render_with(&markup, |text| text.replace("Run", "Starte").replace("now", "jetzt"));
    assert_eq!(rendered, "<p>Starte <code a='1'>rm  -rf &amp; <i>x</i></code> jetzt.</p>");
}

#[test]
fn an_ignored_splitting_element_is_kept_between_units() {
    let options = TagOptions { ignore_tags: vec!["skip".into()], ..xml() };
    let markup = parse("<doc><t>Hello</t><skip><t>Keep me</t></skip><t>Bye</t></doc>", &options);
    assert_eq!(texts(&markup), ["Hello", "Bye"]);
    assert_eq!(render_with(&markup, str::to_uppercase), "<doc><t>HELLO</t><skip><t>Keep me</t></skip><t>BYE</t></doc>");
}

#[test]
fn html_script_style_and_translate_no_are_never_translated() {
    let text = "<p>Hi <span translate=\"no\">Acme Widget</span> and <em class=\"notranslate\">Brand</em>.</p>\
<script>var s = \"Hello\";</script><style>p:before { content: \"Hello\" }</style>\
<div translate=no><p>Not this.</p></div><noscript><p>Nor this</p></noscript><p>Hello</p>";
    let markup = parse(text, &html());
    assert_eq!(texts(&markup), ["Hi <x1/> and <x2/>.", "Hello"]);
    let rendered = render_with(&markup, |text| text.replace("Hello", "Hallo").replace("Hi", "Servus"));
    assert_eq!(
        rendered,
        "<p>Servus <span translate=\"no\">Acme Widget</span> and <em class=\"notranslate\">Brand</em>.</p>\
<script>var s = \"Hello\";</script><style>p:before { content: \"Hello\" }</style>\
<div translate=no><p>Not this.</p></div><noscript><p>Nor this</p></noscript><p>Hallo</p>"
    );
}

#[test]
fn an_unclosed_script_is_ignored_to_the_end() {
    let markup = parse("<p>Hello</p><script>var x = '<p>Hello</p>'", &html());
    assert_eq!(texts(&markup), ["Hello"]);
}

#[test]
fn an_unclosed_ignored_element_ends_with_the_element_around_it() {
    let text = "<p>Keep <span translate=no>Brand X</p><p>Translate me</p>";
    let markup = parse(text, &html());
    assert_eq!(texts(&markup), ["Keep", "Translate me"]);
    assert_eq!(render_with(&markup, str::to_uppercase), "<p>KEEP <span translate=no>Brand X</p><p>TRANSLATE ME</p>");
    let inside = parse("<p><b>Keep <span translate=no>Brand X</b> here</p>", &html());
    assert_eq!(texts(&inside), ["<g1>Keep <x2/></g1> here"]);
    assert_eq!(inside.units()[0].placeholders()[1].markup(), "<span translate=no>Brand X");
}

#[test]
fn a_translation_that_drops_or_duplicates_a_placeholder_falls_back_to_pieces() {
    let options = TagOptions { non_splitting_tags: vec!["b".into()], ..xml() };
    let markup = parse("<p>Hello <b>big</b> world</p>", &options);
    let unit = &markup.units()[0];
    assert_eq!(unit.text(), "Hello <g1>big</g1> world");
    assert!(!unit.accepts("Hallo große Welt"));
    assert!(!unit.accepts("Hallo <g1>große</g1> <g1>Welt</g1>"));
    assert!(!unit.accepts("Hallo <g1>große Welt"));
    assert!(unit.accepts("Hallo <g1>große</g1> Welt"));
    assert_eq!(unit.pieces(), ["Hello", "big", "world"]);

    let pieces = vec!["Hallo".to_owned(), "große".to_owned(), "Welt".to_owned()];
    let rendered = markup.render(&[UnitResult::Pieces(pieces)]).unwrap();
    assert_eq!(rendered, "<p>Hallo <b>große</b> Welt</p>");
    assert_eq!(
        markup.render(&[UnitResult::Translated("Hallo große Welt".into())]),
        Err(RenderError::PlaceholdersNotKept { unit: 0 })
    );
}

#[test]
fn placeholders_may_change_order() {
    let options = TagOptions { non_splitting_tags: vec!["b".into(), "i".into()], ..xml() };
    let markup = parse("<p><b>red</b> <i>car</i></p>", &options);
    let translation = "<g2>voiture</g2> <g1>rouge</g1>";
    assert!(markup.units()[0].accepts(translation));
    let rendered = markup.render(&[UnitResult::Translated(translation.into())]).unwrap();
    assert_eq!(rendered, "<p><i>voiture</i> <b>rouge</b></p>");
}

#[test]
fn ampersands_and_angle_brackets_in_translations_are_escaped() {
    let options = TagOptions { non_splitting_tags: vec!["b".into()], ..xml() };
    let markup = parse("<p>Salt <b>and</b> pepper</p>", &options);
    let rendered = markup.render(&[UnitResult::Translated("Sel <g1>&</g1> poivre <3 > 2".into())]).unwrap();
    assert_eq!(rendered, "<p>Sel <b>&amp;</b> poivre &lt;3 &gt; 2</p>");
    assert_well_formed_xml(&rendered);

    let markup = parse("<p>Salt and pepper</p>", &html());
    let rendered = markup.render(&[UnitResult::Translated("Sel & <poivre>".into())]).unwrap();
    assert_eq!(rendered, "<p>Sel &amp; &lt;poivre&gt;</p>");

    let rendered = markup.render(&[UnitResult::Pieces(vec!["Sel & <poivre>".into()])]).unwrap();
    assert_eq!(rendered, "<p>Sel &amp; &lt;poivre&gt;</p>");
}

#[test]
fn entities_reach_the_engine_decoded_and_come_back_escaped() {
    let markup = parse("<p>Tom &amp; Jerry &lt;3 caf&#233;</p>", &xml());
    assert_eq!(texts(&markup), ["Tom & Jerry <3 café"]);
    let rendered = render_with(&markup, |text| format!("{text} & café"));
    assert_eq!(rendered, "<p>Tom &amp; Jerry &lt;3 caf&#233; &amp; caf&#233;</p>");
    assert_well_formed_xml(&rendered);
}

#[test]
fn html_non_breaking_spaces_keep_their_spelling() {
    let markup = parse("<p>Price:&nbsp;10&nbsp;EUR</p>", &html());
    assert_eq!(texts(&markup), ["Price:\u{a0}10\u{a0}EUR"]);
    assert_eq!(render_with(&markup, |text| text.replace("Price", "Preis")), "<p>Preis:&nbsp;10&nbsp;EUR</p>");
}

#[test]
fn cdata_is_text_and_a_translated_one_comes_back_escaped() {
    let options = xml_inline();
    let markup = parse("<p><![CDATA[Fish & chips.]]> Yes.</p>", &options);
    assert_eq!(texts(&markup), ["<g1>Fish & chips. Yes.</g1>"]);
    let rendered = render_with(&markup, |text| text.replace("Fish", "Poisson"));
    assert_eq!(rendered, "<p>Poisson &amp; chips. Yes.</p>");
    assert_well_formed_xml(&rendered);
}

#[test]
fn a_sentence_break_inside_cdata_is_not_cut() {
    let markup = parse("<p><![CDATA[One. Two.]]></p>", &xml());
    assert_eq!(texts(&markup), ["One. Two."]);
    assert_eq!(identity(&markup), "<p><![CDATA[One. Two.]]></p>");
}

#[test]
fn rendered_xml_stays_well_formed_whatever_the_engine_writes() {
    let inputs = [XML_SAMPLE, "Hello <b>world</b>!", "<a>x &amp; <b>y</b> <c/> z</a><d>w</d> tail"];
    let engines: [fn(&str) -> String; 4] = [
        |text| text.to_uppercase(),
        |text| format!("{text} <&> ]]> \u{1} --"),
        |text| text.replace(' ', "\n"),
        |_| String::from("&amp; <x9/> </g1>"),
    ];
    for options in [xml(), xml_v2(), xml_inline()] {
        for input in inputs {
            for engine in engines {
                let markup = parse(input, &options);
                assert_well_formed_xml(&render_or_fall_back(&markup, engine));
                let pieces: Vec<UnitResult> = markup
                    .units()
                    .iter()
                    .map(|unit| UnitResult::Pieces(unit.pieces().iter().map(|piece| engine(piece)).collect()))
                    .collect();
                assert_well_formed_xml(&markup.render(&pieces).unwrap());
            }
        }
    }
}

#[test]
fn text_that_looks_like_a_placeholder_forces_the_fallback() {
    let options = TagOptions { non_splitting_tags: vec!["b".into()], ..xml() };
    let markup = parse("<p>Type &lt;g1&gt; <b>here</b></p>", &options);
    let unit = &markup.units()[0];
    assert_eq!(unit.text(), "Type <g1> <g1>here</g1>");
    assert!(unit.accepts(unit.text()), "the unit's own text always renders");
    assert!(!unit.accepts("Tippe <g1> <g1>hier</g1>"));
    assert_eq!(unit.segments()[0], Segment::Text("Type <g1> "));
    let rendered = markup.render(&[UnitResult::Pieces(vec!["Tippe <g1>".into(), "hier".into()])]).unwrap();
    assert_eq!(rendered, "<p>Tippe &lt;g1&gt; <b>hier</b></p>");
}

#[test]
fn xml_v1_tolerates_what_v2_rejects() {
    let texts_v1 =
        ["Tom & Jerry", "Hello <b>world", "Hello</b> world", "<a>one <b>two</a> three", "Fish &chips; and &#xZZ; here"];
    for text in texts_v1 {
        let markup = parse(text, &xml());
        assert!(!markup.units().is_empty(), "{text}");
        assert_eq!(identity(&markup), text);
        assert!(Markup::parse(text, &xml_v2(), SplitSentences::On).is_err(), "{text}");
    }
}

#[test]
fn xml_v1_keeps_unknown_entities_as_placeholders() {
    let markup = parse("<p>Buy &product; now &amp; save</p>", &xml());
    assert_eq!(texts(&markup), ["Buy <x1/> now & save"]);
    let rendered = render_with(&markup, |text| text.replace("Buy", "Kaufe"));
    assert_eq!(rendered, "<p>Kaufe &product; now &amp; save</p>");
}

#[test]
fn xml_v1_unpaired_tags_end_the_unit() {
    let options = xml_inline();
    assert_eq!(texts(&parse("Hello <b>big world", &options)), ["Hello", "big world"]);
    // `a` holds the unclosed `b`, so it splits too.
    assert_eq!(texts(&parse("<a>one <b>two</a> three", &options)), ["one", "two", "three"]);
}

#[test]
fn malformed_xml_v2_names_the_problem_and_its_offset() {
    let error = Markup::parse("<p>Hello <b>world</p>", &xml_v2(), SplitSentences::On).unwrap_err();
    assert_eq!(error.to_string(), "Invalid XML at byte 17: end tag </p> does not match the start tag <b> at byte 9");
    let error = Markup::parse("Fish &chips;", &xml_v2(), SplitSentences::On).unwrap_err();
    assert_eq!(error.to_string(), "Invalid XML at byte 5: unknown entity &chips;");
}

#[test]
fn fragments_with_several_roots_and_text_around_are_accepted() {
    for options in [xml(), xml_v2()] {
        let markup = parse("Hello <b>world</b>! <i>Bye</i> now", &options);
        assert_eq!(texts(&markup), ["Hello", "world", "!", "Bye", "now"]);
    }
}

#[test]
fn html_tag_soup_is_read_as_browsers_would() {
    let text = "<P>One<p>Two<li>x &amp; y<b>bold <i>both</b> italic</i>";
    let markup = parse(text, &html());
    assert_eq!(texts(&markup), ["One", "Two", "x & y", "bold", "both", "italic"]);
    assert_eq!(identity(&markup), text);
}

#[test]
fn html_void_elements_and_unquoted_attributes_survive_a_translation() {
    let text = "<p>Press <kbd>Ctrl</kbd><br>then <img src=a.png alt=Key> <input type=text value=x> go</p>";
    let markup = parse(text, &html());
    assert_eq!(texts(&markup), ["Press <g1>Ctrl</g1>", "then <x1/> <x2/> go"]);
    let rendered = render_with(&markup, str::to_uppercase);
    assert_eq!(rendered, "<p>PRESS <kbd>CTRL</kbd><br>THEN <img src=a.png alt=Key> <input type=text value=x> GO</p>");
}

#[test]
fn blank_and_tag_only_texts_have_no_units() {
    for text in ["", "   ", "<p> </p>", "<br/><!-- c -->", "<a><b/></a>"] {
        let markup = parse(text, &xml());
        assert!(markup.units().is_empty(), "{text}");
        assert_eq!(markup.render(&[]).unwrap(), text);
    }
}

#[test]
fn render_rejects_results_that_do_not_fit() {
    let markup = parse("<p>One.</p><p>Two <b>x</b>.</p>", &html());
    assert_eq!(markup.render(&[]), Err(RenderError::WrongNumberOfResults { expected: 2, found: 0 }));
    let results = [UnitResult::Translated("Eins.".into()), UnitResult::Pieces(vec!["Zwei".into()])];
    assert_eq!(markup.render(&results), Err(RenderError::WrongNumberOfPieces { unit: 1, expected: 3, found: 1 }));
}

#[test]
fn whitespace_around_units_and_pieces_is_kept_from_the_source() {
    let options = TagOptions { non_splitting_tags: vec!["b".into()], ..xml() };
    let markup = parse("<p>\n   Hello   <b> big </b>  world \n</p>", &options);
    assert_eq!(texts(&markup), ["Hello   <g1> big </g1>  world"]);
    let pieces = vec!["Hallo".into(), "große".into(), "Welt".into()];
    let rendered = markup.render(&[UnitResult::Pieces(pieces)]).unwrap();
    assert_eq!(rendered, "<p>\n   Hallo   <b> große </b>  Welt \n</p>");
}

#[test]
fn every_unit_maps_to_its_source_bytes() {
    let markup = parse(HTML_SAMPLE, &html());
    let mut previous_end = 0;
    for unit in markup.units() {
        let span = unit.source_span();
        assert!(span.start >= previous_end);
        assert!(!markup.source()[span.clone()].trim().is_empty());
        previous_end = span.end;
    }
    assert_eq!(
        texts(&markup),
        [
            "Café & more",
            "Hello <g1>world</g1>!",
            "How are you?",
            "Fine © 2024.",
            "Line one\nline two <x1/> <x2/> end",
            "One",
            "Two <three>",
            "<g1>link text</g1>"
        ]
    );
}

/// Texts put together from tricky fragments by a fixed pseudo-random sequence.
fn generated_texts(count: usize) -> Vec<String> {
    const FRAGMENTS: &[&str] = &[
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<p>",
        "</p>",
        "<br/>",
        "Hello",
        " ",
        ". ",
        "World",
        "&amp;",
        "&#233;",
        "\n",
        "<![CDATA[x. Y]]>",
        "<!-- c -->",
        "é",
        "日本。",
        "&nbsp;",
        "\r\n",
        "<img src=x>",
        "<script>a<b</script>",
        "Dr. ",
        "<span translate=no>k</span>",
        "!",
        "  ",
        "<g1>",
        "&lt;",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let length = (next() % 12) as usize;
            (0..length).map(|_| FRAGMENTS[(next() % FRAGMENTS.len() as u64) as usize]).collect()
        })
        .collect()
}

#[test]
fn generated_texts_round_trip_and_stay_well_formed() {
    let engine = |text: &str| format!("{} & <", text.to_uppercase());
    let splits = [SplitSentences::Off, SplitSentences::On, SplitSentences::NoNewlines];
    for (index, text) in generated_texts(1500).iter().enumerate() {
        let split = splits[index % 3];
        for options in [xml(), xml_v2(), xml_inline(), html()] {
            let Ok(markup) = Markup::parse(text, &options, split) else { continue };
            assert_eq!(identity(&markup), *text, "{options:?} {split} {text:?}");
            assert_eq!(identity_by_pieces(&markup), *text, "{options:?} {split} {text:?}");
            let rendered = render_or_fall_back(&markup, engine);
            if options == xml_v2() {
                assert_well_formed_xml(&rendered);
            }
        }
    }
}

#[test]
fn a_byte_order_mark_is_kept_outside_units() {
    for options in [xml(), xml_v2(), html()] {
        let text = "\u{feff}<p>Hello</p>";
        let markup = parse(text, &options);
        assert_eq!(texts(&markup), ["Hello"]);
        assert_eq!(render_with(&markup, str::to_uppercase), "\u{feff}<p>HELLO</p>");
    }
    let error = Markup::parse("\u{feff}<p>x</b>", &xml_v2(), SplitSentences::On).unwrap_err();
    assert_eq!(error.offset, 7);
}
