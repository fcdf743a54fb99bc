//! The address of the client a request came from, for the per-address limits (kiosk PIN,
//! registration) and the audit log.
//!
//! Behind a reverse proxy every connection comes from the proxy, so without this all patients
//! would share one address: 30 wrong PINs from anyone would refuse the PIN screen to everyone.
//! The proxies named by `--trusted-proxies` (PORTAL_TRUSTED_PROXIES: addresses or CIDR ranges,
//! comma-separated) are believed about X-Forwarded-For; the client is the right-most address in
//! it that is not itself a trusted proxy. From anyone else the header is ignored, so a client
//! cannot pick its own address.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::AppState;

/// One trusted address or range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Range {
    base: IpAddr,
    prefix: u8,
}

impl Range {
    fn parse(text: &str) -> Result<Range, String> {
        let (addr, prefix) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text, None),
        };
        let base: IpAddr = addr
            .trim()
            .parse()
            .map_err(|_| format!("'{text}' is not an IP address or CIDR range"))?;
        let max = if base.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("'{text}' has a prefix length outside 0-{max}"))?,
            None => max,
        };
        Ok(Range { base, prefix })
    }

    fn contains(&self, ip: IpAddr) -> bool {
        // An IPv4 client seen on an IPv6 socket (::ffff:a.b.c.d) is the IPv4 address.
        let ip = canonical(ip);
        match (self.base, ip) {
            (IpAddr::V4(b), IpAddr::V4(i)) => {
                masked(u32::from(b).into(), self.prefix, 32)
                    == masked(u32::from(i).into(), self.prefix, 32)
            }
            (IpAddr::V6(b), IpAddr::V6(i)) => {
                masked(u128::from(b), self.prefix, 128) == masked(u128::from(i), self.prefix, 128)
            }
            _ => false,
        }
    }
}

fn masked(bits: u128, prefix: u8, width: u32) -> u128 {
    if prefix == 0 {
        0
    } else {
        bits >> (width - u32::from(prefix))
    }
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// The proxies whose X-Forwarded-For is believed; empty by default.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<Range>);

impl TrustedProxies {
    /// "10.0.0.0/8, 127.0.0.1, ::1"; blank means none.
    pub fn parse(text: &str) -> Result<TrustedProxies, String> {
        text.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(Range::parse)
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|r| r.contains(ip))
    }

    /// The client behind `peer`: `peer` itself unless it is a trusted proxy; then, walking
    /// X-Forwarded-For from the right (the hop nearest to us), the first address that is not a
    /// trusted proxy. A malformed entry stops the walk at the last address known good.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut client = canonical(peer);
        if !self.trusts(client) {
            return client;
        }
        let hops = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        for hop in hops.iter().rev() {
            let Ok(ip) = hop.parse::<IpAddr>() else { break };
            client = canonical(ip);
            if !self.trusts(client) {
                break;
            }
        }
        client
    }
}

/// The requesting client's address (see the module text). Handlers take it where they took
/// `ConnectInfo`; `ip()` keeps their code unchanged.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(IpAddr);

impl ClientAddr {
    pub fn ip(&self) -> IpAddr {
        self.0
    }
}

impl From<IpAddr> for ClientAddr {
    fn from(ip: IpAddr) -> Self {
        ClientAddr(ip)
    }
}

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        // Served without connect info (in-process tests): the loopback address.
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        Ok(ClientAddr(
            state.trusted_proxies.client(peer, &parts.headers),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn parses_addresses_and_ranges_and_refuses_nonsense() {
        let t = TrustedProxies::parse(" 10.0.0.0/8, 127.0.0.1 ,::1, fd00::/8").unwrap();
        assert!(
            t.trusts(ip("10.200.3.4"))
                && t.trusts(ip("127.0.0.1"))
                && t.trusts(ip("::1"))
                && t.trusts(ip("fd12::5"))
        );
        assert!(
            !t.trusts(ip("11.0.0.1")) && !t.trusts(ip("127.0.0.2")) && !t.trusts(ip("fe80::1"))
        );
        assert!(TrustedProxies::parse("").unwrap().0.is_empty());
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
        assert!(TrustedProxies::parse("proxy.local").is_err());
        assert!(TrustedProxies::parse("0.0.0.0/0")
            .unwrap()
            .trusts(ip("8.8.8.8")));
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_claims() {
        let t = TrustedProxies::parse("10.0.0.1").unwrap();
        assert_eq!(
            t.client(ip("203.0.113.9"), &headers(&["198.51.100.1"])),
            ip("203.0.113.9")
        );
        assert_eq!(
            TrustedProxies::default().client(ip("127.0.0.1"), &headers(&["198.51.100.1"])),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn behind_trusted_proxies_the_rightmost_untrusted_hop_is_the_client() {
        let t = TrustedProxies::parse("10.0.0.0/8").unwrap();
        // A client-supplied left part is not believed: the proxy appended the real address.
        assert_eq!(
            t.client(ip("10.0.0.1"), &headers(&["1.2.3.4, 198.51.100.7"])),
            ip("198.51.100.7")
        );
        assert_eq!(
            t.client(
                ip("10.0.0.1"),
                &headers(&["1.2.3.4", "198.51.100.7, 10.0.0.2"])
            ),
            ip("198.51.100.7")
        );
        // No header, or only proxies: the last proxy seen.
        assert_eq!(t.client(ip("10.0.0.1"), &HeaderMap::new()), ip("10.0.0.1"));
        assert_eq!(
            t.client(ip("10.0.0.1"), &headers(&["10.0.0.3"])),
            ip("10.0.0.3")
        );
        // Garbage stops the walk at the last good address.
        assert_eq!(
            t.client(
                ip("10.0.0.1"),
                &headers(&["198.51.100.7, nonsense, 10.0.0.2"])
            ),
            ip("10.0.0.2")
        );
        // IPv4 on an IPv6 socket.
        assert_eq!(
            t.client(ip("::ffff:10.0.0.1"), &headers(&["198.51.100.7"])),
            ip("198.51.100.7")
        );
    }
}
