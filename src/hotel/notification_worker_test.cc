// The outbox end to end on the embedded engine: a booking, a change and a cancel each write
// their notification in their batch, and the worker delivers each once into a maildir with the
// right To, Subject and body; what a worker that died between claim and send, or between send
// and record, leaves is delivered again; failed deliveries are retried with backoff and given up
// after the last attempt; the checkpoint moves forward; nothing is written for a guest without
// a mailable address or for generated sample bookings.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hotel/hotel_testing.h"
#include "hotel/maildir_sender.h"
#include "hotel/notification_worker.h"

namespace hotel {
namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A sender that refuses every message with `code`, counting the attempts.
class RefusingSender : public MailSender {
 public:
  explicit RefusingSender(common::StatusCode code) : code_(code) {}
  common::Status Send(const EmailMessage&) override {
    ++attempts;
    return common::Status(code_, "451 try again later");
  }
  std::string Describe() const override { return "refusing"; }
  int attempts = 0;

 private:
  common::StatusCode code_;
};

class NotificationWorkerTest : public HotelTest {
 protected:
  void SetUp() override {
    HotelTest::SetUp();
    LoadInventory();
    maildir_ = directory_ + "/mail";
    auto sender = MaildirSender::Open(maildir_);
    ASSERT_TRUE(sender.ok()) << sender.status().ToString();
    sender_ = std::move(*sender);
    worker_ = std::make_unique<NotificationWorker>(repository_.get(), sender_.get(),
                                                   NotificationWorkerOptions());
  }
  void TearDown() override {
    worker_.reset();
    HotelTest::TearDown();
  }

  Reservation Book(const std::string& first, const std::string& last, int16_t room = 101) {
    BookingRequest request{"AZ123",         room,         D("2030-01-02"),
                           D("2030-01-04"), std::nullopt, MakeGuest(first, last)};
    auto booked = service_->Book(request);
    EXPECT_TRUE(booked.ok()) << booked.status().ToString();
    return booked.ok() ? *booked : Reservation();
  }

  NotifyReport Run(int64_t now, NotificationWorker* worker = nullptr) {
    auto report = (worker != nullptr ? worker : worker_.get())->RunOnce(now);
    EXPECT_TRUE(report.ok()) << report.status().ToString();
    return report.ok() ? *report : NotifyReport();
  }

  // Every message in maildir/new, oldest name first.
  std::vector<std::string> Messages() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(maildir_ + "/new")) {
      files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> messages;
    for (const auto& file : files) {
      std::ifstream in(file);
      std::stringstream text;
      text << in.rdbuf();
      messages.push_back(text.str());
    }
    return messages;
  }

  // The outbox rows of the current hour and the one before.
  std::vector<Notification> Outbox(int64_t now) {
    std::vector<Notification> all;
    for (int32_t hour : {HourBucket(now - 3600 * 1000), HourBucket(now)}) {
      auto rows = repository_->NotificationsInHour(hour, common::MinTimeuuid(0), 1000);
      EXPECT_TRUE(rows.ok()) << rows.status().ToString();
      if (rows.ok()) all.insert(all.end(), rows->begin(), rows->end());
    }
    return all;
  }

  std::string maildir_;
  std::unique_ptr<MaildirSender> sender_;
  std::unique_ptr<NotificationWorker> worker_;
};

TEST_F(NotificationWorkerTest, BookingIsConfirmedByOneMessageInTheMaildir) {
  Reservation booked = Book("Ada", "Lovelace");
  NotifyReport report = Run(NowMillis());
  EXPECT_EQ(report.delivered, 1);
  EXPECT_EQ(report.failed + report.given_up + report.waiting, 0);
  std::vector<std::string> messages = Messages();
  ASSERT_EQ(messages.size(), 1u);
  const std::string& mail = messages[0];
  EXPECT_NE(mail.find("\nTo: \"Ada Lovelace\" <Ada@example.com>\n"), std::string::npos) << mail;
  EXPECT_NE(mail.find("\nSubject: Your reservation " + booked.confirmation_number +
                      " at Super Hotel Paris is confirmed\n"),
            std::string::npos)
      << mail;
  EXPECT_NE(mail.find("Dear Ada Lovelace,"), std::string::npos);
  EXPECT_NE(mail.find("Confirmation number:  " + booked.confirmation_number), std::string::npos);
  EXPECT_NE(mail.find("Check-in:             2030-01-02"), std::string::npos);
  EXPECT_NE(mail.find("Total:                200.00 EUR"), std::string::npos);
  EXPECT_EQ(mail.find('\r'), std::string::npos) << "maildir files use LF line ends";
  EXPECT_TRUE(std::filesystem::is_empty(maildir_ + "/tmp"));

  // Nothing is delivered twice in the normal path.
  report = Run(NowMillis());
  EXPECT_EQ(report.delivered, 0);
  EXPECT_EQ(Messages().size(), 1u);
  std::vector<Notification> outbox = Outbox(NowMillis());
  ASSERT_EQ(outbox.size(), 1u);
  EXPECT_GT(outbox[0].delivered_at_millis, 0);
  EXPECT_EQ(outbox[0].attempts, 1);
}

TEST_F(NotificationWorkerTest, ChangeAndCancelSendTheirOwnMessages) {
  Reservation booked = Book("Grace", "Hopper");
  ASSERT_EQ(Run(NowMillis()).delivered, 1);
  ChangeRequest change{D("2030-01-05"), D("2030-01-08"), int16_t{102}};
  ASSERT_TRUE(service_->Change(booked.confirmation_number, change).ok());
  ASSERT_TRUE(service_->Cancel(booked.confirmation_number).ok());
  // A staff event (check-in, no-show) sends nothing: only these three kinds are owed.
  EXPECT_EQ(Run(NowMillis()).delivered, 2);
  std::vector<std::string> messages = Messages();
  ASSERT_EQ(messages.size(), 3u);
  std::string all = messages[0] + messages[1] + messages[2];
  const std::string& number = booked.confirmation_number;
  EXPECT_NE(all.find("Subject: Your reservation " + number +
                     " at Super Hotel Paris has been "
                     "changed\n"),
            std::string::npos);
  EXPECT_NE(all.find("Subject: Your reservation " + number +
                     " at Super Hotel Paris has been "
                     "cancelled\n"),
            std::string::npos);
  EXPECT_NE(all.find("Before the change:"), std::string::npos);
  EXPECT_NE(all.find("Room:                 102"), std::string::npos);
  EXPECT_NE(all.find("Check-out:            2030-01-08"), std::string::npos);
  EXPECT_NE(all.find("Total:                450.00 EUR"), std::string::npos);
  // Each is its own message (its own Message-ID: the id of its history event).
  auto history = service_->History(number);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->events.size(), 3u);
  for (const ReservationEvent& event : history->events) {
    EXPECT_NE(all.find("Message-ID: <" + event.event_id.ToString() + "." + number + "@localhost>"),
              std::string::npos)
        << ActionName(event.action);
  }
}

TEST_F(NotificationWorkerTest, AWorkerThatDiedAfterItsClaimIsReplacedAfterTheLease) {
  Book("Alan", "Turing");
  int64_t now = NowMillis();
  std::vector<Notification> outbox = Outbox(now);
  ASSERT_EQ(outbox.size(), 1u);
  NotificationWorkerOptions options;
  // What a worker killed between its claim and its send leaves behind.
  auto claimed = repository_->ClaimNotification(outbox[0], 0, now + options.lease_millis);
  ASSERT_TRUE(claimed.ok() && *claimed);
  // A second worker that read the same row loses the conditional claim: no double send.
  auto second = repository_->ClaimNotification(outbox[0], 0, now + options.lease_millis);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(*second);
  NotifyReport report = Run(now);
  EXPECT_EQ(report.delivered, 0);
  EXPECT_EQ(report.waiting, 1);
  EXPECT_TRUE(Messages().empty());
  report = Run(now + options.lease_millis + 1);
  EXPECT_EQ(report.delivered, 1);
  EXPECT_EQ(Messages().size(), 1u);
  EXPECT_EQ(Outbox(now)[0].attempts, 2);
}

TEST_F(NotificationWorkerTest, AWorkerThatDiedAfterSendingSendsAgain) {
  Reservation booked = Book("Edsger", "Dijkstra");
  int64_t now = NowMillis();
  std::vector<Notification> outbox = Outbox(now);
  ASSERT_EQ(outbox.size(), 1u);
  NotificationWorkerOptions options;
  // Killed between the send and the record: the message is out, the row says nothing of it.
  ASSERT_TRUE(*repository_->ClaimNotification(outbox[0], 0, now + options.lease_millis));
  ASSERT_TRUE(sender_->Send(RenderNotification(outbox[0], options.from)).ok());
  EXPECT_EQ(Run(now + options.lease_millis + 1).delivered, 1);  // at least once
  std::vector<std::string> messages = Messages();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0], messages[1]) << "a re-delivery is the same message (same Message-ID)";
}

TEST_F(NotificationWorkerTest, FailuresAreRetriedWithBackoffThenGivenUp) {
  Book("Barbara", "Liskov");
  RefusingSender refusing(common::StatusCode::kUnavailable);
  NotificationWorkerOptions options;
  options.max_attempts = 3;
  NotificationWorker worker(repository_.get(), &refusing, options);
  int64_t now = NowMillis();
  EXPECT_EQ(Run(now, &worker).failed, 1);
  // Not due before the backoff (30 s after the first failure, then 60 s).
  EXPECT_EQ(Run(now + 1000, &worker).waiting, 1);
  EXPECT_EQ(refusing.attempts, 1);
  now += options.backoff_base_millis + 1;
  EXPECT_EQ(Run(now, &worker).failed, 1);
  EXPECT_EQ(Run(now + options.backoff_base_millis + 1, &worker).waiting, 1);
  now += 2 * options.backoff_base_millis + 1;
  NotifyReport last = Run(now, &worker);
  EXPECT_EQ(last.given_up, 1);
  EXPECT_EQ(refusing.attempts, 3);
  std::vector<Notification> outbox = Outbox(NowMillis());
  ASSERT_EQ(outbox.size(), 1u);
  EXPECT_GT(outbox[0].failed_at_millis, 0);
  EXPECT_EQ(outbox[0].delivered_at_millis, 0);
  EXPECT_EQ(outbox[0].last_error, "451 try again later");
  // Given up: nothing more is tried, and once the settle window has passed the checkpoint
  // moves past it (the first later pass still reads it; the next does not).
  NotifyReport later = Run(now + 3600 * 1000, &worker);
  EXPECT_EQ(later.given_up + later.failed + later.delivered, 0);
  EXPECT_EQ(Run(now + 3600 * 1000 + 1, &worker).read, 0);
  EXPECT_EQ(refusing.attempts, 3);
}

TEST_F(NotificationWorkerTest, APermanentRefusalIsGivenUpAtOnce) {
  Book("Donald", "Knuth");
  RefusingSender refusing(common::StatusCode::kInvalid);
  NotificationWorker worker(repository_.get(), &refusing, NotificationWorkerOptions());
  EXPECT_EQ(Run(NowMillis(), &worker).given_up, 1);
  EXPECT_EQ(Run(NowMillis() + 24 * 3600 * 1000, &worker).given_up, 0);
  EXPECT_EQ(refusing.attempts, 1);
}

TEST_F(NotificationWorkerTest, TheCheckpointSettlesBehindNowAndLaterBookingsStillGoOut) {
  Book("Ken", "Thompson");
  int64_t now = NowMillis();
  NotificationWorkerOptions options;
  NotifyReport first = Run(now);
  EXPECT_EQ(first.delivered, 1);
  EXPECT_EQ(first.done_before_millis, now - options.settle_millis);
  Book("Dennis", "Ritchie", 102);
  NotifyReport second = Run(NowMillis());
  EXPECT_EQ(second.delivered, 1);
  EXPECT_EQ(second.read, 2) << "the settle window is read again";
  // Much later: the first pass reads the last settle window once more and moves the
  // checkpoint to its own now - settle; the next one reads nothing of the delivered hour.
  NotifyReport later = Run(now + 3 * 3600 * 1000);
  EXPECT_EQ(later.read, 2);
  EXPECT_EQ(later.delivered, 0);
  EXPECT_EQ(later.done_before_millis, now + 3 * 3600 * 1000 - options.settle_millis);
  EXPECT_EQ(Run(now + 3 * 3600 * 1000 + 1).read, 0);
  EXPECT_EQ(Messages().size(), 2u);
}

TEST_F(NotificationWorkerTest, NoNotificationWithoutAMailableAddressOrForSampleData) {
  Guest guest = MakeGuest("Eve", "Mallory");
  guest.emails = {"eve@example.com\r\nBcc: everyone@example.com"};
  ASSERT_TRUE(
      service_->Book({"AZ123", 101, D("2030-01-02"), D("2030-01-03"), std::nullopt, guest}).ok());
  BookingRequest sample{"AZ123",         102,          D("2030-01-02"),
                        D("2030-01-03"), std::nullopt, MakeGuest("Sam", "Ple")};
  sample.notify = false;
  ASSERT_TRUE(service_->Book(sample).ok());
  EXPECT_TRUE(Outbox(NowMillis()).empty());
  EXPECT_EQ(Run(NowMillis()).read, 0);
  EXPECT_TRUE(Messages().empty());
}

// The same outbox through the C++ driver against an in-process cqld: the batch with its
// notification, the slice reads and the conditional claims as a cluster sees them.
class RemoteNotificationWorkerTest : public NotificationWorkerTest {
 protected:
  void SetUp() override {
    session_kind_ = SessionKind::kRemote;
    NotificationWorkerTest::SetUp();
  }
};

TEST_F(RemoteNotificationWorkerTest, BookAndChangeAreDeliveredOnceThroughTheDriver) {
  Reservation booked = Book("Radia", "Perlman");
  ASSERT_TRUE(
      service_->Change(booked.confirmation_number, {D("2030-01-03"), D("2030-01-05"), std::nullopt})
          .ok());
  NotifyReport report = Run(NowMillis());
  EXPECT_EQ(report.delivered, 2);
  EXPECT_EQ(Run(NowMillis()).delivered, 0);
  std::vector<std::string> messages = Messages();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_NE((messages[0] + messages[1]).find("has been changed"), std::string::npos);
}

}  // namespace
}  // namespace hotel
