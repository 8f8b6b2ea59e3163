//! Lists (decisions.md "Households"): every reminder belongs to one; each account has a default
//! list and up to [`MAX_OWNED_LISTS`] more. Also the folding that search compares by.

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;
use utoipa::ToSchema;

use crate::domain::ids::{InviteId, ListId, UserId};
use crate::domain::reminder::is_bidi_control;
use crate::domain::states::Language;
use crate::error::{FieldCode, FieldErrors};

/// Lists an account may own besides its default list.
pub const MAX_OWNED_LISTS: usize = 50;
/// People in one list, its owner and pending invitations included.
pub const MAX_LIST_PEOPLE: usize = 10;
/// Invitations one owner may send in 24 hours.
pub const INVITES_PER_DAY: usize = 10;
/// How long an invitation can be accepted.
pub const INVITE_VALID: jiff::SignedDuration = jiff::SignedDuration::from_hours(24 * 7);
pub const MAX_LIST_NAME_CHARS: usize = 50;

/// A list's colour, from a closed set the app has a swatch for in light and dark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ListColour {
    Red,
    Orange,
    Yellow,
    Green,
    Teal,
    #[default]
    Blue,
    Purple,
    Gray,
}

impl ListColour {
    pub const ALL: [ListColour; 8] = [Self::Red, Self::Orange, Self::Yellow, Self::Green, Self::Teal, Self::Blue, Self::Purple, Self::Gray];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Red => "red",
            Self::Orange => "orange",
            Self::Yellow => "yellow",
            Self::Green => "green",
            Self::Teal => "teal",
            Self::Blue => "blue",
            Self::Purple => "purple",
            Self::Gray => "gray",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == text)
    }
}

/// A person's part in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ListRole {
    Owner,
    Member,
}

impl ListRole {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Owner => "owner",
            Self::Member => "member",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "owner" => Some(Self::Owner),
            "member" => Some(Self::Member),
            _ => None,
        }
    }
}

/// A list as the API answers it, for one reader.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct List {
    #[schema(value_type = String)]
    pub id: ListId,
    /// The default list's name is 「リマインダー」 / "Reminders" in the reader's language until
    /// its owner renames it.
    pub name: String,
    pub colour: ListColour,
    pub is_default: bool,
    /// The reader's part in it.
    pub role: ListRole,
    /// How many people it has, the owner included.
    pub members: i64,
    pub active_reminders: i64,
    #[schema(value_type = String)]
    pub owner_id: UserId,
}

/// `POST /api/lists` body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ListInput {
    pub name: String,
    #[serde(default)]
    pub colour: Option<ListColour>,
}

/// `PUT /api/lists/{id}` body.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ListPatch {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub colour: Option<ListColour>,
}

/// Where a reminder lives and who it rings for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub list_id: ListId,
    /// The list's owner: the reminder counts against their active limit.
    pub owner: UserId,
    /// Who adds it.
    pub created_by: UserId,
    pub assignees: Vec<UserId>,
    pub rotate: bool,
}

/// Checks who a reminder of a list with `members` rings for: each assignee a member (named
/// once, in the order given); `rotate` only with two or more of them.
pub fn check_assignees(assignees: Vec<UserId>, rotate: bool, members: &[UserId], errors: &mut FieldErrors) -> (Vec<UserId>, bool) {
    let mut kept: Vec<UserId> = Vec::with_capacity(assignees.len());
    for a in assignees {
        if !members.contains(&a) {
            errors.add("assignees", FieldCode::InvalidChoice.because("Every assignee must be a member of the reminder's list"));
            break;
        }
        if !kept.contains(&a) {
            kept.push(a);
        }
    }
    if rotate && kept.len() < 2 {
        errors.add("rotate", FieldCode::TooShort.because("Rotation needs two or more assignees").with("min", 2));
    }
    (kept, rotate)
}

/// A person in a list, as its members see them (co-members see each other's addresses).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Member {
    #[schema(value_type = String)]
    pub user_id: UserId,
    pub email: String,
    pub role: ListRole,
    #[schema(value_type = String, format = DateTime)]
    pub joined_at: jiff::Timestamp,
}

/// A pending invitation, as its list's owner sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Invite {
    #[schema(value_type = String)]
    pub id: InviteId,
    pub email: String,
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: jiff::Timestamp,
}

/// What an invitation link shows before it is accepted: addresses masked.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InvitePeek {
    pub list_name: String,
    /// Who invited, masked (`a***@example.com`).
    pub inviter: String,
    /// The invited address, masked: the account to sign in with.
    pub email: String,
}

/// `POST /api/lists/{id}/invites` body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct InviteInput {
    pub email: String,
}

/// `POST /api/invites/peek` and `/accept` body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct InviteToken {
    pub token: String,
}

/// Who a reminder rings for once `leaving` is no longer in its list: the others named, and
/// rotation only while two or more remain.
pub fn without_member(assignees: &[UserId], rotate: bool, leaving: &UserId) -> (Vec<UserId>, bool) {
    let kept: Vec<UserId> = assignees.iter().filter(|a| *a != leaving).copied().collect();
    let rotate = rotate && kept.len() >= 2;
    (kept, rotate)
}

/// Whose turn occurrence number `index` of a rotating reminder is (None: it rings for every
/// assignee, or everyone). Assignees are always members: a member who leaves is taken out of
/// them ([`without_member`]), so the turn skips them and the order stays.
pub fn turn(assignees: &[UserId], rotate: bool, index: u64) -> Option<UserId> {
    if !rotate || assignees.len() < 2 {
        return None;
    }
    Some(assignees[(index % assignees.len() as u64) as usize])
}

/// Who one ring of a reminder goes to: the people the entry names (a personal snooze, a
/// rotation's turn), else its assignees, else every member; never someone no longer in the
/// list. A repeat leaves out whoever snoozed the occurrence: their snooze rings for them.
pub fn recipients(members: &[UserId], assignees: &[UserId], named: Option<&[UserId]>, snoozing: &[UserId]) -> Vec<UserId> {
    let base: &[UserId] = match named {
        Some(named) => named,
        None if assignees.is_empty() => members,
        None => assignees,
    };
    let mut out: Vec<UserId> = Vec::with_capacity(base.len());
    for u in base {
        if members.contains(u) && !snoozing.contains(u) && !out.contains(u) {
            out.push(*u);
        }
    }
    out
}

/// The default list's name until renamed.
pub fn default_list_name(language: Language) -> &'static str {
    match language {
        Language::Ja => "リマインダー",
        Language::En => "Reminders",
    }
}

/// Trims a list name and checks it (1–50 characters, no control or bidi marks).
pub fn check_list_name(name: &str, errors: &mut FieldErrors) -> String {
    let name = name.trim().to_owned();
    let chars = name.chars().count();
    if chars == 0 {
        errors.add("name", FieldCode::Required.because("A list needs a name"));
    } else if chars > MAX_LIST_NAME_CHARS {
        errors.add(
            "name",
            FieldCode::TooLong
                .because(format!("A list's name must be at most {MAX_LIST_NAME_CHARS} characters"))
                .with("max", MAX_LIST_NAME_CHARS as i64),
        );
    }
    if name.chars().any(|c| c.is_control() || is_bidi_control(c)) {
        errors.add("name", FieldCode::InvalidCharacters.because("A list's name must not contain control characters"));
    }
    name
}

/// Text as search compares it: NFKC (full-width letters and half-width kana become their usual
/// forms), lower case, and katakana as hiragana, so 「ギュウニュウ」, 「ぎゅうにゅう」 and
/// 「ｷﾞｭｳﾆｭｳ」 read alike, as do "milk" and 「ｍｉｌｋ」.
pub fn fold_for_search(text: &str) -> String {
    text.nfkc()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            // Katakana ァ..ヶ and the iteration marks ヽヾ sit 0x60 above their hiragana.
            '\u{30A1}'..='\u{30F6}' | '\u{30FD}'..='\u{30FE}' => char::from_u32(c as u32 - 0x60).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// Whether a reminder's title or description holds the query, as search folds both.
pub fn matches_search(folded_query: &str, title: &str, description: Option<&str>) -> bool {
    folded_query.is_empty()
        || fold_for_search(title).contains(folded_query)
        || description.is_some_and(|d| fold_for_search(d).contains(folded_query))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn people(n: u128) -> Vec<UserId> {
        (1..=n).map(|i| UserId::from(uuid::Uuid::from_u128(i))).collect()
    }

    #[test]
    fn a_rotation_takes_turns_in_the_order_given_and_skips_who_left() {
        let p = people(3);
        let order = [p[2], p[0], p[1]];
        let turns: Vec<_> = (0..5).map(|i| turn(&order, true, i).unwrap()).collect();
        assert_eq!(turns, [p[2], p[0], p[1], p[2], p[0]]);
        assert_eq!(turn(&order, false, 0), None);
        assert_eq!(turn(&order[..1], true, 0), None, "one assignee is no rotation");
        // p[0] leaves: the turn goes to the next in the order that is still there
        let (kept, rotate) = without_member(&order, true, &p[0]);
        assert_eq!((0..3).map(|i| turn(&kept, rotate, i).unwrap()).collect::<Vec<_>>(), [p[2], p[1], p[2]]);
    }

    #[test]
    fn a_ring_goes_to_the_named_else_the_assignees_else_everyone_in_the_list() {
        let p = people(4);
        let members = &p[..3];
        assert_eq!(recipients(members, &[], None, &[]), members);
        assert_eq!(recipients(members, &[p[1]], None, &[]), [p[1]]);
        assert_eq!(recipients(members, &[p[1]], Some(&[p[2]]), &[]), [p[2]], "a personal entry is for its person only");
        assert_eq!(recipients(members, &[], Some(&[p[3]]), &[]), Vec::<UserId>::new(), "someone who left gets nothing");
        assert_eq!(recipients(members, &[], None, &[p[0]]), [p[1], p[2]], "who snoozed is left out of the repeat");
    }

    #[test]
    fn search_folds_both_scripts_and_every_width() {
        assert_eq!(fold_for_search("ギュウニュウ"), "ぎゅうにゅう");
        assert_eq!(fold_for_search("ｷﾞｭｳﾆｭｳ"), "ぎゅうにゅう");
        assert_eq!(fold_for_search("ｍｉｌｋ"), "milk");
        assert_eq!(fold_for_search("MILK"), "milk");
        assert_eq!(fold_for_search("ヴ"), "ゔ");
        // Kanji, the long vowel mark and hiragana stay as they are.
        assert_eq!(fold_for_search("牛乳ー"), "牛乳ー");
        assert!(matches_search(&fold_for_search("ぎゅうにゅう"), "ギュウニュウを買う", None));
        assert!(matches_search(&fold_for_search("milk"), "買い物", Some("ｍｉｌｋ 2本")));
        assert!(!matches_search(&fold_for_search("tea"), "買い物", Some("milk")));
    }

    #[test]
    fn list_names_are_trimmed_and_bounded() {
        let mut errors = FieldErrors::default();
        assert_eq!(check_list_name("  薬  ", &mut errors), "薬");
        assert!(errors.into_result().is_ok());
        for bad in ["", "   ", &"あ".repeat(51), "a\u{202E}b", "a\nb"] {
            let mut errors = FieldErrors::default();
            check_list_name(bad, &mut errors);
            assert!(errors.into_result().is_err(), "{bad:?}");
        }
        let mut errors = FieldErrors::default();
        check_list_name(&"あ".repeat(50), &mut errors);
        assert!(errors.into_result().is_ok());
    }

    #[test]
    fn assignees_are_members_named_once_and_rotation_needs_two() {
        let [a, b, stranger] = [UserId::generate(), UserId::generate(), UserId::generate()];
        let mut errors = FieldErrors::default();
        assert_eq!(check_assignees(vec![b, a, b], true, &[a, b], &mut errors), (vec![b, a], true));
        assert!(errors.into_result().is_ok());
        let mut errors = FieldErrors::default();
        check_assignees(vec![a, stranger], false, &[a, b], &mut errors);
        assert!(errors.into_result().is_err());
        let mut errors = FieldErrors::default();
        check_assignees(vec![a, a], true, &[a, b], &mut errors);
        assert!(errors.into_result().is_err());
        let mut errors = FieldErrors::default();
        assert_eq!(check_assignees(Vec::new(), false, &[a], &mut errors), (Vec::new(), false));
        assert!(errors.into_result().is_ok());
    }

    #[test]
    fn a_member_who_leaves_is_no_longer_an_assignee() {
        let [a, b, c] = [UserId::generate(), UserId::generate(), UserId::generate()];
        assert_eq!(without_member(&[a, b, c], true, &b), (vec![a, c], true));
        assert_eq!(without_member(&[a, b], true, &b), (vec![a], false));
        assert_eq!(without_member(&[a], false, &b), (vec![a], false));
        // Only one named: with them gone, the reminder rings for everyone in the list.
        assert_eq!(without_member(&[b], false, &b), (Vec::new(), false));
    }

    #[test]
    fn colours_are_a_closed_set() {
        for c in ListColour::ALL {
            assert_eq!(ListColour::parse(c.as_str()), Some(c));
            assert_eq!(serde_json::to_value(c).unwrap(), serde_json::json!(c.as_str()));
        }
        assert_eq!(ListColour::parse("pink"), None);
        assert!(serde_json::from_value::<ListColour>(serde_json::json!("grey")).is_err());
    }
}
