// NotificationWorker: delivers the outbox (`notifications_by_hour`, notification.h) — `hotel
// notify`, and the worker `hotel serve --notify-maildir` runs in-process (docs/operations.md,
// "Notifications").
//
// A pass (`RunOnce`):
//   1. reads the checkpoint (`notification_checkpoints_by_worker`): every notification before it is
//   done
//      (delivered or given up). The first pass starts `first_lookback` ago;
//   2. reads the hour buckets from the checkpoint's hour to the current one, oldest first, each
//      as clustering slices (`notification_id > last`, `page_size` rows at a time);
//   3. for each notification not done and due (`next_attempt_at` passed): claims an attempt
//      with a conditional update (`attempts` n -> n+1, `next_attempt_at` = now + `lease`), so two
//      workers never send the same notification at once; renders it; hands it to the sender;
//      records `delivered_at`, or the error with a retry time (exponential backoff from
//      `backoff_base`, at most `backoff_max`), or gives up (`failed_at`) after `max_attempts`
//      or at once on a permanent refusal (MailSender: kInvalid);
//   4. moves the checkpoint to the first notification still not done, but never past
//      now - `settle`: a booking whose event id was taken just before the pass may commit just
//      after it, so the last `settle` of the outbox is read again by the next pass.
//
// Invariants (docs/reliability.md, "Notifications"):
//   (N1) at least once: a notification is marked delivered only after the sender accepted it;
//        a worker that dies between claim and send leaves a lease that expires, one that dies
//        between send and record sends again after the lease — the same Message-ID, so mail
//        clients show it once;
//   (N2) in the normal path, once: the claim is conditional, delivered rows are skipped;
//   (N3) nothing is deleted: delivery state lives in the row, whole hours expire by TTL.
//
// Thread-safety: thread-safe; passes never overlap (RunOnce holds a mutex; the background
// thread is the only other caller).

#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "common/result.h"
#include "hotel/mail_sender.h"
#include "hotel/notification_email.h"
#include "hotel/repair_scheduler.h"
#include "hotel/repository.h"

namespace hotel {

struct NotificationWorkerOptions {
  std::string worker = "notify";  // the checkpoint's key
  MailIdentity from;
  int64_t settle_millis = 2 * 60 * 1000;
  int64_t lease_millis = 60 * 1000;
  int64_t first_lookback_millis = 7LL * 24 * 60 * 60 * 1000;
  int max_attempts = 8;  // 30 s, 1, 2, 4, 8, 15, 15 min apart: given up after about 45 min
  int64_t backoff_base_millis = 30 * 1000;
  int64_t backoff_max_millis = 15 * 60 * 1000;
  int32_t page_size = 200;
};

// What one pass did.
struct NotifyReport {
  int read = 0;                    // notifications read (done ones included)
  int delivered = 0;               // handed to the sender and recorded
  int failed = 0;                  // attempts that failed and will be retried
  int given_up = 0;                // attempts that failed for good
  int waiting = 0;                 // not due yet (a retry's backoff, or another worker's lease)
  int64_t done_before_millis = 0;  // the checkpoint after the pass
};

class NotificationWorker {
 public:
  // REQUIRES: `repository` and `sender` outlive the worker.
  NotificationWorker(Repository* repository, MailSender* sender, NotificationWorkerOptions options);
  // Stops the background thread (Stop).
  ~NotificationWorker();
  NotificationWorker(const NotificationWorker&) = delete;
  NotificationWorker& operator=(const NotificationWorker&) = delete;

  // One pass as of `now_millis` (header comment). Errors: the database's (repository.h); the
  // pass stops at the first and leaves the checkpoint where it was. A sender's failure is not
  // an error of the pass: it is recorded on the notification and counted in the report.
  common::Result<NotifyReport> RunOnce(int64_t now_millis);

  // Runs a pass every `interval` on a background thread (logging failures and deliveries)
  // until Stop. REQUIRES: called at most once.
  void Start(std::chrono::milliseconds interval);
  // Ends the background thread after its running pass (a pass ends at its next notification).
  // Idempotent.
  void Stop();

 private:
  // Delivers one notification that is not done. Returns whether it is done now.
  common::Result<bool> Deliver(const Notification& notification, int64_t now_millis,
                               NotifyReport& report);
  int64_t Backoff(int attempt) const;

  Repository* repository_;
  MailSender* sender_;
  NotificationWorkerOptions options_;
  std::mutex run_mutex_;  // one pass at a time
  std::atomic<bool> stopped_{false};
  std::unique_ptr<RepairScheduler> scheduler_;  // last: stopped first
};

}  // namespace hotel
