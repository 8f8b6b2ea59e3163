//! Where a ring goes: one rule for the push worker and for Send now and trigger links (which
//! answer how many devices they reached before the worker runs). For each person an entry
//! rings for: which of their devices get the push, whether their channels get it; who has no
//! device (their email fallback, if on, is due at once); whether the entry reached no device.

use std::collections::HashMap;

use super::ids::{SubscriptionId, UserId};

/// A device as routing sees it: its id.
pub trait Device {
    fn device_id(&self) -> SubscriptionId;
}

impl Device for SubscriptionId {
    fn device_id(&self) -> SubscriptionId {
        *self
    }
}

/// The devices of one person a ring goes to. `send_to` names devices of whoever chose them
/// (a reminder's owner picks their phone): it narrows a person's devices only when it names
/// one of theirs; anyone else gets it on all of theirs.
pub fn devices_for<D: Device + Clone>(theirs: &[D], send_to: Option<&[SubscriptionId]>) -> Vec<D> {
    let named = send_to.filter(|n| !n.is_empty());
    match named {
        Some(named) if theirs.iter().any(|d| named.contains(&d.device_id())) => {
            theirs.iter().filter(|d| named.contains(&d.device_id())).cloned().collect()
        }
        _ => theirs.to_vec(),
    }
}

/// One person's part of a ring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonRoute<D, C> {
    pub person: UserId,
    /// The devices pushed to (empty: none to reach).
    pub devices: Vec<D>,
    /// Their linked channels the ring also goes to.
    pub channels: Vec<C>,
}

/// Where one entry's ring goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route<D, C> {
    /// Everyone it rings for, in the order given, with their devices and channels.
    pub people: Vec<PersonRoute<D, C>>,
}

impl<D, C> Route<D, C> {
    /// The people no device reaches (a channel does not count: the email fallback is for a
    /// ring no device showed).
    pub fn unreachable(&self) -> impl Iterator<Item = UserId> + '_ {
        self.people.iter().filter(|p| p.devices.is_empty()).map(|p| p.person)
    }

    /// No device at all: the entry closes as `no_devices`.
    pub fn no_devices(&self) -> bool {
        self.people.iter().all(|p| p.devices.is_empty())
    }
}

/// Routes one entry: `recipients` are who it rings for now, `devices` and `channels` what each
/// person has (a person missing from a map has none).
pub fn route<D: Device + Clone, C: Clone>(
    recipients: &[UserId],
    send_to: Option<&[SubscriptionId]>,
    devices: &HashMap<UserId, Vec<D>>,
    channels: &HashMap<UserId, Vec<C>>,
) -> Route<D, C> {
    let people = recipients
        .iter()
        .map(|person| PersonRoute {
            person: *person,
            devices: devices.get(person).map(|theirs| devices_for(theirs, send_to)).unwrap_or_default(),
            channels: channels.get(person).cloned().unwrap_or_default(),
        })
        .collect();
    Route { people }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<SubscriptionId> {
        (0..n).map(|_| SubscriptionId::generate()).collect()
    }

    #[test]
    fn send_to_narrows_only_the_devices_it_names_of_their_owner() {
        let mine = ids(2);
        let theirs = ids(2);
        let send_to = vec![mine[1]];
        assert_eq!(devices_for(&mine, Some(&send_to)), vec![mine[1]], "the chooser's own: narrowed");
        assert_eq!(devices_for(&theirs, Some(&send_to)), theirs, "another person's: all of theirs");
        assert_eq!(devices_for(&mine, None), mine);
        assert_eq!(devices_for(&mine, Some(&[])), mine, "an empty choice is no choice");
        assert!(devices_for::<SubscriptionId>(&[], Some(&send_to)).is_empty());
    }

    #[test]
    fn a_route_says_who_no_device_reaches_and_whether_any_did() {
        let (owner, member, away) = (UserId::generate(), UserId::generate(), UserId::generate());
        let (owner_phone, member_phone) = (SubscriptionId::generate(), SubscriptionId::generate());
        let devices = HashMap::from([(owner, vec![owner_phone, SubscriptionId::generate()]), (member, vec![member_phone])]);
        let channels = HashMap::from([(away, vec!["telegram"])]);
        let r = route(&[owner, member, away], Some(&[owner_phone]), &devices, &channels);
        assert_eq!(r.people[0].devices, vec![owner_phone]);
        assert_eq!(r.people[1].devices, vec![member_phone], "the owner's choice does not silence the member");
        assert_eq!((r.people[2].devices.len(), r.people[2].channels.clone()), (0, vec!["telegram"]));
        assert_eq!(r.unreachable().collect::<Vec<_>>(), vec![away], "a channel is no device: the fallback is due");
        assert!(!r.no_devices());

        let alone = route::<SubscriptionId, &str>(&[away], None, &devices, &channels);
        assert!(alone.no_devices());
    }
}
