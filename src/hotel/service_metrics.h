// The hotel service's metrics (docs/operations.md, "The hotel service"), in the process-wide
// registry (common/metrics.h) that `GET /metrics` renders.
//
//   hotel_http_requests_total{route, method, status}   requests answered; `route` is the
//       endpoint's template (`/api/v1/hotels/{id}`), never a raw path, `status` the class
//       (`2xx` .. `5xx`)
//   hotel_http_request_duration_seconds{route}         time from the whole request read to the
//       answer handed to the socket (histogram)
//   hotel_http_open_connections                        connections being served now
//   hotel_bookings_total, hotel_cancellations_total, hotel_changes_total
//                                                      reservations made, cancelled, changed
//   hotel_booking_conflicts_total{operation}           a booking (`book`) or a change (`change`)
//       refused because a night of the room was taken or not open
//   hotel_login_failures_total                         staff logins refused (bad name or password)
//   hotel_logins_throttled_total                       staff logins refused by the throttle (429)
//   hotel_repair_passes_total{outcome}                 background repair passes (`ok`, `error`)
//   hotel_repair_nights_freed_total, hotel_repair_pending_removed_total
//                                                      what the repair passes put right
//   hotel_database_errors_total{code}                  statements the database failed, by its
//       error code (`Unavailable`, `IOError`, ...)
//
// Every label takes values from a fixed set, so the number of series is bounded whatever the
// requests hold.
//
// Thread-safety: thread-safe (the registry's metrics are atomics).

#pragma once

#include <string_view>

#include "common/metrics.h"
#include "common/status.h"

namespace hotel {

// The metrics that take no label (or a fixed one), looked up once.
struct ServiceMetrics {
  common::metrics::Counter& bookings;
  common::metrics::Counter& booking_conflicts;
  common::metrics::Counter& change_conflicts;
  common::metrics::Counter& cancellations;
  common::metrics::Counter& changes;
  common::metrics::Counter& login_failures;
  common::metrics::Counter& logins_throttled;
  common::metrics::Counter& repair_passes_ok;
  common::metrics::Counter& repair_passes_failed;
  common::metrics::Counter& repair_nights_freed;
  common::metrics::Counter& repair_pending_removed;
  common::metrics::Gauge& open_connections;

  // The metrics of the global registry (created on first use).
  static const ServiceMetrics& Get();
};

// Counts one answered HTTP request and observes its duration. `route` is a template from a
// fixed set (ApiRouter fills HttpResponse::route); an unknown `method` is counted as "other".
void ObserveHttpRequest(std::string_view route, std::string_view method, int status,
                        double seconds);

// Counts a statement the database failed, by its code.
void CountDatabaseError(common::StatusCode code);

}  // namespace hotel
