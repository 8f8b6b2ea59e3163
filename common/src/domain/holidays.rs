//! Japanese public holidays (国民の祝日, 振替休日, 国民の休日), from the table shipped in the
//! binary: `common/data/jp-holidays.csv`, written by `scripts/update-holidays.py` from a
//! maintained source. A date outside the table's years counts as no holiday; the health
//! check warns 90 days before the table runs out.

use std::sync::OnceLock;

use jiff::civil::{Date, Weekday};

const TABLE: &str = include_str!("../../data/jp-holidays.csv");

/// The shipped table: the years it covers and its holidays, sorted.
#[derive(Debug)]
pub struct HolidayTable {
    pub first: Date,
    pub last: Date,
    days: Vec<(Date, String)>,
}

/// The table, read once.
pub fn table() -> &'static HolidayTable {
    static PARSED: OnceLock<HolidayTable> = OnceLock::new();
    PARSED.get_or_init(|| parse(TABLE).expect("the shipped holiday table is well formed (a unit test reads it)"))
}

fn parse(text: &str) -> Result<HolidayTable, String> {
    let mut covers = None;
    let mut days = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("# covers,") {
            let (first, last) = rest.split_once(',').ok_or_else(|| format!("bad covers line {line:?}"))?;
            covers = Some((date(first)?, date(last)?));
        } else if !line.starts_with('#') {
            let (day, name) = line.split_once(',').ok_or_else(|| format!("bad line {line:?}"))?;
            days.push((date(day)?, name.to_owned()));
        }
    }
    let (first, last) = covers.ok_or("no covers line")?;
    days.sort();
    Ok(HolidayTable { first, last, days })
}

fn date(text: &str) -> Result<Date, String> {
    text.parse().map_err(|e| format!("{text:?}: {e}"))
}

impl HolidayTable {
    /// The holiday's name (元日, 振替休日...), or None for a day that is not one.
    pub fn name(&self, day: Date) -> Option<&str> {
        self.days.binary_search_by_key(&day, |(d, _)| *d).ok().map(|i| self.days[i].1.as_str())
    }

    pub fn is_holiday(&self, day: Date) -> bool {
        self.name(day).is_some()
    }

    /// Monday to Friday and not a holiday.
    pub fn is_business_day(&self, day: Date) -> bool {
        !matches!(day.weekday(), Weekday::Saturday | Weekday::Sunday) && !self.is_holiday(day)
    }

    /// `ok`, `expiring` (the table ends within 90 days of `today`) or `expired`: the health
    /// check's word for the table (update Hibiki to extend it).
    pub fn coverage(&self, today: Date) -> &'static str {
        if today > self.last {
            "expired"
        } else if today.checked_add(jiff::Span::new().days(90)).is_ok_and(|d| d > self.last) {
            "expiring"
        } else {
            "ok"
        }
    }

    /// [`HolidayTable::coverage`] on today's date in Japan.
    pub fn coverage_now(&self) -> &'static str {
        let tokyo = jiff::tz::TimeZone::get("Asia/Tokyo").unwrap_or(jiff::tz::TimeZone::UTC);
        self.coverage(jiff::Timestamp::now().to_zoned(tokyo).date())
    }

    /// The holidays in `[from, to]`.
    pub fn between(&self, from: Date, to: Date) -> impl Iterator<Item = (Date, &str)> {
        let start = self.days.partition_point(|(d, _)| *d < from);
        self.days[start..].iter().take_while(move |(d, _)| *d <= to).map(|(d, n)| (*d, n.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn the_shipped_table_reads_and_covers_this_year_and_next() {
        let t = table();
        assert!(t.first <= date(2026, 1, 1) && t.last >= date(2027, 12, 31), "{:?}..{:?}", t.first, t.last);
        assert!(t.days.windows(2).all(|w| w[0].0 < w[1].0), "sorted, no date twice");
        assert!(t.days.iter().all(|(d, _)| *d >= t.first && *d <= t.last));
    }

    /// The Cabinet Office's published list for 2026 and 2027 (内閣府「国民の祝日について」).
    #[test]
    fn fixed_vectors_2026_and_2027() {
        let t = table();
        let expected = [
            ((2026, 1, 1), "元日"),
            ((2026, 1, 12), "成人の日"),
            ((2026, 2, 11), "建国記念の日"),
            ((2026, 2, 23), "天皇誕生日"),
            ((2026, 3, 20), "春分の日"),
            ((2026, 4, 29), "昭和の日"),
            ((2026, 5, 3), "憲法記念日"),
            ((2026, 5, 4), "みどりの日"),
            ((2026, 5, 5), "こどもの日"),
            ((2026, 5, 6), "振替休日"),
            ((2026, 7, 20), "海の日"),
            ((2026, 8, 11), "山の日"),
            ((2026, 9, 21), "敬老の日"),
            ((2026, 9, 22), "国民の休日"),
            ((2026, 9, 23), "秋分の日"),
            ((2026, 10, 12), "スポーツの日"),
            ((2026, 11, 3), "文化の日"),
            ((2026, 11, 23), "勤労感謝の日"),
            ((2027, 1, 1), "元日"),
            ((2027, 1, 11), "成人の日"),
            ((2027, 2, 11), "建国記念の日"),
            ((2027, 2, 23), "天皇誕生日"),
            ((2027, 3, 21), "春分の日"),
            ((2027, 3, 22), "振替休日"),
            ((2027, 4, 29), "昭和の日"),
            ((2027, 5, 3), "憲法記念日"),
            ((2027, 5, 4), "みどりの日"),
            ((2027, 5, 5), "こどもの日"),
            ((2027, 7, 19), "海の日"),
            ((2027, 8, 11), "山の日"),
            ((2027, 9, 20), "敬老の日"),
            ((2027, 9, 23), "秋分の日"),
            ((2027, 10, 11), "スポーツの日"),
            ((2027, 11, 3), "文化の日"),
            ((2027, 11, 23), "勤労感謝の日"),
        ];
        let got: Vec<(Date, &str)> = t.between(date(2026, 1, 1), date(2027, 12, 31)).collect();
        let want: Vec<(Date, &str)> = expected.iter().map(|&((y, m, d), n)| (date(y, m, d), n)).collect();
        assert_eq!(got, want);
        assert!(!t.is_holiday(date(2026, 1, 2)));
        assert!(t.is_business_day(date(2026, 9, 24)));
        assert!(!t.is_business_day(date(2026, 9, 22)), "国民の休日");
        assert!(!t.is_business_day(date(2026, 9, 26)), "a Saturday");
    }

    #[test]
    fn coverage_warns_90_days_ahead() {
        let t = table();
        let last = t.last;
        assert_eq!(t.coverage(last.checked_sub(jiff::Span::new().days(91)).unwrap()), "ok");
        assert_eq!(t.coverage(last.checked_sub(jiff::Span::new().days(89)).unwrap()), "expiring");
        assert_eq!(t.coverage(last), "expiring");
        assert_eq!(t.coverage(last.tomorrow().unwrap()), "expired");
    }

    #[test]
    fn a_broken_table_is_an_error_not_a_guess() {
        assert!(parse("2026-01-01,元日\n").is_err(), "no covers line");
        assert!(parse("# covers,2026-01-01,2026-12-31\n2026-13-01,x\n").is_err());
    }
}
