//! The admin dashboard's static site, served under `/admin/` by the `dashboard` component.
//!
//! The dashboard is a single-page app of static files (HTML, CSS, plain ES modules and uPlot's
//! prebuilt files) that talks to the public admin API only; it has no endpoint of its own. This
//! crate decides, for a request path, what is answered:
//!
//! * `site.rs`: the path read as a [`Target`]: `/admin` redirects to `/admin/`, `/admin/` is
//!   `index.html`, and any other path names one file of the mount, or nothing. Only plain names
//!   (ASCII letters, digits, `.`, `_`, `-`; no hidden files, no `..`, no percent-encoding) with a
//!   known extension are served, so no path leaves the mounted directory.
//! * `headers.rs`: the content type by extension, and the headers every file carries: a strict
//!   Content-Security-Policy (no inline script or style, no `eval`, nothing from another
//!   origin), `nosniff`, no referrer, and the cache policy.
//! * `edge.rs`: the answer, as an [`api::ApiResponse`]; a file that is not there is the same
//!   `404` as any unknown path (`api::ApiError::nothing_served_at`).
//!
//! The files are read through a function the caller passes (`std::fs::read` on the Spin `files`
//! mount in the component, a map in the tests), so the crate stays platform-free.

mod edge;
mod headers;
mod site;

pub use edge::respond;
pub use headers::{CONTENT_SECURITY_POLICY, content_type};
pub use site::{MOUNT, Target, resolve};
