//! Which file of the mount a request path names.
//!
//! The component's Spin `files` mount places the site under [`MOUNT`], so the URL path of a file
//! is its path in the mount: `/admin/app.js` is the file `/admin/app.js`. The rules below keep
//! every answer inside that directory whatever the path holds: a path is taken apart into
//! segments, and each must be a plain name. Nothing is decoded, so `%2e%2e` is refused as a
//! name, not read as `..`.

use crate::headers::content_type;

/// Where the component's `files` mount places the site, and the URL prefix it is served under.
pub const MOUNT: &str = "/admin";

/// The page every visit starts at; the views are its hash routes (`#/keys`), not paths.
const INDEX: &str = "index.html";

/// The longest path served; the site's own paths are far shorter.
const MAX_PATH_BYTES: usize = 200;

/// The most segments below [`MOUNT`] a served path has (`vendor/uPlot.min.css`: two).
const MAX_DEPTH: usize = 4;

/// What a request path asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `/admin` without its slash: a permanent redirect to `/admin/`, so relative links resolve.
    Redirect(&'static str),
    /// A file of the mount, by its absolute path there (`/admin/index.html`).
    File(String),
    /// Nothing the site serves.
    Nothing,
}

/// Reads a request path (without its query) as a [`Target`].
pub fn resolve(path: &str) -> Target {
    let Some(rest) = path.strip_prefix(MOUNT) else { return Target::Nothing };
    if rest.is_empty() {
        return Target::Redirect("/admin/");
    }
    let Some(rest) = rest.strip_prefix('/') else { return Target::Nothing };
    if rest.is_empty() {
        return Target::File(format!("{MOUNT}/{INDEX}"));
    }
    let segments: Vec<&str> = rest.split('/').collect();
    let plain = path.len() <= MAX_PATH_BYTES && segments.len() <= MAX_DEPTH && segments.iter().all(|s| plain_name(s));
    let known = segments.last().is_some_and(|name| content_type(name).is_some());
    if plain && known { Target::File(format!("{MOUNT}/{rest}")) } else { Target::Nothing }
}

/// Whether a segment is a plain file or directory name: not empty, not hidden (so neither `.`
/// nor `..`), and only ASCII letters, digits, `.`, `_` and `-`.
fn plain_name(segment: &str) -> bool {
    !segment.is_empty()
        && !segment.starts_with('.')
        && segment.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str) -> Target {
        Target::File(path.to_owned())
    }

    #[test]
    fn the_mount_without_its_slash_redirects_and_with_it_is_the_index() {
        assert_eq!(resolve("/admin"), Target::Redirect("/admin/"));
        assert_eq!(resolve("/admin/"), file("/admin/index.html"));
        assert_eq!(resolve("/admin/index.html"), file("/admin/index.html"));
    }

    #[test]
    fn plain_paths_name_their_file_in_the_mount() {
        assert_eq!(resolve("/admin/app.js"), file("/admin/app.js"));
        assert_eq!(resolve("/admin/app.css"), file("/admin/app.css"));
        assert_eq!(resolve("/admin/vendor/uPlot.iife.min.js"), file("/admin/vendor/uPlot.iife.min.js"));
        assert_eq!(resolve("/admin/views/usage.js"), file("/admin/views/usage.js"));
    }

    #[test]
    fn traversal_in_any_spelling_is_refused() {
        for path in [
            "/admin/../spin.toml",
            "/admin/vendor/../../etc/passwd",
            "/admin/./app.js",
            "/admin/%2e%2e/spin.toml",
            "/admin/%2E%2E%2Fspin.toml",
            "/admin/..%2fspin.toml",
            "/admin/vendor%2f..%2f..%2fetc/passwd.txt",
            "/admin/..\\spin.toml",
            "/admin//etc/passwd.txt",
            "/admin/app.js%00.html",
            "/admin/.hidden.js",
            "/admin/vendor/.env.json",
        ] {
            assert_eq!(resolve(path), Target::Nothing, "{path}");
        }
    }

    #[test]
    fn only_known_extensions_and_no_directories_are_served() {
        for path in [
            "/admin/vendor",
            "/admin/vendor/",
            "/admin/keys",
            "/admin/server.rs",
            "/admin/package-lock",
            "/admin/a/b/c/d/e.js",
            "/administrator",
            "/admins/app.js",
            "/v2/admin/app.js",
        ] {
            assert_eq!(resolve(path), Target::Nothing, "{path}");
        }
        let long = format!("/admin/{}.js", "a".repeat(200));
        assert_eq!(resolve(&long), Target::Nothing);
    }
}
