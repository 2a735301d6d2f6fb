#include "hotel/notification_worker.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "common/logging.h"
#include "common/metrics.h"
#include "common/uuid.h"

namespace hotel {

namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// hotel_notifications_total{outcome}: delivery attempts by outcome (docs/operations.md).
common::metrics::Counter& Outcome(const char* outcome) {
  return common::metrics::Registry::Global().counter(
      "hotel_notifications_total",
      "Notification delivery attempts, by outcome (delivered, retry, given_up).",
      {{"outcome", outcome}});
}

}  // namespace

NotificationWorker::NotificationWorker(Repository* repository, MailSender* sender,
                                       NotificationWorkerOptions options)
    : repository_(repository), sender_(sender), options_(std::move(options)) {}

NotificationWorker::~NotificationWorker() { Stop(); }

void NotificationWorker::Start(std::chrono::milliseconds interval) {
  scheduler_ = std::make_unique<RepairScheduler>(interval, [this] {
    auto report = RunOnce(NowMillis());
    if (!report.ok()) {
      LOG_WARNING("hotel notify: pass failed: {}", report.status().ToString());
    } else if (report->delivered + report->failed + report->given_up > 0) {
      LOG_INFO("hotel notify: {} delivered, {} to retry, {} given up ({})", report->delivered,
               report->failed, report->given_up, sender_->Describe());
    }
  });
}

void NotificationWorker::Stop() {
  stopped_.store(true);
  if (scheduler_) scheduler_->Stop();
}

int64_t NotificationWorker::Backoff(int attempt) const {
  int64_t delay = options_.backoff_base_millis;
  for (int i = 1; i < attempt && delay < options_.backoff_max_millis; ++i) delay *= 2;
  return std::min(delay, options_.backoff_max_millis);
}

common::Result<bool> NotificationWorker::Deliver(const Notification& notification,
                                                 int64_t now_millis, NotifyReport& report) {
  if (notification.next_attempt_at_millis > now_millis) {
    ++report.waiting;
    return false;
  }
  ASSIGN_OR_RETURN(bool claimed,
                   repository_->ClaimNotification(notification, notification.attempts,
                                                  now_millis + options_.lease_millis));
  if (!claimed) {  // another worker took it between our read and our claim
    ++report.waiting;
    return false;
  }
  int attempt = notification.attempts + 1;
  common::Status sent = sender_->Send(RenderNotification(notification, options_.from));
  if (sent.ok()) {
    RETURN_IF_ERROR(repository_->RecordNotificationDelivered(notification, now_millis));
    ++report.delivered;
    Outcome("delivered").Increment();
    return true;
  }
  bool give_up = sent.code() == common::StatusCode::kInvalid || attempt >= options_.max_attempts;
  ASSIGN_OR_RETURN(bool recorded, repository_->RecordNotificationFailure(
                                      notification, attempt, sent.message(), now_millis,
                                      now_millis + Backoff(attempt), give_up));
  LOG_WARNING("hotel notify: {} of {} to {} failed (attempt {}{}): {}",
              NotificationKindName(notification.kind), notification.confirmation_number,
              sender_->Describe(), attempt, give_up ? ", giving up" : "", sent.message());
  if (give_up) {
    ++report.given_up;
    Outcome("given_up").Increment();
    return recorded;
  }
  ++report.failed;
  Outcome("retry").Increment();
  return false;
}

common::Result<NotifyReport> NotificationWorker::RunOnce(int64_t now_millis) {
  std::lock_guard<std::mutex> lock(run_mutex_);
  NotifyReport report;
  ASSIGN_OR_RETURN(std::optional<int64_t> checkpoint,
                   repository_->NotificationCheckpoint(options_.worker));
  int64_t from = checkpoint.value_or(now_millis - options_.first_lookback_millis);
  std::optional<int64_t> first_open;  // the time of the first notification not done
  int32_t last_hour = HourBucket(now_millis);
  for (int32_t hour = HourBucket(from); hour <= last_hour; hour = NextHourBucket(hour)) {
    common::Uuid after = common::MinTimeuuid(std::max(from, HourBucketStartMillis(hour)) - 1);
    for (;;) {
      if (stopped_.load()) {
        report.done_before_millis = from;
        return report;  // the checkpoint stays: the unread hours are read next time
      }
      ASSIGN_OR_RETURN(std::vector<Notification> page,
                       repository_->NotificationsInHour(hour, after, options_.page_size));
      for (const Notification& notification : page) {
        ++report.read;
        bool done = notification.done();
        if (!done) {
          ASSIGN_OR_RETURN(done, Deliver(notification, now_millis, report));
        }
        if (!done && !first_open) first_open = notification.at_millis();
      }
      if (page.size() < static_cast<size_t>(options_.page_size)) break;
      after = page.back().notification_id;
    }
  }
  int64_t done_before = std::min(first_open.value_or(std::numeric_limits<int64_t>::max()),
                                 now_millis - options_.settle_millis);
  if (done_before > from) {
    RETURN_IF_ERROR(
        repository_->SetNotificationCheckpoint(options_.worker, done_before, now_millis));
  }
  report.done_before_millis = std::max(done_before, from);
  return report;
}

}  // namespace hotel
