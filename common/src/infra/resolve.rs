//! DNS look-ups for addresses people give (push endpoints, channel URLs): the answers are
//! judged by the domain's rule (`domain::push_endpoint::check_resolved`).

use std::net::IpAddr;

use url::Url;

use crate::domain::push_endpoint::{EndpointError, check_resolved};

/// How long a look-up may take before the address counts as unresolvable.
const LOOKUP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Resolves the URL's host and checks every answer.
pub async fn check_dns(url: &Url, allow_private: bool) -> Result<(), EndpointError> {
    let host = url.host_str().ok_or(EndpointError::Invalid)?;
    let port = url.port_or_known_default().unwrap_or(443);
    let lookup = tokio::time::timeout(LOOKUP_TIMEOUT, tokio::net::lookup_host((host.trim_matches(['[', ']']), port)))
        .await
        .map_err(|_| EndpointError::Unresolvable)?
        .map_err(|_| EndpointError::Unresolvable)?;
    let addrs: Vec<IpAddr> = lookup.map(|a| a.ip()).collect();
    check_resolved(&addrs, allow_private)
}
