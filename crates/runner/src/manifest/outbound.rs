//! `allowed_outbound_hosts`: which destinations a component may send HTTP requests to.
//!
//! An entry is `scheme://host[:port]`. The scheme may be `*`; the host may be `*`, `*.domain`
//! (any subdomain, not the domain itself), an IP address, a CIDR range, a name, or `self` /
//! `self.alt` for the application itself; the port may be omitted (the scheme's default: 80 for
//! http, 443 for https), `*`, a number or a range `a..b` (end excluded). Everything else is
//! refused, and the component sees the refusal as `wasi:http` error `HTTP-request-denied`.

use std::fmt;
use std::net::IpAddr;

use anyhow::{Context, bail};

/// The hosts one component may reach.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowedHosts {
    entries: Vec<AllowedHost>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct AllowedHost {
    raw: String,
    scheme: Option<String>,
    host: HostPattern,
    port: PortPattern,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum HostPattern {
    Any,
    Subdomains(String),
    SelfApp,
    Name(String),
    Ip(IpAddr),
    Cidr(IpAddr, u8),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum PortPattern {
    Any,
    Range(u16, u16),
}

/// A destination a component asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination<'a> {
    pub scheme: &'a str,
    /// The host, without brackets for IPv6; empty for a request to the application itself.
    pub host: &'a str,
    pub port: Option<u16>,
}

impl AllowedHosts {
    /// Parses the entries of a component's `allowed_outbound_hosts` (after template rendering).
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> anyhow::Result<AllowedHosts> {
        let entries = entries
            .iter()
            .map(|entry| {
                AllowedHost::parse(entry.as_ref())
                    .with_context(|| format!("allowed_outbound_hosts entry `{}`", entry.as_ref()))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(AllowedHosts { entries })
    }

    /// Whether a request to `destination` may leave.
    pub fn allows(&self, destination: &Destination<'_>) -> bool {
        if is_self_request(destination.host) {
            return self.allows_self();
        }
        let host = destination.host.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        let Some(port) = destination.port.or_else(|| default_port(destination.scheme)) else {
            return false;
        };
        self.entries.iter().any(|entry| {
            entry.scheme.as_deref().is_none_or(|scheme| scheme.eq_ignore_ascii_case(destination.scheme))
                && entry.host.matches(&host)
                && entry.port.matches(port)
        })
    }

    /// Whether requests to the application itself (relative URLs, `self.alt`) may leave.
    pub fn allows_self(&self) -> bool {
        self.entries.iter().any(|entry| {
            matches!(entry.scheme.as_deref(), None | Some("http") | Some("https"))
                && matches!(entry.host, HostPattern::SelfApp | HostPattern::Any)
        })
    }
}

/// A request without a host, or to `self.alt`, is addressed to the application itself.
pub fn is_self_request(host: &str) -> bool {
    host.is_empty() || host.eq_ignore_ascii_case("self.alt")
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme.to_ascii_lowercase().as_str() {
        "http" => Some(80),
        "https" => Some(443),
        "postgres" => Some(5432),
        "mysql" => Some(3306),
        "redis" => Some(6379),
        "mqtt" => Some(1883),
        _ => None,
    }
}

impl AllowedHost {
    fn parse(raw: &str) -> anyhow::Result<AllowedHost> {
        let text = raw.trim();
        if text == "insecure:allow-all" {
            bail!("`insecure:allow-all` is not allowed: use `*://*:*` to allow every destination");
        }
        let Some((scheme, rest)) = text.split_once("://") else {
            bail!("it does not contain a scheme (write e.g. `https://example.com`, or `*://*:*` for everything)");
        };
        let scheme = match scheme {
            "*" => None,
            name if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphabetic()) => {
                Some(name.to_ascii_lowercase())
            }
            other => bail!("`{other}` is not a scheme"),
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let (host, port) = split_host_port(rest)?;
        let host = HostPattern::parse(host)?;
        let port = match port {
            None => {
                let scheme_name = scheme.as_deref().unwrap_or("*");
                let Some(port) = default_port(scheme_name) else {
                    bail!("scheme `{scheme_name}` has no default port: give one, e.g. `:8080` or `:*`");
                };
                PortPattern::Range(port, port + 1)
            }
            Some("*") => PortPattern::Any,
            Some(range) if range.contains("..") => {
                let (start, end) = range.split_once("..").expect("contains ..");
                let start: u16 = start.parse().with_context(|| format!("`{range}` is not a port range"))?;
                let end: u16 = end.parse().with_context(|| format!("`{range}` is not a port range"))?;
                if start >= end {
                    bail!("port range `{range}` is empty (the end is excluded)");
                }
                PortPattern::Range(start, end)
            }
            Some(port) => {
                let port: u16 = port.parse().with_context(|| format!("`{port}` is not a port"))?;
                PortPattern::Range(port, port.saturating_add(1))
            }
        };
        Ok(AllowedHost { raw: raw.to_owned(), scheme, host, port })
    }
}

/// Splits `host[:port]`, minding IPv6 brackets and CIDR suffixes.
fn split_host_port(text: &str) -> anyhow::Result<(&str, Option<&str>)> {
    if let Some(inner) = text.strip_prefix('[') {
        let Some(end) = inner.find(']') else { bail!("`{text}` has an unclosed `[`") };
        let host = &text[..end + 2];
        return match &text[end + 2..] {
            "" => Ok((host, None)),
            port => match port.strip_prefix(':') {
                Some(port) => Ok((host, Some(port))),
                None => bail!("`{text}` has a path, which is not allowed"),
            },
        };
    }
    match text.rsplit_once(':') {
        Some((host, port)) => Ok((host, Some(port))),
        None => Ok((text, None)),
    }
}

impl HostPattern {
    fn parse(text: &str) -> anyhow::Result<HostPattern> {
        if text.is_empty() {
            bail!("the host is missing");
        }
        if text.contains('{') {
            bail!("host lists are not supported: write one entry per host");
        }
        if text == "*" {
            return Ok(HostPattern::Any);
        }
        if text == "self" || text == "self.alt" {
            return Ok(HostPattern::SelfApp);
        }
        if let Some(domain) = text.strip_prefix("*.") {
            if domain.is_empty() || domain.contains('*') {
                bail!("`{text}`: `*` may only stand alone or as `*.domain`");
            }
            return Ok(HostPattern::Subdomains(format!(".{}", domain.to_ascii_lowercase())));
        }
        if text.contains('*') {
            bail!("`{text}`: `*` may only stand alone or as `*.domain`");
        }
        let bare = text.trim_start_matches('[').trim_end_matches(']');
        if let Some((address, bits)) = bare.split_once('/') {
            let address: IpAddr =
                address.parse().map_err(|_| anyhow::anyhow!("`{text}` has a path, which is not allowed"))?;
            let bits: u8 = bits.parse().with_context(|| format!("`{text}` is not a CIDR range"))?;
            let max = if address.is_ipv4() { 32 } else { 128 };
            if bits > max {
                bail!("`{text}`: a prefix of {bits} bits is too long");
            }
            return Ok(HostPattern::Cidr(address, bits));
        }
        if let Ok(address) = bare.parse::<IpAddr>() {
            return Ok(HostPattern::Ip(address));
        }
        if !bare.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.') {
            bail!("`{text}` is not a host name");
        }
        Ok(HostPattern::Name(bare.to_ascii_lowercase()))
    }

    fn matches(&self, host: &str) -> bool {
        match self {
            HostPattern::Any => true,
            HostPattern::Subdomains(suffix) => host.ends_with(suffix.as_str()) && host.len() > suffix.len(),
            HostPattern::SelfApp => false,
            HostPattern::Name(name) => host == name,
            HostPattern::Ip(address) => host.parse::<IpAddr>().is_ok_and(|candidate| candidate == *address),
            HostPattern::Cidr(network, bits) => {
                host.parse::<IpAddr>().is_ok_and(|candidate| in_network(candidate, *network, *bits))
            }
        }
    }
}

fn in_network(candidate: IpAddr, network: IpAddr, bits: u8) -> bool {
    match (candidate, network) {
        (IpAddr::V4(candidate), IpAddr::V4(network)) => {
            let mask = if bits == 0 { 0 } else { u32::MAX << (32 - u32::from(bits)) };
            u32::from(candidate) & mask == u32::from(network) & mask
        }
        (IpAddr::V6(candidate), IpAddr::V6(network)) => {
            let mask = if bits == 0 { 0 } else { u128::MAX << (128 - u32::from(bits)) };
            u128::from(candidate) & mask == u128::from(network) & mask
        }
        _ => false,
    }
}

impl PortPattern {
    fn matches(&self, port: u16) -> bool {
        match self {
            PortPattern::Any => true,
            PortPattern::Range(start, end) => (*start..*end).contains(&port),
        }
    }
}

impl fmt::Display for AllowedHosts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let raw: Vec<&str> = self.entries.iter().map(|entry| entry.raw.as_str()).collect();
        write!(f, "[{}]", raw.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allows(entries: &[&str], scheme: &str, host: &str, port: Option<u16>) -> bool {
        AllowedHosts::parse(entries).unwrap().allows(&Destination { scheme, host, port })
    }

    #[test]
    fn a_plain_entry_allows_its_scheme_host_and_default_port_only() {
        let entry = ["https://api.example.com"];
        assert!(allows(&entry, "https", "api.example.com", None));
        assert!(allows(&entry, "https", "API.example.com", Some(443)));
        assert!(!allows(&entry, "http", "api.example.com", None));
        assert!(!allows(&entry, "https", "api.example.com", Some(8443)));
        assert!(!allows(&entry, "https", "example.com", None));
    }

    #[test]
    fn ports_can_be_any_one_or_a_range() {
        assert!(allows(&["http://127.0.0.1:2737"], "http", "127.0.0.1", Some(2737)));
        assert!(!allows(&["http://127.0.0.1:2737"], "http", "127.0.0.1", Some(2738)));
        assert!(allows(&["http://localhost:*"], "http", "localhost", Some(9)));
        assert!(allows(&["http://localhost:3000..3002"], "http", "localhost", Some(3001)));
        assert!(!allows(&["http://localhost:3000..3002"], "http", "localhost", Some(3002)));
    }

    #[test]
    fn wildcards_for_scheme_host_and_subdomains() {
        assert!(allows(&["*://*:*"], "https", "anything.test", Some(1)));
        assert!(allows(&["https://*.example.com"], "https", "a.b.example.com", None));
        assert!(!allows(&["https://*.example.com"], "https", "example.com", None));
        assert!(!allows(&["https://*.example.com"], "https", "badexample.com", None));
    }

    #[test]
    fn addresses_and_networks() {
        assert!(allows(&["http://10.0.0.0/8:*"], "http", "10.2.3.4", Some(80)));
        assert!(!allows(&["http://10.0.0.0/8:*"], "http", "11.2.3.4", Some(80)));
        assert!(allows(&["http://[::1]:8080"], "http", "[::1]", Some(8080)));
    }

    #[test]
    fn self_requests_need_a_self_entry() {
        let hosts = AllowedHosts::parse(&["http://self"]).unwrap();
        assert!(hosts.allows(&Destination { scheme: "http", host: "", port: None }));
        assert!(hosts.allows(&Destination { scheme: "https", host: "self.alt", port: None }));
        let none = AllowedHosts::parse::<&str>(&[]).unwrap();
        assert!(!none.allows(&Destination { scheme: "http", host: "", port: None }));
        assert!(!none.allows(&Destination { scheme: "http", host: "127.0.0.1", port: Some(80) }));
    }

    #[test]
    fn malformed_entries_are_rejected() {
        for entry in [
            "example.com",
            "insecure:allow-all",
            "https://example.com/path",
            "ftp://example.com",
            "https://ex*.com",
            "https://{a,b}.com",
            "http://host:99999",
            "http://host:5..5",
        ] {
            assert!(AllowedHosts::parse(&[entry]).is_err(), "{entry} should be rejected");
        }
    }
}
