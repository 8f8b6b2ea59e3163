//! Every metric Hibiki exports, named once. The Grafana dashboards and the Prometheus alert
//! rules name them too: tests/ops checks those against tests/ops/sample_metrics.txt, and the
//! test below that sample against these names.

pub const BRIEFS_TOTAL: &str = "hibiki_briefs_total";
pub const CALENDAR_FEEDS_RENDERED_TOTAL: &str = "hibiki_calendar_feeds_rendered_total";
pub const CHANNEL_SENDS_TOTAL: &str = "hibiki_channel_sends_total";
pub const CHANNELS_CREATED_TOTAL: &str = "hibiki_channels_created_total";
pub const CSRF_REJECTED_TOTAL: &str = "hibiki_csrf_rejected_total";
pub const DATABASE_UP: &str = "hibiki_database_up";
pub const DELIVERY_LATENESS_SECONDS: &str = "hibiki_delivery_lateness_seconds";
pub const DONE_PUSHES_TOTAL: &str = "hibiki_done_pushes_total";
pub const EMAIL_FALLBACKS_TOTAL: &str = "hibiki_email_fallbacks_total";
pub const ESCALATIONS_TOTAL: &str = "hibiki_escalations_total";
pub const HOUSEKEEPING_RUNS_TOTAL: &str = "hibiki_housekeeping_runs_total";
pub const HTTP_CONNECTIONS_OPEN: &str = "hibiki_http_connections_open";
pub const HTTP_CONNECTIONS_REFUSED_TOTAL: &str = "hibiki_http_connections_refused_total";
pub const HTTP_CONNECTIONS_TIMED_OUT_TOTAL: &str = "hibiki_http_connections_timed_out_total";
pub const HTTP_REQUEST_DURATION_SECONDS: &str = "hibiki_http_request_duration_seconds";
pub const HTTP_REQUESTS_TOTAL: &str = "hibiki_http_requests_total";
pub const IMPORTS_TOTAL: &str = "hibiki_imports_total";
pub const MAIL_FAILED_TOTAL: &str = "hibiki_mail_failed_total";
pub const MAIL_SENT_TOTAL: &str = "hibiki_mail_sent_total";
pub const NOTIFICATION_ACTIONS_TOTAL: &str = "hibiki_notification_actions_total";
pub const NOTIFICATIONS_SHOWN_TOTAL: &str = "hibiki_notifications_shown_total";
pub const OTP_REQUESTED_TOTAL: &str = "hibiki_otp_requested_total";
pub const PUSH_ORIGIN_SATURATED_TOTAL: &str = "hibiki_push_origin_saturated_total";
pub const PUSH_RATE_LIMITED_TOTAL: &str = "hibiki_push_rate_limited_total";
pub const PUSH_RETRIES_TOTAL: &str = "hibiki_push_retries_total";
pub const PUSH_TIMEOUTS_TOTAL: &str = "hibiki_push_timeouts_total";
pub const PUSHES_TOTAL: &str = "hibiki_pushes_total";
pub const QUEUE_DEPTH: &str = "hibiki_queue_depth";
pub const RATE_LIMITED_TOTAL: &str = "hibiki_rate_limited_total";
pub const REMINDERS_CREATED_TOTAL: &str = "hibiki_reminders_created_total";
pub const SCHEDULER_FIRED_TOTAL: &str = "hibiki_scheduler_fired_total";
pub const SCHEDULER_LAST_TICK_TIMESTAMP_SECONDS: &str = "hibiki_scheduler_last_tick_timestamp_seconds";
pub const SCHEDULER_LEADER: &str = "hibiki_scheduler_leader";
pub const SCHEDULER_RELEASED_TOTAL: &str = "hibiki_scheduler_released_total";
pub const SCHEDULER_REQUEUED_TOTAL: &str = "hibiki_scheduler_requeued_total";
pub const SCHEDULER_WHEEL_SIZE: &str = "hibiki_scheduler_wheel_size";
pub const SEND_NOW_TOTAL: &str = "hibiki_send_now_total";
pub const SIGN_IN_TOTAL: &str = "hibiki_sign_in_total";
pub const TRIGGER_USES_TOTAL: &str = "hibiki_trigger_uses_total";
pub const VAPID_SIGNATURES_TOTAL: &str = "hibiki_vapid_signatures_total";
pub const WORKER_RESTARTS_TOTAL: &str = "hibiki_worker_restarts_total";

/// All of the above.
pub const ALL: &[&str] = &[
    BRIEFS_TOTAL,
    CALENDAR_FEEDS_RENDERED_TOTAL,
    CHANNEL_SENDS_TOTAL,
    CHANNELS_CREATED_TOTAL,
    CSRF_REJECTED_TOTAL,
    DATABASE_UP,
    DELIVERY_LATENESS_SECONDS,
    DONE_PUSHES_TOTAL,
    EMAIL_FALLBACKS_TOTAL,
    ESCALATIONS_TOTAL,
    HOUSEKEEPING_RUNS_TOTAL,
    HTTP_CONNECTIONS_OPEN,
    HTTP_CONNECTIONS_REFUSED_TOTAL,
    HTTP_CONNECTIONS_TIMED_OUT_TOTAL,
    HTTP_REQUEST_DURATION_SECONDS,
    HTTP_REQUESTS_TOTAL,
    IMPORTS_TOTAL,
    MAIL_FAILED_TOTAL,
    MAIL_SENT_TOTAL,
    NOTIFICATION_ACTIONS_TOTAL,
    NOTIFICATIONS_SHOWN_TOTAL,
    OTP_REQUESTED_TOTAL,
    PUSH_ORIGIN_SATURATED_TOTAL,
    PUSH_RATE_LIMITED_TOTAL,
    PUSH_RETRIES_TOTAL,
    PUSH_TIMEOUTS_TOTAL,
    PUSHES_TOTAL,
    QUEUE_DEPTH,
    RATE_LIMITED_TOTAL,
    REMINDERS_CREATED_TOTAL,
    SCHEDULER_FIRED_TOTAL,
    SCHEDULER_LAST_TICK_TIMESTAMP_SECONDS,
    SCHEDULER_LEADER,
    SCHEDULER_RELEASED_TOTAL,
    SCHEDULER_REQUEUED_TOTAL,
    SCHEDULER_WHEEL_SIZE,
    SEND_NOW_TOTAL,
    SIGN_IN_TOTAL,
    TRIGGER_USES_TOTAL,
    VAPID_SIGNATURES_TOTAL,
    WORKER_RESTARTS_TOTAL,
];

#[cfg(test)]
mod tests {
    /// The sample the dashboards and alerts are checked against holds only metrics the code
    /// exports (a renamed metric would leave a panel reading nothing).
    #[test]
    fn the_ops_sample_names_only_exported_metrics() {
        let sample = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/ops/sample_metrics.txt")).unwrap();
        let mut seen = 0;
        for line in sample.lines().filter(|l| l.starts_with("hibiki_")) {
            let name = line.split(['{', ' ']).next().unwrap();
            let base = ["_bucket", "_sum", "_count"].iter().find_map(|s| name.strip_suffix(s)).filter(|b| super::ALL.contains(b));
            assert!(super::ALL.contains(&name) || base.is_some(), "{name} is in the sample but not in metric_names.rs");
            seen += 1;
        }
        assert!(seen > 20, "read the sample: {seen} lines");
    }
}
