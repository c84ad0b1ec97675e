//! Content types and the headers every file of the site carries.

/// The site's Content-Security-Policy. Everything comes from this origin: scripts only as files
/// (no inline script, no `eval`), styles only as files (no `style` attributes or elements;
/// scripts set styles through the CSSOM, which the policy allows), API calls only to this
/// origin, and no framing. `img-src` allows `data:` for the icon; the CSV download is a `data:`
/// link, a navigation, which no fetch directive governs.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; \
frame-ancestors 'none'";

/// The headers of every file, beside its type and cache policy: the policy above, no content
/// sniffing, and no `Referer` sent anywhere.
pub const SECURITY_HEADERS: [(&str, &str); 3] = [
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
];

/// The cache policy of `index.html`: revalidated at every visit, so a new version of the site
/// is picked up at once.
pub const CACHE_PAGE: &str = "no-cache";

/// The cache policy of the other files (scripts, styles, uPlot, the icon): their names carry
/// no version, so they are kept for five minutes only.
pub const CACHE_ASSET: &str = "max-age=300";

/// The content type of a file name, by its extension; `None` for a type the site does not
/// serve.
pub fn content_type(name: &str) -> Option<&'static str> {
    let (_, extension) = name.rsplit_once('.')?;
    Some(match extension {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => return None,
    })
}

/// The cache policy of a file of the mount.
pub fn cache_control(path: &str) -> &'static str {
    if path.ends_with(".html") { CACHE_PAGE } else { CACHE_ASSET }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_come_from_the_extension() {
        assert_eq!(content_type("index.html"), Some("text/html; charset=utf-8"));
        assert_eq!(content_type("uPlot.iife.min.js"), Some("text/javascript; charset=utf-8"));
        assert_eq!(content_type("uPlot.min.css"), Some("text/css; charset=utf-8"));
        assert_eq!(content_type("icon.svg"), Some("image/svg+xml"));
        assert_eq!(content_type("lib.rs"), None);
        assert_eq!(content_type("README"), None);
    }

    #[test]
    fn the_policy_allows_nothing_inline_and_nothing_from_elsewhere() {
        for directive in CONTENT_SECURITY_POLICY.split("; ") {
            assert!(!directive.contains("unsafe"), "{directive}");
            assert!(!directive.contains('*') && !directive.contains("http"), "{directive}");
        }
        assert!(CONTENT_SECURITY_POLICY.starts_with("default-src 'none'; script-src 'self'; style-src 'self';"));
        assert!(CONTENT_SECURITY_POLICY.ends_with("frame-ancestors 'none'"));
    }

    #[test]
    fn the_page_is_revalidated_and_assets_kept_briefly() {
        assert_eq!(cache_control("/admin/index.html"), "no-cache");
        assert_eq!(cache_control("/admin/app.js"), "max-age=300");
    }
}
