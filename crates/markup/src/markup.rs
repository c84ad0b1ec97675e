//! Tag handling: cutting an XML or HTML text into units and putting translations back in.
//!
//! This module owns what happens between the readers (`xml`, `html`) and the caller: pairing
//! tags, deciding what splits, cutting sentences, building units and rendering results. How it
//! decides is documented on [`Markup`].

use std::ops::Range;

use crate::error::{MarkupError, RenderError};
use crate::escape::push_text;
use crate::options::{Classifier, TagHandling, TagOptions};
use crate::placeholder::{Placeholder, PlaceholderKind, Segment, keeps_placeholders, segment_ranges};
use crate::sentences::{SplitSentences, unit_spans};
use crate::text_run::TextRun;
use crate::tokens::{Token, TokenKind, normalise};
use crate::{html, xml};

/// A text with tags, cut into units.
///
/// [`Markup::parse`] reads the text into tokens, then:
///
/// 1. **Pairs tags.** An end tag closes the nearest open element of its name; elements between
///    are left unclosed. Unclosed start tags and end tags that close nothing (HTML tag soup, or
///    XML v1 leniency) are kept verbatim and end the unit.
/// 2. **Sets ignored content aside.** An element named in `ignore_tags` (and, in HTML, `script`,
///    `style`, `noscript`, `iframe`, `noembed`, `noframes`, `xmp`, `plaintext`, and any element
///    with `translate="no"` or the class `notranslate`) is kept byte for byte, content included.
///    Inside a sentence it is an empty placeholder. An ignored element that is never closed
///    reaches to the end tag of the element around it, or to the end of the text.
/// 3. **Classifies elements.** Splitting elements end the unit before and after them; inline
///    elements stay inside units as placeholders (see [`TagOptions`] for which is which). An
///    inline element that contains anything splitting (a splitting element, a doctype, an
///    unpaired tag) splits too, so both tags of a placeholder are always in the same unit.
///    Comments, processing instructions and unresolved references are inline and empty.
/// 4. **Cuts sentences.** The text between splitting tags is cut with `split_sentences`, but
///    only where no inline element is open: a bold phrase spanning two sentences keeps them in
///    one unit rather than break the element in two.
/// 5. **Trims.** Whitespace and empty placeholders at either end of a unit stay outside it, and
///    a unit always holds some non-whitespace text. An inline element with no text inside
///    (`<b></b>`, `<a href=x><img src=y></a>`) is one empty placeholder.
///
/// Rendering copies everything outside units from the source. Inside a unit, tags are copied
/// from the source too, so the output has the input's tags byte for byte (attributes, quoting,
/// spacing), and a unit whose result is its own text comes back byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Markup {
    source: String,
    handling: TagHandling,
    units: Vec<Unit>,
}

/// One piece of text for the engine, with its inline tags as placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    text: String,
    pieces: Vec<String>,
    placeholders: Vec<Placeholder>,
    items: Vec<UnitItem>,
    span: Range<usize>,
    /// Characters the source spelled as references, with that spelling.
    references: Vec<(char, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum UnitItem {
    /// A run of text; `piece` is the index of its piece and the piece's range in the run's text,
    /// for runs that are not blank.
    Text {
        run: TextRun,
        piece: Option<(usize, Range<usize>)>,
    },
    Open(u32),
    Close(u32),
    Empty(u32),
}

/// What the caller got for one unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitResult {
    /// A translation of [`Unit::text`] that [`Unit::accepts`].
    Translated(String),
    /// One translation per entry of [`Unit::pieces`], in order: the fallback when the engine
    /// could not keep the placeholders.
    Pieces(Vec<String>),
}

impl Markup {
    /// Reads `text` as XML or HTML and cuts it into units, cutting sentences with `split` (the
    /// caller's `split_sentences`; its default with HTML is `nonewlines`).
    ///
    /// HTML never fails: it is read as browsers read tag soup, with character references decoded
    /// for the engine. A tag written self-closing (`<span/>`) is taken as an element without
    /// content, as its author meant.
    ///
    /// XML is read as a *fragment*: any number of top-level elements with text around them
    /// (`Hello <b>world</b>!`), with an optional declaration, doctype, comments, processing
    /// instructions and CDATA sections. CDATA is character data, translated like the text around
    /// it; a translated CDATA section comes back as escaped text (the same characters for any XML
    /// reader). What each version accepts:
    ///
    /// * **v2 (strict)**: any well-formedness error is a [`MarkupError`]: a tag, comment, CDATA
    ///   section or processing instruction left open; a `<` or `&` that starts no markup; an end
    ///   tag that does not close the innermost open element, or closes none; an element still open
    ///   at the end; an entity XML does not predefine (no DTD is read); an invalid character
    ///   reference; a malformed or repeated attribute; `--` inside a comment.
    /// * **v1 (tolerant)**: syntax errors are still errors (an unclosed tag, comment or CDATA
    ///   section; a `<` that starts no tag), but the rest is read like tag soup: a lone `&` is
    ///   text; an unknown entity or invalid character reference is kept verbatim as an empty
    ///   placeholder; an end tag without start tag, and a start tag never closed, are kept
    ///   verbatim and end the unit; an end tag naming an element further out closes the elements
    ///   in between (which then count as never closed). Attributes and comments are not checked.
    pub fn parse(text: &str, options: &TagOptions, split: SplitSentences) -> Result<Markup, MarkupError> {
        // A byte order mark is no text; quick-xml would skip it without counting its bytes.
        let bom = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
        let body = &text[bom..];
        let tokens = match options.handling {
            TagHandling::Xml => xml::tokenize(body, options.version)
                .map_err(|error| MarkupError { offset: error.offset + bom, ..error })?,
            TagHandling::Html => html::tokenize(body),
        };
        let tokens = tokens.into_iter().map(|token| token.shifted(bom)).collect();
        let tokens = normalise(tokens, text.len());
        let classifier = Classifier::new(options);
        let (nodes, mut elements) = pair_and_classify(&tokens, &classifier);
        promote_containers(&nodes, &mut elements);

        let mut builder = UnitBuilder { source: text, split, units: Vec::new() };
        let mut flow: Vec<FlowItem> = Vec::new();
        for node in nodes {
            match node {
                Node::Open { element, span } if !elements[element].splits => {
                    flow.push(FlowItem::Open { element, name: elements[element].name.clone(), span });
                }
                Node::Close { element, span } if !elements[element].splits => {
                    flow.push(FlowItem::Close { element, span })
                }
                Node::Open { .. } | Node::Close { .. } | Node::Break => builder.flush(std::mem::take(&mut flow)),
                Node::Empty { name, span } => flow.push(FlowItem::Empty { name, span }),
                Node::Text(run) => flow.push(FlowItem::Text(run)),
            }
        }
        builder.flush(flow);
        Ok(Markup { source: text.to_owned(), handling: options.handling, units: builder.units })
    }

    /// The units to translate, in document order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The text as parsed.
    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn handling(&self) -> TagHandling {
        self.handling
    }

    /// The document with each unit replaced by its result (one result per unit, in order).
    ///
    /// Tags and everything outside units come from the source byte for byte; translated text is
    /// escaped for the output. A result equal to the unit's own text (or pieces equal to its own
    /// pieces) gives the source bytes back, so an identity translation renders the input exactly.
    pub fn render(&self, results: &[UnitResult]) -> Result<String, RenderError> {
        if results.len() != self.units.len() {
            return Err(RenderError::WrongNumberOfResults { expected: self.units.len(), found: results.len() });
        }
        let mut out = String::with_capacity(self.source.len() + self.source.len() / 4);
        let mut position = 0;
        for (index, (unit, result)) in self.units.iter().zip(results).enumerate() {
            out.push_str(&self.source[position..unit.span.start]);
            self.render_unit(index, unit, result, &mut out)?;
            position = unit.span.end;
        }
        out.push_str(&self.source[position..]);
        Ok(out)
    }

    fn render_unit(&self, index: usize, unit: &Unit, result: &UnitResult, out: &mut String) -> Result<(), RenderError> {
        let placeholder = |id: u32| &unit.placeholders[id as usize - 1];
        match result {
            UnitResult::Translated(translation) if *translation == unit.text => {
                out.push_str(&self.source[unit.span.clone()]);
            }
            UnitResult::Translated(translation) => {
                if !keeps_placeholders(translation, &unit.placeholders) {
                    return Err(RenderError::PlaceholdersNotKept { unit: index });
                }
                for (range, segment) in segment_ranges(translation) {
                    match segment {
                        Some(Segment::Open(id) | Segment::Empty(id)) => out.push_str(&placeholder(id).markup),
                        Some(Segment::Close(id)) => out.push_str(placeholder(id).end_markup.as_deref().unwrap_or("")),
                        Some(Segment::Text(_)) | None => {
                            push_text(out, &translation[range], self.handling, &unit.references)
                        }
                    }
                }
            }
            UnitResult::Pieces(pieces) => {
                if pieces.len() != unit.pieces.len() {
                    let (expected, found) = (unit.pieces.len(), pieces.len());
                    return Err(RenderError::WrongNumberOfPieces { unit: index, expected, found });
                }
                for item in &unit.items {
                    match item {
                        UnitItem::Text { run, piece: None } => out.push_str(&self.source[run.source()]),
                        UnitItem::Text { run, piece: Some((piece, range)) } => {
                            let source = run.source();
                            let (start, end) = (run.source_at(range.start), run.source_at(range.end));
                            out.push_str(&self.source[source.start..start]);
                            if pieces[*piece] == unit.pieces[*piece] {
                                out.push_str(&self.source[start..end]);
                            } else {
                                push_text(out, &pieces[*piece], self.handling, &unit.references);
                            }
                            out.push_str(&self.source[end..source.end]);
                        }
                        UnitItem::Open(id) | UnitItem::Empty(id) => out.push_str(&placeholder(*id).markup),
                        UnitItem::Close(id) => out.push_str(placeholder(*id).end_markup.as_deref().unwrap_or("")),
                    }
                }
            }
        }
        Ok(())
    }
}

impl Unit {
    /// The text for the engine: plain text (not escaped) with `<gN>…</gN>` and `<xN/>`
    /// placeholders for its inline tags.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The fallback: the text runs between the unit's placeholders that are not blank, without
    /// their outer whitespace (which is kept from the source when rendering).
    pub fn pieces(&self) -> &[String] {
        &self.pieces
    }

    /// What each placeholder stands for; placeholder `N` is at index `N - 1`.
    pub fn placeholders(&self) -> &[Placeholder] {
        &self.placeholders
    }

    /// The unit's text as segments, read from its structure (so text that merely looks like a
    /// placeholder stays text): where each text run is, between which placeholders.
    pub fn segments(&self) -> Vec<Segment<'_>> {
        self.items
            .iter()
            .map(|item| match item {
                UnitItem::Text { run, .. } => Segment::Text(&run.text),
                UnitItem::Open(id) => Segment::Open(*id),
                UnitItem::Close(id) => Segment::Close(*id),
                UnitItem::Empty(id) => Segment::Empty(*id),
            })
            .collect()
    }

    /// The bytes of the source the unit covers.
    pub fn source_span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// Whether `translation` can be rendered as this unit's translation: it is the unit's own
    /// text, or it keeps every placeholder exactly once, paired ones properly nested (their order
    /// may change). Otherwise translate the [`pieces`](Unit::pieces) instead.
    pub fn accepts(&self, translation: &str) -> bool {
        translation == self.text || keeps_placeholders(translation, &self.placeholders)
    }
}

/// An element that has both tags.
struct Element {
    name: String,
    splits: bool,
}

/// A token after pairing and setting ignored content aside.
enum Node {
    Open {
        element: usize,
        span: Range<usize>,
    },
    Close {
        element: usize,
        span: Range<usize>,
    },
    /// Inline markup without text (kept verbatim as an empty placeholder).
    Empty {
        name: String,
        span: Range<usize>,
    },
    Text(TextRun),
    /// Anything verbatim that ends the unit.
    Break,
}

fn pair_and_classify(tokens: &[Token], classifier: &Classifier) -> (Vec<Node>, Vec<Element>) {
    let mut partner: Vec<Option<usize>> = vec![None; tokens.len()];
    // For a start tag never closed: the end tag of an outer element that closed it implicitly.
    let mut closed_by: Vec<Option<usize>> = vec![None; tokens.len()];
    let mut open: Vec<usize> = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        match &token.kind {
            TokenKind::Start { .. } => open.push(index),
            TokenKind::End { name } => {
                let start_name = |start: usize| match &tokens[start].kind {
                    TokenKind::Start { name, .. } => name.as_str(),
                    _ => "",
                };
                if let Some(position) = open.iter().rposition(|&start| start_name(start) == name) {
                    let start = open[position];
                    for &unclosed in &open[position + 1..] {
                        closed_by[unclosed] = Some(index);
                    }
                    open.truncate(position);
                    partner[start] = Some(index);
                    partner[index] = Some(start);
                }
            }
            _ => {}
        }
    }

    let mut nodes = Vec::with_capacity(tokens.len());
    let mut elements: Vec<Element> = Vec::new();
    let mut element_of: Vec<Option<usize>> = vec![None; tokens.len()];
    let mut index = 0;
    while index < tokens.len() {
        let token = &tokens[index];
        let span = token.span.clone();
        let node = match &token.kind {
            TokenKind::Start { name, ignored } if *ignored || classifier.ignores(name) => {
                // An unclosed ignored element ends where an outer element's end tag closes it
                // (as a browser would close it), or else at the end of the text.
                let last = match (partner[index], closed_by[index]) {
                    (Some(end), _) => end,
                    (None, Some(outer_end)) => outer_end - 1,
                    (None, None) => tokens.len() - 1,
                };
                let whole = span.start..tokens[last].span.end;
                index = last + 1;
                nodes.push(if classifier.splits(name) {
                    Node::Break
                } else {
                    Node::Empty { name: name.clone(), span: whole }
                });
                continue;
            }
            TokenKind::Start { name, .. } => match partner[index] {
                Some(_) => {
                    element_of[index] = Some(elements.len());
                    elements.push(Element { name: name.clone(), splits: classifier.splits(name) });
                    Node::Open { element: elements.len() - 1, span }
                }
                None => Node::Break,
            },
            TokenKind::End { .. } => match partner[index].and_then(|start| element_of[start]) {
                Some(element) => Node::Close { element, span },
                None => Node::Break,
            },
            TokenKind::Empty { name } if classifier.splits(name) => Node::Break,
            TokenKind::Empty { name } => Node::Empty { name: name.clone(), span },
            TokenKind::Text(run) => Node::Text(run.clone()),
            TokenKind::Inline { name } => Node::Empty { name: (*name).to_owned(), span },
            TokenKind::Break => Node::Break,
        };
        nodes.push(node);
        index += 1;
    }
    (nodes, elements)
}

/// Makes every inline element that contains something splitting split too.
fn promote_containers(nodes: &[Node], elements: &mut [Element]) {
    let mut open_inline: Vec<usize> = Vec::new();
    let promote = |open_inline: &[usize], elements: &mut [Element]| {
        for &element in open_inline {
            elements[element].splits = true;
        }
    };
    for node in nodes {
        match node {
            Node::Open { element, .. } if elements[*element].splits => promote(&open_inline, elements),
            Node::Open { element, .. } => open_inline.push(*element),
            Node::Close { element, .. } => {
                if let Some(position) = open_inline.iter().rposition(|open| open == element) {
                    open_inline.truncate(position);
                }
                if elements[*element].splits {
                    promote(&open_inline, elements);
                }
            }
            Node::Break => promote(&open_inline, elements),
            Node::Empty { .. } | Node::Text(_) => {}
        }
    }
}

/// What sits between two splitting points.
#[derive(Debug, Clone)]
enum FlowItem {
    Text(TextRun),
    Open { element: usize, name: String, span: Range<usize> },
    Close { element: usize, span: Range<usize> },
    Empty { name: String, span: Range<usize> },
}

impl FlowItem {
    fn source(&self) -> Range<usize> {
        match self {
            FlowItem::Text(run) => run.source(),
            FlowItem::Open { span, .. } | FlowItem::Close { span, .. } | FlowItem::Empty { span, .. } => span.clone(),
        }
    }

    fn is_text(&self) -> bool {
        matches!(self, FlowItem::Text(run) if !run.is_blank())
    }
}

struct UnitBuilder<'a> {
    source: &'a str,
    split: SplitSentences,
    units: Vec<Unit>,
}

impl UnitBuilder<'_> {
    /// Turns the items between two splitting points into units.
    fn flush(&mut self, flow: Vec<FlowItem>) {
        if !flow.iter().any(FlowItem::is_text) {
            return;
        }
        let flow = collapse_textless_elements(flow);
        let cuts = self.sentence_cuts(&flow);
        for segment in cut(flow, &cuts) {
            if let Some(unit) = self.unit(segment) {
                self.units.push(unit);
            }
        }
    }

    /// Where the flow's sentences may be cut: (item, offset in its text) pairs, offset 0 meaning
    /// before the item. A cut is only made where no inline element is open.
    fn sentence_cuts(&self, flow: &[FlowItem]) -> Vec<(usize, usize)> {
        let plain: String = flow
            .iter()
            .filter_map(|item| match item {
                FlowItem::Text(run) => Some(run.text.as_str()),
                _ => None,
            })
            .collect();
        let spans = unit_spans(&plain, self.split);
        let separators: Vec<Range<usize>> = spans.windows(2).map(|pair| pair[0].end..pair[1].start).collect();
        let mut cuts = Vec::new();
        let mut next = 0;
        let mut offset = 0;
        let mut depth = 0usize;
        for (index, item) in flow.iter().enumerate() {
            while separators.get(next).is_some_and(|separator| separator.end < offset) {
                next += 1;
            }
            if depth == 0 && separators.get(next).is_some_and(|separator| separator.start <= offset) {
                cuts.push((index, 0));
                next += 1;
            }
            match item {
                FlowItem::Open { .. } => depth += 1,
                FlowItem::Close { .. } => depth = depth.saturating_sub(1),
                FlowItem::Empty { .. } => {}
                FlowItem::Text(run) if run.text.is_empty() => {}
                FlowItem::Text(run) => {
                    let length = run.text.len();
                    if depth == 0 {
                        loop {
                            while separators.get(next).is_some_and(|separator| separator.end < offset) {
                                next += 1;
                            }
                            let Some(separator) = separators.get(next) else { break };
                            if separator.start >= offset + length {
                                break;
                            }
                            let low = separator.start.saturating_sub(offset).max(1);
                            let high = (separator.end - offset).min(length - 1);
                            match (low..=high).find(|&at| run.can_cut(at)) {
                                Some(at) => {
                                    cuts.push((index, at));
                                    next += 1;
                                }
                                None => break,
                            }
                        }
                    }
                    offset += length;
                }
            }
        }
        cuts
    }

    /// Makes a unit of a segment, less its blank ends; `None` when no text is left.
    fn unit(&self, mut segment: Vec<FlowItem>) -> Option<Unit> {
        // Leading whitespace and empty placeholders stay outside.
        let mut first = 0;
        while let Some(item) = segment.get(first) {
            match item {
                FlowItem::Empty { .. } => first += 1,
                FlowItem::Text(run) if run.is_blank() => first += 1,
                FlowItem::Text(run) => {
                    let blank = run.text.len() - run.text.trim_start().len();
                    let start = run.snap_down(blank);
                    if start > 0 {
                        let trimmed = run.slice(start..run.text.len());
                        segment[first] = FlowItem::Text(trimmed);
                    }
                    break;
                }
                FlowItem::Open { .. } | FlowItem::Close { .. } => break,
            }
        }
        segment.drain(..first);
        while let Some(item) = segment.last() {
            match item {
                FlowItem::Empty { .. } => {
                    segment.pop();
                }
                FlowItem::Text(run) if run.is_blank() => {
                    segment.pop();
                }
                FlowItem::Text(run) => {
                    let end = run.snap_up(run.text.trim_end().len());
                    if end < run.text.len() {
                        let trimmed = run.slice(0..end);
                        *segment.last_mut().expect("just looked at it") = FlowItem::Text(trimmed);
                    }
                    break;
                }
                FlowItem::Open { .. } | FlowItem::Close { .. } => break,
            }
        }
        if !segment.iter().any(FlowItem::is_text) {
            return None;
        }

        let span = segment.first()?.source().start..segment.last()?.source().end;
        let mut unit = Unit {
            text: String::new(),
            pieces: Vec::new(),
            placeholders: Vec::new(),
            items: Vec::with_capacity(segment.len()),
            span,
            references: Vec::new(),
        };
        let mut placeholder_of: Vec<(usize, u32)> = Vec::new();
        for item in segment {
            let next_id = unit.placeholders.len() as u32 + 1;
            match item {
                FlowItem::Text(run) => {
                    unit.text.push_str(&run.text);
                    for (character, spelled) in run.references(self.source) {
                        let known = unit.references.iter().any(|(known, _)| *known == character);
                        if spelled.ends_with(';') && !known {
                            unit.references.push((character, spelled.to_owned()));
                        }
                    }
                    let piece = (!run.is_blank()).then(|| {
                        let core = crate::sentences::trim_range(&run.text, 0..run.text.len());
                        let range = run.snap_down(core.start)..run.snap_up(core.end);
                        unit.pieces.push(run.text[range.clone()].to_owned());
                        (unit.pieces.len() - 1, range)
                    });
                    unit.items.push(UnitItem::Text { run, piece });
                }
                FlowItem::Open { element, name, span } => {
                    unit.placeholders.push(Placeholder {
                        id: next_id,
                        kind: PlaceholderKind::Paired,
                        name,
                        markup: self.source[span].to_owned(),
                        end_markup: None,
                    });
                    placeholder_of.push((element, next_id));
                    unit.text.push_str(&format!("<g{next_id}>"));
                    unit.items.push(UnitItem::Open(next_id));
                }
                FlowItem::Close { element, span } => {
                    let id = placeholder_of.iter().find(|(open, _)| *open == element).map(|(_, id)| *id)?;
                    unit.placeholders[id as usize - 1].end_markup = Some(self.source[span].to_owned());
                    unit.text.push_str(&format!("</g{id}>"));
                    unit.items.push(UnitItem::Close(id));
                }
                FlowItem::Empty { name, span } => {
                    unit.placeholders.push(Placeholder {
                        id: next_id,
                        kind: PlaceholderKind::Empty,
                        name,
                        markup: self.source[span].to_owned(),
                        end_markup: None,
                    });
                    unit.text.push_str(&format!("<x{next_id}/>"));
                    unit.items.push(UnitItem::Empty(next_id));
                }
            }
        }
        Some(unit)
    }
}

/// Replaces each inline element without text inside by one empty item covering all of it.
fn collapse_textless_elements(flow: Vec<FlowItem>) -> Vec<FlowItem> {
    /// An element whose end tag is still to come.
    struct Open {
        index: usize,
        name: String,
        start: usize,
        has_text: bool,
    }
    let mut collapsed: Vec<FlowItem> = Vec::with_capacity(flow.len());
    let mut open: Vec<Open> = Vec::new();
    for item in flow {
        match item {
            FlowItem::Open { ref name, ref span, .. } => {
                open.push(Open { index: collapsed.len(), name: name.clone(), start: span.start, has_text: false });
                collapsed.push(item);
            }
            FlowItem::Close { ref span, .. } => match open.pop() {
                Some(element) if !element.has_text => {
                    collapsed.truncate(element.index);
                    collapsed.push(FlowItem::Empty { name: element.name, span: element.start..span.end });
                }
                Some(_) => {
                    if let Some(parent) = open.last_mut() {
                        parent.has_text = true;
                    }
                    collapsed.push(item);
                }
                None => collapsed.push(item),
            },
            FlowItem::Text(ref run) => {
                if !run.is_blank()
                    && let Some(innermost) = open.last_mut()
                {
                    innermost.has_text = true;
                }
                collapsed.push(item);
            }
            FlowItem::Empty { .. } => collapsed.push(item),
        }
    }
    collapsed
}

/// Splits the flow at the cuts (sorted, as `sentence_cuts` makes them).
fn cut(flow: Vec<FlowItem>, cuts: &[(usize, usize)]) -> Vec<Vec<FlowItem>> {
    let mut segments: Vec<Vec<FlowItem>> = vec![Vec::new()];
    let mut cuts = cuts.iter().peekable();
    for (index, item) in flow.into_iter().enumerate() {
        if cuts.next_if(|(at, offset)| *at == index && *offset == 0).is_some() {
            segments.push(Vec::new());
        }
        let FlowItem::Text(run) = item else {
            segments.last_mut().expect("never empty").push(item);
            continue;
        };
        let mut start = 0;
        while let Some((_, offset)) = cuts.next_if(|(at, _)| *at == index) {
            segments.last_mut().expect("never empty").push(FlowItem::Text(run.slice(start..*offset)));
            segments.push(Vec::new());
            start = *offset;
        }
        let rest = if start == 0 { run } else { run.slice(start..run.text.len()) };
        segments.last_mut().expect("never empty").push(FlowItem::Text(rest));
    }
    segments
}

#[cfg(test)]
mod tests;
