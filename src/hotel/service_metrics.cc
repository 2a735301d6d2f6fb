#include "hotel/service_metrics.h"

#include <string>

namespace hotel {

namespace {

using common::metrics::Registry;

// Durations of HTTP requests: 100 µs to 10 s, five buckets per decade (a request outside that
// range is either trivial or broken; the +Inf bucket counts the latter).
const std::vector<double>& RequestBounds() {
  static const std::vector<double> bounds =
      common::metrics::Histogram::ExponentialBounds(0.0001, 10, 5);
  return bounds;
}

std::string_view MethodLabel(std::string_view method) {
  for (std::string_view known : {"GET", "HEAD", "POST", "PUT", "DELETE"}) {
    if (method == known) return known;
  }
  return "other";
}

std::string StatusClass(int status) {
  if (status < 100 || status > 599) return "other";
  return std::to_string(status / 100) + "xx";
}

}  // namespace

const ServiceMetrics& ServiceMetrics::Get() {
  static const ServiceMetrics metrics = [] {
    Registry& registry = Registry::Global();
    constexpr const char* kConflicts =
        "Bookings and changes refused because a night of the room was taken or not open.";
    constexpr const char* kPasses = "Background repair passes, by outcome.";
    return ServiceMetrics{
        registry.counter("hotel_bookings_total", "Reservations made."),
        registry.counter("hotel_booking_conflicts_total", kConflicts, {{"operation", "book"}}),
        registry.counter("hotel_booking_conflicts_total", kConflicts, {{"operation", "change"}}),
        registry.counter("hotel_cancellations_total", "Reservations cancelled."),
        registry.counter("hotel_changes_total", "Reservations moved to other dates or rooms."),
        registry.counter("hotel_login_failures_total",
                         "Staff logins refused for a wrong name or password."),
        registry.counter("hotel_logins_throttled_total",
                         "Staff logins refused by the login throttle (429)."),
        registry.counter("hotel_repair_passes_total", kPasses, {{"outcome", "ok"}}),
        registry.counter("hotel_repair_passes_total", kPasses, {{"outcome", "error"}}),
        registry.counter("hotel_repair_nights_freed_total",
                         "Orphan room-night holds freed by the repair pass."),
        registry.counter("hotel_repair_pending_removed_total",
                         "Stale pending confirmation numbers removed by the repair pass."),
        registry.gauge("hotel_http_open_connections", "HTTP connections being served now."),
    };
  }();
  return metrics;
}

void ObserveHttpRequest(std::string_view route, std::string_view method, int status,
                        double seconds) {
  Registry& registry = Registry::Global();
  std::string route_label(route.empty() ? "other" : route);
  registry
      .counter("hotel_http_requests_total", "HTTP requests answered, by route and status class.",
               {{"route", route_label},
                {"method", std::string(MethodLabel(method))},
                {"status", StatusClass(status)}})
      .Increment();
  registry
      .histogram("hotel_http_request_duration_seconds",
                 "Time to answer an HTTP request once it is read, by route.",
                 {{"route", route_label}}, RequestBounds())
      .Observe(seconds);
}

void CountDatabaseError(common::StatusCode code) {
  Registry::Global()
      .counter("hotel_database_errors_total", "Statements the database failed, by error code.",
               {{"code", std::string(common::StatusCodeName(code))}})
      .Increment();
}

}  // namespace hotel
