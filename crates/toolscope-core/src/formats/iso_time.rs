//! RFC 3339 timestamps in UTC (`2026-12-02T04:06:09.657218Z`), as the OpenTelemetry Python SDK's
//! `span.to_json()` writes a span's `start_time` and its log records' timestamps, read as
//! nanoseconds since the Unix epoch so that such spans sort as OTLP's `startTimeUnixNano` does.

use std::time::UNIX_EPOCH;

use serde_json::Value;

/// A time in nanoseconds since the Unix epoch: OTLP's (`nanos`, a decimal string or a number),
/// else the Python SDK's RFC 3339 text (`iso`).
pub(crate) fn nanos_or_iso(nanos: Option<&Value>, iso: Option<&Value>) -> Option<u128> {
    let nanos = nanos.and_then(|time| match time {
        Value::String(text) => text.parse().ok(),
        Value::Number(number) => number.as_u64().map(u128::from),
        _ => None,
    });
    nanos.or_else(|| unix_nanos(iso?.as_str()?))
}

/// Nanoseconds since 1970-01-01T00:00:00Z, or `None` when the text is not an RFC 3339 date-time
/// in UTC (`Z` or `+00:00`, which is what the SDK writes; `humantime::parse_rfc3339`).
pub(crate) fn unix_nanos(text: &str) -> Option<u128> {
    let time = humantime::parse_rfc3339(text).ok()?;
    Some(time.duration_since(UNIX_EPOCH).ok()?.as_nanos())
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
            unix_nanos("2026-12-02T04:06:09.5+00:00"),
            Some(1_796_184_369_500_000_000)
        );
    }

    #[test]
    fn otlp_nanoseconds_come_before_the_rfc_3339_text() {
        let iso = Value::from("1970-01-01T00:00:01Z");
        assert_eq!(nanos_or_iso(Some(&Value::from("42")), Some(&iso)), Some(42));
        assert_eq!(nanos_or_iso(Some(&Value::from(42)), None), Some(42));
        assert_eq!(
            nanos_or_iso(Some(&Value::from("soon")), Some(&iso)),
            Some(1_000_000_000)
        );
        assert_eq!(nanos_or_iso(None, Some(&iso)), Some(1_000_000_000));
        assert_eq!(nanos_or_iso(None, Some(&Value::from(1))), None);
        assert_eq!(nanos_or_iso(None, None), None);
    }

    #[test]
    fn text_that_is_not_a_utc_timestamp_has_no_time() {
        for text in [
            "",
            "2026-12-02",
            "2026-12-02T04:06:09",
            "2026-13-02T04:06:09Z",
            "1969-12-31T23:59:59Z",
            "2026-12-02T06:06:09+02:00",
            "２０２６-12-02T04:06:09Z",
            "2026-12-02T04:06:09Zé",
        ] {
            assert_eq!(unix_nanos(text), None, "{text}");
        }
    }
}
