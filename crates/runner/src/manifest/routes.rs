//! HTTP routes with Spin's syntax and precedence.
//!
//! A route is exact (`/health`), a trailing wildcard (`/v2/...`, `/...` for everything), may hold
//! `:name` segments (`/v3/glossaries/:id`), or is private (reachable by no path). A request path
//! has its leading and trailing slashes ignored. When several routes match, segments are compared
//! from the left and at the first difference an exact segment beats a parameter, which beats a
//! wildcard; when one route is a prefix of the other, the shorter wins (`/foo` beats `/foo/...`).
//! So an exact route beats any wildcard, and a longer wildcard prefix beats a shorter one,
//! whatever the order in the manifest.

use std::cmp::Ordering;
use std::fmt;

use anyhow::bail;

/// A route as declared in the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Pattern { raw: String, segments: Vec<Segment> },
    Private,
}

/// One segment of a route pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Exact(String),
    Param(String),
    /// `...`: the rest of the path, possibly nothing. Only ever last.
    Wildcard,
}

impl Segment {
    /// Exact beats parameter beats wildcard.
    fn rank(&self) -> u8 {
        match self {
            Segment::Exact(_) => 0,
            Segment::Param(_) => 1,
            Segment::Wildcard => 2,
        }
    }
}

/// What a route made of a request path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteMatch {
    /// The part of the path the trailing wildcard matched (`""` for routes without one).
    pub path_info: String,
    /// The `:name` parameters and the segments they matched.
    pub params: Vec<(String, String)>,
}

impl Route {
    /// Parses a route string from the manifest.
    pub fn parse(raw: &str) -> anyhow::Result<Route> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            bail!("route must not be empty (use \"/...\" for every path)");
        }
        if trimmed.starts_with("/.well-known/spin/") {
            bail!("route `{raw}`: paths under /.well-known/spin/ are answered by the host and never reach a component");
        }
        let body = trimmed.trim_start_matches('/');
        let body = body.strip_suffix('/').unwrap_or(body);
        let mut segments = Vec::new();
        let parts: Vec<&str> = if body.is_empty() { Vec::new() } else { body.split('/').collect() };
        for (index, part) in parts.iter().enumerate() {
            let last = index + 1 == parts.len();
            let segment = match *part {
                "..." | "*" if last => Segment::Wildcard,
                "..." | "*" => bail!("route `{raw}`: a wildcard may only be the last segment"),
                "" => bail!("route `{raw}`: empty segment"),
                param if param.starts_with(':') => {
                    let name = &param[1..];
                    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                        bail!("route `{raw}`: `{param}` is not a parameter name (letters, digits and underscores)");
                    }
                    Segment::Param(name.to_owned())
                }
                exact => {
                    if exact.contains(':') || exact.contains("...") {
                        bail!("route `{raw}`: a parameter or wildcard must be a whole segment");
                    }
                    Segment::Exact(exact.to_owned())
                }
            };
            segments.push(segment);
        }
        Ok(Route::Pattern { raw: raw.to_owned(), segments })
    }

    /// The route as written in the manifest.
    pub fn raw(&self) -> &str {
        match self {
            Route::Pattern { raw, .. } => raw,
            Route::Private => "",
        }
    }

    /// The route after normalisation (one trailing slash dropped, `/` becomes `""`), as the
    /// `spin-matched-route` header carries it.
    pub fn normalized(&self) -> String {
        match self {
            Route::Pattern { segments, .. } => segments.iter().map(|segment| format!("/{segment}")).collect(),
            Route::Private => String::new(),
        }
    }

    /// The route without a trailing wildcard, as the `spin-component-route` header carries it.
    pub fn component_route(&self) -> &str {
        let raw = self.raw();
        raw.strip_suffix("/...").unwrap_or(raw)
    }

    /// The key under which two routes would collide: equal normalised patterns.
    pub fn conflict_key(&self) -> Option<String> {
        match self {
            Route::Pattern { segments, .. } => Some(
                segments
                    .iter()
                    .map(|segment| match segment {
                        Segment::Exact(text) => format!("/{text}"),
                        Segment::Param(_) => "/:".to_owned(),
                        Segment::Wildcard => "/...".to_owned(),
                    })
                    .collect(),
            ),
            Route::Private => None,
        }
    }

    /// Matches a request path (without query); `None` when the route does not apply.
    pub fn matches(&self, path: &str) -> Option<RouteMatch> {
        let Route::Pattern { segments, .. } = self else {
            return None;
        };
        let trimmed = path.trim_matches('/');
        let parts: Vec<&str> = if trimmed.is_empty() { Vec::new() } else { trimmed.split('/').collect() };
        let mut params = Vec::new();
        for (index, segment) in segments.iter().enumerate() {
            match segment {
                Segment::Wildcard => {
                    return Some(RouteMatch { path_info: path_info(path, index), params });
                }
                Segment::Exact(text) => {
                    if parts.get(index) != Some(&text.as_str()) {
                        return None;
                    }
                }
                Segment::Param(name) => match parts.get(index) {
                    Some(value) if !value.is_empty() => params.push((name.clone(), (*value).to_owned())),
                    _ => return None,
                },
            }
        }
        (parts.len() == segments.len()).then(|| RouteMatch { path_info: String::new(), params })
    }

    fn precedence(&self, other: &Route) -> Ordering {
        match (self, other) {
            (Route::Pattern { segments: mine, .. }, Route::Pattern { segments: theirs, .. }) => {
                let mine = mine.iter().map(Segment::rank);
                let theirs = theirs.iter().map(Segment::rank);
                mine.cmp(theirs)
            }
            _ => Ordering::Equal,
        }
    }
}

/// The part of `path` after its first `prefix_segments` segments: `/test/...` makes `""` of
/// `/test`, `/` of `/test/`, and `/hello/` of `/test/hello/`; `/...` makes the whole path.
fn path_info(path: &str, prefix_segments: usize) -> String {
    let mut rest = path;
    for _ in 0..prefix_segments {
        rest = rest.trim_start_matches('/');
        match rest.find('/') {
            Some(end) => rest = &rest[end..],
            None => return String::new(),
        }
    }
    rest.to_owned()
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Route::Pattern { raw, .. } => f.write_str(raw),
            Route::Private => f.write_str("{ private = true }"),
        }
    }
}

impl fmt::Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Segment::Exact(text) => f.write_str(text),
            Segment::Param(name) => write!(f, ":{name}"),
            Segment::Wildcard => f.write_str("..."),
        }
    }
}

/// The routing table: which of the manifest's triggers serves a path.
#[derive(Debug, Clone)]
pub struct Router<T> {
    routes: Vec<(Route, T)>,
}

impl<T> Router<T> {
    pub fn new(routes: Vec<(Route, T)>) -> Self {
        Router { routes }
    }

    /// The most specific route matching `path`, its match, and its target.
    pub fn route(&self, path: &str) -> Option<(&Route, RouteMatch, &T)> {
        let mut best: Option<(&Route, RouteMatch, &T)> = None;
        for (route, target) in &self.routes {
            let Some(found) = route.matches(path) else { continue };
            let better = match &best {
                None => true,
                Some((current, _, _)) => route.precedence(current) == Ordering::Less,
            };
            if better {
                best = Some((route, found, target));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn router(routes: &[&str]) -> Router<String> {
        Router::new(routes.iter().map(|raw| (Route::parse(raw).unwrap(), (*raw).to_owned())).collect())
    }

    fn served_by(router: &Router<String>, path: &str) -> Option<String> {
        router.route(path).map(|(_, _, target)| target.clone())
    }

    #[test]
    fn exact_beats_wildcard_and_longer_prefixes_beat_shorter_ones() {
        let router = router(&["/...", "/v2/...", "/v2/admin/...", "/v2/usage", "/v2/admin/:thing"]);
        assert_eq!(served_by(&router, "/v2/usage").as_deref(), Some("/v2/usage"));
        assert_eq!(served_by(&router, "/v2/usage/").as_deref(), Some("/v2/usage"));
        assert_eq!(served_by(&router, "/v2/translate").as_deref(), Some("/v2/..."));
        assert_eq!(served_by(&router, "/v2/admin/analytics/custom-tags").as_deref(), Some("/v2/admin/..."));
        assert_eq!(served_by(&router, "/v2/admin/analytics").as_deref(), Some("/v2/admin/:thing"));
        assert_eq!(served_by(&router, "/v3/languages").as_deref(), Some("/..."));
        assert_eq!(served_by(&router, "/").as_deref(), Some("/..."));
    }

    #[test]
    fn declaration_order_does_not_matter() {
        let forwards = router(&["/a/...", "/a/b/..."]);
        let backwards = router(&["/a/b/...", "/a/..."]);
        assert_eq!(served_by(&forwards, "/a/b/c").as_deref(), Some("/a/b/..."));
        assert_eq!(served_by(&backwards, "/a/b/c").as_deref(), Some("/a/b/..."));
    }

    #[test]
    fn an_exact_route_matches_only_its_path() {
        let router = router(&["/health"]);
        assert_eq!(served_by(&router, "/health").as_deref(), Some("/health"));
        assert_eq!(served_by(&router, "//health//").as_deref(), Some("/health"));
        assert_eq!(served_by(&router, "/health/x"), None);
        assert_eq!(served_by(&router, "/healthz"), None);
        assert_eq!(served_by(&router, "/"), None);
    }

    #[test]
    fn a_wildcard_matches_its_prefix_but_not_longer_words() {
        let router = router(&["/test/..."]);
        assert!(served_by(&router, "/test").is_some());
        assert!(served_by(&router, "/test/a/b").is_some());
        assert_eq!(served_by(&router, "/testing"), None);
    }

    #[test]
    fn the_path_info_is_what_the_wildcard_matched() {
        let route = Route::parse("/test/...").unwrap();
        let info = |path| route.matches(path).unwrap().path_info;
        assert_eq!(info("/test"), "");
        assert_eq!(info("/test/"), "/");
        assert_eq!(info("/test/hello"), "/hello");
        assert_eq!(info("/test/hello/"), "/hello/");
        assert_eq!(info("/test/a/b"), "/a/b");
        let everything = Route::parse("/...").unwrap();
        assert_eq!(everything.matches("/a/b").unwrap().path_info, "/a/b");
        assert_eq!(everything.matches("/").unwrap().path_info, "/");
        assert_eq!(Route::parse("/exact").unwrap().matches("/exact").unwrap().path_info, "");
    }

    #[test]
    fn parameters_match_one_non_empty_segment() {
        let route = Route::parse("/api/:ver/...").unwrap();
        let found = route.matches("/api/v1/users/42").unwrap();
        assert_eq!(found.params, [("ver".to_owned(), "v1".to_owned())]);
        assert_eq!(found.path_info, "/users/42");
        let glossary = Route::parse("/v3/glossaries/:id").unwrap();
        assert!(glossary.matches("/v3/glossaries/").is_none());
        assert!(glossary.matches("/v3/glossaries/42/x").is_none());
    }

    #[test]
    fn header_forms_of_a_route() {
        let route = Route::parse("/api/:ver/...").unwrap();
        assert_eq!(route.normalized(), "/api/:ver/...");
        assert_eq!(route.component_route(), "/api/:ver");
        let root = Route::parse("/").unwrap();
        assert_eq!(root.normalized(), "");
        assert_eq!(Route::parse("/foo/").unwrap().normalized(), "/foo");
    }

    #[test]
    fn malformed_routes_are_rejected() {
        assert!(Route::parse("").is_err());
        assert!(Route::parse("/a/.../b").is_err());
        assert!(Route::parse("/a/b:c").is_err());
        assert!(Route::parse("/a/:").is_err());
        assert!(Route::parse("/.well-known/spin/x").is_err());
    }

    #[test]
    fn private_routes_match_nothing() {
        let router = Router::new(vec![(Route::Private, "private")]);
        assert!(router.route("/").is_none());
    }
}
