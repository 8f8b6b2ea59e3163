//! Which push endpoints Hibiki will POST to. Users supply these URLs, so without rules the
//! server could be made to call into its own network (SSRF). Only https endpoints on public
//! addresses are accepted; the address check runs again on every resolved address when
//! connecting (see the worker's push client).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    #[error("the endpoint is not a valid URL")]
    Invalid,
    #[error("the endpoint must use https")]
    NotHttps,
    #[error("the endpoint must not carry credentials")]
    Credentials,
    #[error("the endpoint's address is not public")]
    PrivateAddress,
    #[error("the endpoint's host could not be resolved")]
    Unresolvable,
    #[error("the endpoint must use port 443")]
    Port,
}

/// Parses and checks an endpoint URL (not its DNS answers: infra::resolve looks them up, [`check_resolved`] judges them).
pub fn parse(endpoint: &str, allow_private: bool) -> Result<Url, EndpointError> {
    if endpoint.len() > 2048 {
        return Err(EndpointError::Invalid);
    }
    let url = Url::parse(endpoint).map_err(|_| EndpointError::Invalid)?;
    match url.scheme() {
        "https" => {}
        "http" if allow_private => {}
        _ => return Err(EndpointError::NotHttps),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(EndpointError::Credentials);
    }
    // Push services listen on 443; any other port would let an endpoint aim the server's
    // POSTs at another service on a public host.
    if !allow_private && url.port_or_known_default() != Some(443) {
        return Err(EndpointError::Port);
    }
    match url.host() {
        None => return Err(EndpointError::Invalid),
        Some(Host::Ipv4(ip)) if !allow_private && !is_public(IpAddr::V4(ip)) => return Err(EndpointError::PrivateAddress),
        Some(Host::Ipv6(ip)) if !allow_private && !is_public(IpAddr::V6(ip)) => return Err(EndpointError::PrivateAddress),
        Some(Host::Domain(d)) if !allow_private && (d == "localhost" || d.ends_with(".localhost")) => {
            return Err(EndpointError::PrivateAddress);
        }
        _ => {}
    }
    Ok(url)
}

/// Every address a host resolves to must be public: one private answer poisons the lot
/// (a DNS name may mix them to slip past a check of only the first).
pub fn check_resolved(addrs: &[IpAddr], allow_private: bool) -> Result<(), EndpointError> {
    if addrs.is_empty() {
        return Err(EndpointError::Unresolvable);
    }
    if allow_private || addrs.iter().all(|a| is_public(*a)) { Ok(()) } else { Err(EndpointError::PrivateAddress) }
}

/// Publicly routable unicast, per the IANA special-purpose registries.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0                                   // "this network"
        || a == 10                             // private
        || a == 127                            // loopback
        || (a == 100 && (64..128).contains(&b)) // CGNAT 100.64/10
        || (a == 169 && b == 254)              // link-local, cloud metadata
        || (a == 172 && (16..32).contains(&b)) // private
        || (a == 192 && b == 0 && c == 0)      // IETF protocol assignments
        || (a == 192 && b == 0 && c == 2)      // documentation
        || (a == 192 && b == 88 && c == 99)    // 6to4 relay anycast
        || (a == 192 && b == 168)              // private
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || (a == 198 && b == 51 && c == 100)   // documentation
        || (a == 203 && b == 0 && c == 113)    // documentation
        || a >= 224) // multicast, reserved, broadcast
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let seg = ip.segments();
    // Addresses that embed an IPv4 address are judged by it.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let embedded = |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    if seg[0] == 0x64 && seg[1] == 0xff9b {
        // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) reaches IPv4 through a gateway.
        return seg[2] == 0 && is_public_v4(embedded(seg[6], seg[7]));
    }
    if seg[0] == 0x2002 {
        // 6to4 carries the IPv4 address in bits 16..48.
        return is_public_v4(embedded(seg[1], seg[2]));
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (seg[0] & 0xfe00) == 0xfc00             // unique local
        || (seg[0] & 0xffc0) == 0xfe80             // link-local
        || (seg[0] & 0xffc0) == 0xfec0             // site-local (deprecated)
        || (seg[0] == 0x2001 && seg[1] == 0x0db8)  // documentation
        || (seg[0] == 0x2001 && seg[1] == 0)       // Teredo
        || (seg[0] == 0x0100 && seg[1..4] == [0, 0, 0]) // discard
        || seg[..6] == [0, 0, 0, 0, 0, 0]) // IPv4-compatible (deprecated) and the like
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn private_and_special_addresses_are_not_public() {
        for s in [
            "0.0.0.0",
            "10.1.2.3",
            "127.0.0.1",
            "100.64.0.1",
            "100.127.255.255",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "192.0.0.170",
            "198.18.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::7f00:1",
            "2002:7f00:1::1",
            "2001:db8::1",
            "::127.0.0.1",
            "fd00:ec2::254",
        ] {
            assert!(!is_public(ip(s)), "{s} should not be public");
        }
    }

    #[test]
    fn public_addresses_are_public() {
        for s in [
            "8.8.8.8",
            "142.250.1.1",
            "100.128.0.1",
            "172.32.0.1",
            "2607:f8b0::1",
            "2a00:1450::1",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(is_public(ip(s)), "{s} should be public");
        }
    }

    #[test]
    fn endpoint_urls() {
        assert!(parse("https://fcm.googleapis.com/fcm/send/abc", false).is_ok());
        assert!(parse("https://updates.push.services.mozilla.com/wpush/v2/x", false).is_ok());
        assert_eq!(parse("http://push.example.com/x", false), Err(EndpointError::NotHttps));
        assert_eq!(parse("ftp://push.example.com/x", true), Err(EndpointError::NotHttps));
        assert_eq!(parse("https://user:pw@push.example.com/x", false), Err(EndpointError::Credentials));
        assert!(parse("https://push.example.com:443/x", false).is_ok());
        assert_eq!(parse("https://push.example.com:8443/x", false), Err(EndpointError::Port));
        assert_eq!(parse("https://push.example.com:25/x", false), Err(EndpointError::Port));
        assert!(parse("https://push.example.com:8443/x", true).is_ok(), "any port with private push allowed");
        assert_eq!(parse("https://127.0.0.1/x", false), Err(EndpointError::PrivateAddress));
        assert_eq!(parse("https://[::1]/x", false), Err(EndpointError::PrivateAddress));
        assert_eq!(parse("https://169.254.169.254/latest/meta-data", false), Err(EndpointError::PrivateAddress));
        assert_eq!(parse("https://localhost/x", false), Err(EndpointError::PrivateAddress));
        assert_eq!(parse("https://0x7f000001/x", false), Err(EndpointError::PrivateAddress), "hex IPv4 is still loopback");
        assert_eq!(parse("not a url", false), Err(EndpointError::Invalid));
        assert!(parse("http://127.0.0.1:9999/push/1", true).is_ok(), "allowed for tests and local emulators");
    }

    #[test]
    fn every_resolved_address_must_be_public() {
        assert!(check_resolved(&[ip("8.8.8.8"), ip("1.1.1.1")], false).is_ok());
        assert_eq!(check_resolved(&[ip("8.8.8.8"), ip("10.0.0.1")], false), Err(EndpointError::PrivateAddress));
        assert_eq!(check_resolved(&[], false), Err(EndpointError::Unresolvable));
        assert!(check_resolved(&[ip("10.0.0.1")], true).is_ok());
    }
}
