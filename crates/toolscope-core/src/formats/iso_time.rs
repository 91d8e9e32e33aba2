//! RFC 3339 timestamps (`2026-12-02T04:06:09.657218Z`), as the OpenTelemetry Python SDK's
//! `span.to_json()` writes a span's `start_time`, read as nanoseconds since the Unix epoch so
//! that such spans sort as OTLP's `startTimeUnixNano` does.

/// Nanoseconds since 1970-01-01T00:00:00Z, or `None` when the text is not an RFC 3339 date-time
/// (a `Z` or `±HH:MM` offset, at most nine fraction digits, a date from 1970 on).
pub(crate) fn unix_nanos(text: &str) -> Option<u128> {
    let bytes = text.as_bytes();
    if bytes.len() < 20 || !matches!(bytes[10], b'T' | b't' | b' ') {
        return None;
    }
    let number = |from: usize, to: usize| digits(text.get(from..to)?);
    let separators = [(4, b'-'), (7, b'-'), (13, b':'), (16, b':')];
    if separators.iter().any(|&(at, byte)| bytes[at] != byte) {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    let mut rest = &text[19..];
    let mut nanos = 0i64;
    if let Some(fraction) = rest.strip_prefix('.') {
        let length = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if length == 0 || length > 9 {
            return None;
        }
        nanos = fraction[..length].parse::<i64>().ok()? * 10i64.pow(9 - length as u32);
        rest = &fraction[length..];
    }
    let offset_seconds = match rest {
        "Z" | "z" => 0,
        _ if rest.len() == 6 && rest.as_bytes()[3] == b':' => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            sign * (digits(rest.get(1..3)?)? * 3600 + digits(rest.get(4..6)?)? * 60)
        }
        _ => return None,
    };
    let seconds = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
        - offset_seconds;
    let total = i128::from(seconds) * 1_000_000_000 + i128::from(nanos);
    u128::try_from(total).ok()
}

/// A run of ASCII digits as a number.
fn digits(text: &str) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_sdk_start_times_read_as_unix_nanoseconds() {
        assert_eq!(unix_nanos("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            unix_nanos("2018-12-13T14:51:00.000000Z"),
            Some(1_544_712_660_000_000_000)
        );
        assert_eq!(
            unix_nanos("2026-12-02T04:06:09.657218Z"),
            Some(1_796_184_369_657_218_000)
        );
        assert_eq!(
            unix_nanos("2026-12-02T06:06:09.5+02:00"),
            Some(1_796_184_369_500_000_000)
        );
    }

    #[test]
    fn text_that_is_not_a_timestamp_has_no_time() {
        for text in [
            "",
            "2026-12-02",
            "2026-12-02T04:06:09",
            "2026-13-02T04:06:09Z",
            "2026-12-02T04:06:09.Z",
            "2026-12-02T04:06:09.1234567890Z",
            "1969-12-31T23:59:59Z",
            "2026-12-02T04:06:09+0200",
            "２０２６-12-02T04:06:09Z",
        ] {
            assert_eq!(unix_nanos(text), None, "{text}");
        }
    }
}
