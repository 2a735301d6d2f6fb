#!/usr/bin/env bash
# The outbox end to end through the `hotel` binary (CTest hotel.notify; docs/operations.md,
# "Notifications"), as `make run` runs it:
#   1. `hotel serve --notify-maildir DIR` says where the mail goes; a booking made over the API
#      (as the web UI's form makes it) arrives in DIR/new as one RFC 5322 message to the guest's
#      address with the confirmation number; a cancellation arrives as a second message.
#   2. Once the service is stopped, `hotel notify --once` on the same data finds nothing left to
#      deliver (the in-process worker recorded its deliveries: nothing is sent twice).
#   3. A booking made while no worker runs waits in the outbox; `hotel notify --once` delivers
#      it into the default maildir ./mail and says so; a second --once delivers nothing.
#   4. The SMTP login's flags: a login without TLS, a password on the command line and an
#      unknown mechanism are refused at start, never echoing the password; --smtp-insecure-auth
#      warns and runs.
# Everything lives in a temporary directory; the service listens on 127.0.0.1 on a free port and
# is stopped (by its pid) even when a check fails.
#
# Usage: apps/hotel/notify_test.sh HOTEL_BINARY
# Exits 77 (skipped) when curl is missing.
set -uo pipefail

hotel=${1:?usage: notify_test.sh HOTEL_BINARY}
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../../tests/support/checks.sh"
require_tools "hotel notify" curl
hotel=$(realpath "$hotel")

work=$(mktemp -d)
pid=""
stop() {
  end "$pid"
  rm -rf "$work"
}
trap stop EXIT
failures=0
data=$work/data
mail=$work/mail

json() { /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
# The number of messages in maildir $1/new, waiting up to 10 s for at least $2.
messages() {
  for _ in $(seq 100); do
    [ "$(find "$1/new" -type f 2>/dev/null | wc -l)" -ge "$2" ] && break
    sleep 0.1
  done
  find "$1/new" -type f 2>/dev/null | wc -l
}
book() {  # $1 url, $2 hotel, $3 room, $4 last name: prints the confirmation number
  curl -sS -X POST -H 'Content-Type: application/json' "$1/api/v1/reservations" -d "{
    \"hotel_id\": \"$2\", \"room_number\": $3, \"check_in\": \"$check_in\",
    \"check_out\": \"$check_out\", \"guest\": {\"first_name\": \"Ada\", \"last_name\": \"$4\",
    \"emails\": [\"ada.$4@example.com\"]}}" | json 'd["confirmation_number"]'
}

# --- 1. serve with the in-process worker -------------------------------------------------------
"$hotel" serve --data "$data" --address 127.0.0.1 --port 0 --hotels 1 --days 8 \
  --notify-maildir "$mail" --notify-interval 0.2 --no-access-log \
  >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
url=$(started 'http://127\.0\.0\.1:[0-9]+' "$work/serve.out" "$work/serve.err" "$pid" \
  "hotel notify: hotel serve --notify-maildir") || exit 1
check "serve says where the mail goes" grep -q "guests' emails go to maildir $mail" "$work/serve.out"
check "the sample's generated bookings owe no email" test "$(messages "$mail" 1)" -eq 0
# The sample's hotel: the first point of interest with a hotel near it.
hotel_id=$(/usr/bin/python3 - "$url" <<'PY'
import json, sys, urllib.parse, urllib.request
base = sys.argv[1] + "/api/v1"
pois = json.load(urllib.request.urlopen(base + "/pois"))
for poi in pois["pois"] if isinstance(pois, dict) else pois:
    near = json.load(urllib.request.urlopen(base + "/pois/" + urllib.parse.quote(poi["name"]) + "/hotels"))
    if near["hotels"]:
        print(near["hotels"][0]["hotel_id"])
        break
PY
)
check_in=$(date -u -d '+1 day' +%F)
check_out=$(date -u -d '+3 day' +%F)
room=$(curl -sS "$url/api/v1/hotels/$hotel_id/availability?check_in=$check_in&check_out=$check_out" |
  json 'd["rooms"][0]["room_number"]')
number=$(book "$url" "$hotel_id" "$room" Lovelace)
check "a booking over the API" test -n "$number"
check "... is confirmed by one message in the maildir" test "$(messages "$mail" 1)" -eq 1
first=$(find "$mail/new" -type f | head -1)
check "... to the guest" grep -q '^To: "Ada Lovelace" <ada.Lovelace@example.com>$' "$first"
check "... with the confirmation number" \
  grep -q "^Subject: Your reservation $number at .* is confirmed$" "$first"
check "... and the stay" grep -q "Check-in: *$check_in" "$first"
curl -sS -o /dev/null -X DELETE "$url/api/v1/reservations/$number?last_name=Lovelace"
check "a cancellation is a second message" test "$(messages "$mail" 2)" -eq 2
check "... saying so" bash -c "grep -l 'has been cancelled' '$mail'/new/* | grep -q ."
check "nothing is left in tmp/" test -z "$(ls -A "$mail/tmp")"
check "metrics count the deliveries" \
  bash -c "curl -sS '$url/metrics' | grep -q '^hotel_notifications_total{outcome=\"delivered\"} 2'"
end "$pid"
pid=""

# --- 2. nothing is delivered twice -------------------------------------------------------------
"$hotel" notify --data "$data" --once --maildir "$work/again" >"$work/again.out" 2>&1
check "notify --once after serve finds nothing to deliver" \
  grep -q "^hotel notify: 0 delivered, 0 to retry, 0 given up, 0 waiting" "$work/again.out"

# --- 3. notify --once delivers what waits ------------------------------------------------------
"$hotel" serve --data "$data" --address 127.0.0.1 --port 0 --no-access-log \
  >"$work/serve2.out" 2>"$work/serve2.err" &
pid=$!
url=$(started 'http://127\.0\.0\.1:[0-9]+' "$work/serve2.out" "$work/serve2.err" "$pid" \
  "hotel notify: hotel serve without a worker") || exit 1
number=$(book "$url" "$hotel_id" "$room" Hopper)
check "a booking with no worker running" test -n "$number"
end "$pid"
pid=""
mkdir -p "$work/cron"
(cd "$work/cron" && "$hotel" notify --data "$data" --once) >"$work/once.out" 2>&1
check "notify --once delivers it into ./mail" \
  grep -q "^hotel notify: 1 delivered, 0 to retry, 0 given up, 0 waiting (maildir mail)" \
  "$work/once.out"
check "... one message" bash -c "grep -l '$number' '$work'/cron/mail/new/* | wc -l | grep -qx 1"
(cd "$work/cron" && "$hotel" notify --data "$data" --once) >"$work/twice.out" 2>&1
check "a second --once delivers nothing" grep -q "^hotel notify: 0 delivered" "$work/twice.out"

# --- 4. the SMTP login's flags: refused before anything is sent, the password never shown ----
secret=never-print-this-2718
refused() {  # $1 what, $2 expected message, the rest: flags of `hotel notify --once`
  local what=$1 expected=$2
  shift 2
  HOTEL_SMTP_PASSWORD=$secret "$hotel" notify --data "$data" --once --smtp-host 127.0.0.1 "$@" \
    >"$work/smtp.out" 2>&1
  local status=$?
  check "$what: refused" test "$status" -ne 0
  check "$what: says why" grep -qF -- "$expected" "$work/smtp.out"
  check "$what: without the password" bash -c "! grep -qF '$secret' '$work/smtp.out'"
}
refused "a login without TLS" "it needs --smtp-starttls or --smtp-tls" --smtp-user mailer
refused "a password on the command line" "usage:" --smtp-user mailer --smtp-password "$secret"
refused "an unknown mechanism" "none of auto, plain, login" --smtp-user mailer --smtp-tls \
  --smtp-auth cram-md5
echo "$secret" >"$work/password"
HOTEL_SMTP_PASSWORD= "$hotel" notify --data "$data" --once --smtp-host 127.0.0.1 --smtp-port 1 \
  --smtp-user mailer --smtp-password-file "$work/password" --smtp-insecure-auth \
  >"$work/smtp.out" 2>&1
check "--smtp-insecure-auth warns loudly" grep -q "WARNING: --smtp-insecure-auth" "$work/smtp.out"
check "... and runs" grep -q "^hotel notify: 0 delivered" "$work/smtp.out"
check "... without the password" bash -c "! grep -qF '$secret' '$work/smtp.out'"

if [ "$failures" -gt 0 ]; then
  echo "hotel notify: $failures check(s) failed; the service's stderr:" >&2
  cat "$work/serve.err" >&2
  exit 1
fi
echo "hotel notify: all checks passed"
