// The outbox's pieces without a database: hour buckets, mailable addresses, the rendering of
// the three emails (headers, RFC 2047 and quoted-printable for non-ASCII text, folding), and the
// maildir sender (tmp/ then new/, unique names, LF line ends).

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "hotel/maildir_sender.h"
#include "hotel/notification_email.h"

namespace hotel {
namespace {

Notification Sample(NotificationKind kind) {
  Notification n;
  // 2026-11-27 03:12:45.678 UTC
  n.notification_id = *common::Uuid::Parse("6ac3a8e0-ea10-11f1-8080-808080808080");
  n.hour = HourBucket(n.at_millis());
  n.kind = kind;
  n.confirmation_number = "ABC234";
  n.recipients = {"ada@example.com"};
  n.guest_name = "Ada Lovelace";
  n.hotel_id = "AZ123";
  n.hotel_name = "Super Hotel Paris";
  n.stay = {101, *ParseDay("2030-01-02"), *ParseDay("2030-01-04"), 20000};
  n.currency = "EUR";
  if (kind == NotificationKind::kChange) {
    n.previous = NotifiedStay{102, *ParseDay("2030-01-01"), *ParseDay("2030-01-02"), 15000};
  }
  return n;
}

TEST(Notification, HourBucketsAreCalendarHoursInUtc) {
  int64_t moment = 1795749165678;  // 2026-11-27T03:12:45.678Z
  EXPECT_EQ(HourBucket(moment), 2026112703);
  EXPECT_EQ(HourBucketStartMillis(2026112703), 1795748400000);
  EXPECT_EQ(NextHourBucket(2026113023), 2026120100);
  EXPECT_EQ(NextHourBucket(2026123123), 2027010100);
  EXPECT_EQ(HourBucket(HourBucketStartMillis(2028022923)), 2028022923);
  EXPECT_EQ(HourBucket(0), 1970010100);
}

TEST(Notification, OnlyPlainAddressesAreMailable) {
  for (const char* good : {"ada@example.com", "a.b+c@mail.example.org", "x@y"}) {
    EXPECT_TRUE(IsMailableAddress(good)) << good;
  }
  for (const char* bad : {"", "ada", "@example.com", "ada@", "a@b@c", "ada @example.com",
                          "ada@example.com\r\nBcc: x@y", "Ada <ada@example.com>", "a,b@c",
                          "ad\xc3\xa9@example.com", ".ada@example.com", "ada@example.com."}) {
    EXPECT_FALSE(IsMailableAddress(bad)) << bad;
  }
}

TEST(NotificationEmail, RendersAConfirmationAsAnRfc5322Message) {
  EmailMessage message = RenderNotification(Sample(NotificationKind::kConfirmation), {});
  EXPECT_EQ(message.envelope_from, "reservations@localhost");
  EXPECT_EQ(message.recipients, std::vector<std::string>{"ada@example.com"});
  EXPECT_EQ(message.message_id, "6ac3a8e0-ea10-11f1-8080-808080808080.ABC234@localhost");
  const std::string expected_headers =
      "From: \"Hotel reservations\" <reservations@localhost>\r\n"
      "To: \"Ada Lovelace\" <ada@example.com>\r\n"
      "Subject: Your reservation ABC234 at Super Hotel Paris is confirmed\r\n"
      "Date: Fri, 27 Nov 2026 03:12:45 +0000\r\n"
      "Message-ID: <6ac3a8e0-ea10-11f1-8080-808080808080.ABC234@localhost>\r\n"
      "MIME-Version: 1.0\r\n"
      "Content-Type: text/plain; charset=UTF-8\r\n"
      "Content-Transfer-Encoding: 7bit\r\n"
      "Auto-Submitted: auto-generated\r\n"
      "\r\n";
  ASSERT_EQ(message.data.substr(0, expected_headers.size()), expected_headers);
  std::string body = message.data.substr(expected_headers.size());
  EXPECT_EQ(body.rfind("Dear Ada Lovelace,\r\n\r\nyour reservation at Super Hotel Paris is "
                       "confirmed.\r\n",
                       0),
            0u);
  EXPECT_NE(body.find("  Check-out:            2030-01-04\r\n"), std::string::npos);
  EXPECT_NE(body.find("  Nights:               2\r\n"), std::string::npos);
  EXPECT_NE(body.find("  Total:                200.00 EUR\r\n"), std::string::npos);
  EXPECT_EQ(body.find("Before the change"), std::string::npos);
  EXPECT_EQ(body.substr(body.size() - 2), "\r\n");
  for (size_t start = 0, end; start < message.data.size(); start = end + 2) {
    end = message.data.find("\r\n", start);
    ASSERT_NE(end, std::string::npos) << "every line ends in CRLF";
    EXPECT_LE(end - start, 78u);
    EXPECT_EQ(message.data.substr(start, end - start).find('\n'), std::string::npos);
  }
}

TEST(NotificationEmail, ChangeAndCancellationSayWhatHappened) {
  EmailMessage change = RenderNotification(Sample(NotificationKind::kChange), {});
  EXPECT_EQ(change.subject, "Your reservation ABC234 at Super Hotel Paris has been changed");
  std::string body = NotificationBody(Sample(NotificationKind::kChange), {});
  size_t before = body.find("Before the change:");
  ASSERT_NE(before, std::string::npos);
  EXPECT_NE(body.find("Room:                 102", before), std::string::npos);
  EXPECT_NE(body.find("Total:                150.00 EUR", before), std::string::npos);
  EmailMessage cancel = RenderNotification(Sample(NotificationKind::kCancellation), {});
  EXPECT_EQ(cancel.subject, "Your reservation ABC234 at Super Hotel Paris has been cancelled");
  EXPECT_NE(cancel.data.find("has been cancelled. It was:"), std::string::npos);
  EXPECT_EQ(cancel.data.find("Keep this email"), std::string::npos);
}

TEST(NotificationEmail, NonAsciiTextIsEncodedAndLongHeadersFolded) {
  Notification n = Sample(NotificationKind::kConfirmation);
  n.guest_name = "Zoë Ñúñez";
  n.hotel_name = "Hôtel de la Tour Eiffel et des Champs-Élysées, Paris";
  n.recipients = {"a@example.com", "b@example.com", "c@example.com", "d@example.com"};
  EmailMessage message = RenderNotification(n, {});
  EXPECT_EQ(message.subject, "Your reservation ABC234 at " + n.hotel_name + " is confirmed");
  // RFC 2047: UTF-8, base64 words; "Zoë Ñúñez" is 13 bytes, one word.
  EXPECT_NE(message.data.find("To: =?UTF-8?B?Wm/DqyDDkcO6w7Fleg==?= <a@example.com>,\r\n "),
            std::string::npos)
      << message.data;
  EXPECT_NE(message.data.find("Subject: =?UTF-8?B?"), std::string::npos);
  EXPECT_NE(message.data.find("Content-Transfer-Encoding: quoted-printable\r\n"),
            std::string::npos);
  EXPECT_NE(message.data.find("Dear Zo=C3=AB =C3=91=C3=BA=C3=B1ez,"), std::string::npos);
  for (char c : message.data) EXPECT_LT(static_cast<unsigned char>(c), 0x80);
}

TEST(NotificationEmail, NamesCannotInjectHeadersOrLines) {
  Notification n = Sample(NotificationKind::kConfirmation);
  n.guest_name = "Ada\r\nBcc: everyone@example.com";
  n.hotel_name = "Evil\nX-Spam: yes";
  EmailMessage message = RenderNotification(n, {});
  EXPECT_NE(message.data.find("To: \"Ada  Bcc: everyone@example.com\" <ada@example.com>\r\n"),
            std::string::npos)
      << message.data;
  EXPECT_EQ(message.data.find("\r\nBcc:"), std::string::npos);
  EXPECT_EQ(message.data.find("\r\nX-Spam:"), std::string::npos);
  for (size_t i = 0; i < message.data.size(); ++i) {
    if (message.data[i] == '\r') {
      EXPECT_EQ(message.data[i + 1], '\n');
    }
    if (message.data[i] == '\n') {
      EXPECT_EQ(message.data[i - 1], '\r');
    }
  }
}

TEST(NotificationEmail, QuotedPrintableBreaksLongLinesAndKeepsTrailingBlanks) {
  EXPECT_EQ(QuotedPrintable("a=b \nc\t\n"), "a=3Db=20\r\nc=09\r\n");
  std::string encoded = QuotedPrintable(std::string(100, 'x'));
  EXPECT_EQ(encoded, std::string(75, 'x') + "=\r\n" + std::string(25, 'x'));
  EXPECT_EQ(MailDate(0), "Thu, 01 Jan 1970 00:00:00 +0000");
}

class MaildirSenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "maildir-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::string directory_;
};

TEST_F(MaildirSenderTest, DeliversIntoNewUnderUniqueNamesWithLfLineEnds) {
  auto sender = MaildirSender::Open(directory_ + "/inbox");
  ASSERT_TRUE(sender.ok()) << sender.status().ToString();
  for (const char* sub : {"tmp", "new", "cur"}) {
    EXPECT_TRUE(std::filesystem::is_directory(directory_ + "/inbox/" + std::string(sub)));
  }
  EmailMessage message = RenderNotification(Sample(NotificationKind::kConfirmation), {});
  ASSERT_TRUE((*sender)->Send(message).ok());
  ASSERT_TRUE((*sender)->Send(message).ok());
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory_ + "/inbox/new")) {
    names.insert(entry.path().filename().string());
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string expected;
    for (char c : message.data) {
      if (c != '\r') expected.push_back(c);
    }
    EXPECT_EQ(text.str(), expected);
  }
  EXPECT_EQ(names.size(), 2u);
  for (const std::string& name : names) {
    EXPECT_NE(name.find(".M"), std::string::npos) << name;
    EXPECT_EQ(name.find('/'), std::string::npos);
    EXPECT_EQ(name.find(':'), std::string::npos);
  }
  EXPECT_TRUE(std::filesystem::is_empty(directory_ + "/inbox/tmp"));
  EXPECT_EQ((*sender)->Describe(), "maildir " + directory_ + "/inbox");
}

TEST_F(MaildirSenderTest, AnUnwritableMaildirIsARetryableFailure) {
  auto sender = MaildirSender::Open(directory_ + "/box");
  ASSERT_TRUE(sender.ok());
  std::filesystem::remove_all(directory_ + "/box/tmp");
  common::Status sent =
      (*sender)->Send(RenderNotification(Sample(NotificationKind::kConfirmation), {}));
  EXPECT_EQ(sent.code(), common::StatusCode::kUnavailable);
  EXPECT_NE(sent.message().find("maildir: create"), std::string::npos) << sent.message();
}

}  // namespace
}  // namespace hotel
