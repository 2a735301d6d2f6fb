#!/usr/bin/env bash
# The `cqlmodel` binary end to end (CTest cqlmodel.cli; docs/cqlmodel.md):
#   1. `size` reproduces the seeds' worked example (seed 001, "Calculating Partition Size":
#      73,000 rows, 73,000 values, 1,095,005 bytes) and, over the limits, proposes the month
#      bucket; text and JSON are compared with goldens in tests/data/model/.
#   2. `lint` flags the seeds' defects (pois_by_hotel's and reservations_by_guest's keys) and
#      exits 1 on errors, 0 on a clean schema or with the error rules disabled; text and JSON
#      goldens.
#   3. `diagram` draws the seeds' schema as the golden SVG (physical and logical) and DOT, writes
#      -o files, and lays out a generated schema of 32 tables with no two boxes overlapping
#      (checked on the SVG).
#   3b. `derive` turns examples/model/hotel.yaml (the seeds' conceptual model and Q1-Q9) into the
#      golden CQL, logical model (JSON), diagram with the workflow arrows and size report; the
#      derived CQL loads in `lint` without a key-uniqueness error; `-o` writes every format;
#      `diagram --workflow` draws the same arrows on the seeds' own schema.
#   4. The hotel service's own schema (schema/hotel_service.cql, its ${prefix} and ${replication}
#      filled in) loads in every subcommand; lint passes because its `cqlmodel: allow` comments
#      accept the name keys it kept (reported apart, in text and JSON), and fails without them.
#   5. With CQLD_BINARY and HOTEL_BINARY: `size --host` against a cqld on a free port after
#      `hotel load` measures the partitions the load wrote (2 hotels x 10 rooms x 8 days) beside
#      the estimate, by a scan and, once `cqld admin flush` has written them to SST files, from
#      system.size_estimates and system_views.partition_histograms; diagram, lint and size read
#      the server's own schema when no file is given; a table the server lacks is reported as
#      failed; an unreachable server exits 2. The server is stopped even when a check fails.
#   6. Usage errors and schemas that do not load exit 2 with a message.
#   7. A schema of 38 tables (tests/data/model/marketplace.yaml and the marketplace.cql it
#      derives): goldens of derive (CQL, JSON, SVG, sizes), diagram (physical, logical; no two
#      boxes overlap, with or without the workflow's arrows), size and lint.
# Set CQLMODEL_UPDATE_GOLDEN=1 to rewrite the goldens from the binary's output (then review the
# diff).
#
# Usage: apps/cqlmodel/cli_test.sh CQLMODEL_BINARY TEST_DATA_DIR [CQLD_BINARY HOTEL_BINARY]
set -uo pipefail

usage="usage: cli_test.sh CQLMODEL_BINARY TEST_DATA_DIR [CQLD_BINARY HOTEL_BINARY]"
cqlmodel=${1:?$usage}
data=${2:?$usage}
cqld=${3:-}
hotel=${4:-}
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../../tests/support/checks.sh"

work=$(mktemp -d)
cqld_pid=""
stop() {
  end "$cqld_pid"
  rm -rf "$work"
}
trap stop EXIT
seeds=$data/seeds
golden=$data/model

# golden NAME STATUS ARGS...: runs cqlmodel ARGS, expects exit STATUS and stdout equal to
# $golden/NAME.
golden() {
  local name=$1 status=$2
  shift 2
  "$cqlmodel" "$@" >"$work/$name" 2>"$work/$name.err"
  local got=$?
  if [ "${CQLMODEL_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$work/$name" "$golden/$name"; fi
  if [ "$got" -ne "$status" ]; then
    echo "exit status $got, expected $status; stderr:"
    cat "$work/$name.err"
    return 1
  fi
  diff -u "$golden/$name" "$work/$name"
}

# fails STATUS MESSAGE ARGS...: runs cqlmodel ARGS, expects exit STATUS and MESSAGE on stderr.
fails() {
  local status=$1 message=$2
  shift 2
  "$cqlmodel" "$@" >/dev/null 2>"$work/err"
  local got=$?
  [ "$got" -eq "$status" ] && grep -qF -- "$message" "$work/err" && return 0
  echo "exit status $got, stderr:"
  cat "$work/err"
  return 1
}

# --- 1. size ------------------------------------------------------------------------------------
check "size: the seeds' worked example (100 rooms x 730 days, 5-byte hotel_id)" \
  golden size_seeds.txt 0 size "$seeds/001_hotel.cql" \
  --rows available_rooms_by_hotel_date=100x730 --value-size hotel_id=5
check "size: the seeds' numbers are in it" \
  grep -q "= 5 + 0 + 73,000 \* 7 + 8 \* 73,000 = 1,095,005 bytes (1.10 MB)" "$work/size_seeds.txt"
check "size: five years are over the limits and get the seeds' month bucket (JSON)" \
  golden size_five_years.json 0 size "$seeds/001_hotel.cql" -k hotel --json \
  --rows available_rooms_by_hotel_date=100x1825 --span available_rooms_by_hotel_date=1825 \
  --value-size hotel_id=5
check "size: the reservation keyspace with its materialized view" \
  golden size_reservation.txt 0 size "$seeds/003_reservation_with_view.cql" \
  --rows reservations_by_hotel_date=200 --rows reservations_by_guest=3

# --- 2. lint ------------------------------------------------------------------------------------
check "lint: the seeds' schema with Q1-Q9 (exit 1: errors)" \
  golden lint_seeds.txt 1 lint "$golden/seeds.cql" --queries "$seeds/hotel_q1_q9.cql"
check "lint: pois_by_hotel's uniqueness defect is flagged" \
  grep -qF "error: hotel.pois_by_hotel [key-uniqueness]" "$work/lint_seeds.txt"
check "lint: the materialized-view variant, as JSON" \
  golden lint_view.json 1 lint "$seeds/003_reservation_with_view.cql" --json
check "lint: with the error rule disabled only warnings remain (exit 0)" \
  bash -c '"$1" lint "$2" --disable key-uniqueness >/dev/null' _ "$cqlmodel" "$golden/seeds.cql"
cat >"$work/clean.cql" <<'CQL'
CREATE TABLE shop.orders_by_customer (customer_id uuid, month int, ordered_at timestamp,
    order_id uuid, total decimal, PRIMARY KEY ((customer_id, month), ordered_at, order_id));
CQL
printf "SELECT * FROM shop.orders_by_customer WHERE customer_id = ? AND month = 202611;\n" \
  >"$work/clean_queries.cql"
check "lint: a clean schema and query exit 0 with no finding" \
  bash -c '"$1" lint "$2" --queries "$3" | grep -qx "0 error(s), 0 warning(s), 0 info"' _ \
  "$cqlmodel" "$work/clean.cql" "$work/clean_queries.cql"
printf "SELECT * FROM shop.orders_by_customer WHERE total > 10 ALLOW FILTERING;\n" \
  >"$work/bad_queries.cql"
check "lint: a query scanning partitions fails the run" \
  bash -c '! "$1" lint "$2" --queries "$3" >/dev/null' _ "$cqlmodel" "$work/clean.cql" \
  "$work/bad_queries.cql"
check "lint: unknown rule" fails 2 "unknown lint rule nope" lint "$golden/seeds.cql" --disable nope

# --- 3. diagram ---------------------------------------------------------------------------------
check "diagram: the seeds' schema as SVG" golden diagram_seeds.svg 0 diagram "$golden/seeds.cql"
check "diagram: the seeds' logical model (no types)" \
  golden diagram_seeds_logical.svg 0 diagram "$golden/seeds.cql" --logical
check "diagram: the seeds' hotel keyspace as DOT" \
  golden diagram_hotel.dot 0 diagram "$golden/seeds.cql" -k hotel --format dot
check "diagram: -o writes the file" \
  bash -c '"$1" diagram "$2" -o "$3" && cmp -s "$3" "$4"' _ "$cqlmodel" "$golden/seeds.cql" \
  "$work/out.svg" "$golden/diagram_seeds.svg"
for i in $(seq 1 32); do
  columns=""
  for c in $(seq 1 $((i % 7 + 1))); do columns="$columns col_${c}_$(printf '%*s' $((i % 5)) '' | tr ' ' y) text,"; done
  printf 'CREATE TABLE wide.items_%s_by_owner (owner_id uuid, item_id timeuuid,%s qty int, PRIMARY KEY ((owner_id), item_id));\n' \
    "$i" "${columns//,/ STATIC,}"
done >"$work/wide.cql"
# no_overlap SVG: every table's outer rectangle (the first rect of its <g>) is disjoint from the
# others and inside the picture; prints the number of boxes.
no_overlap() {
  /usr/bin/python3 - "$1" "${2:-32}" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
width, height = map(float, re.search(r'<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"', svg).groups())
boxes = [tuple(map(float, m)) for m in re.findall(
    r'<g id="[^"]+">\n<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)"', svg)]
assert len(boxes) >= int(sys.argv[2]), len(boxes)
for i, (x, y, w, h) in enumerate(boxes):
    assert x >= 0 and y >= 0 and x + w <= width and y + h <= height, (x, y, w, h)
    for (x2, y2, w2, h2) in boxes[i + 1:]:
        assert not (x < x2 + w2 and x2 < x + w and y < y2 + h2 and y2 < y + h), (x, y, x2, y2)

PY
}
check "diagram: 32 generated tables, no boxes overlap" \
  bash -c '"$1" diagram "$2" -o "$3"' _ "$cqlmodel" "$work/wide.cql" "$work/wide.svg"
check "diagram: ... checked on the SVG" no_overlap "$work/wide.svg"
check "diagram: bad format" fails 2 "--format is svg or dot" diagram "$golden/seeds.cql" --format png
check "diagram: no --json" fails 2 "unknown option --json" diagram "$golden/seeds.cql" --json

# --- 3b. derive ---------------------------------------------------------------------------------
# derived WHAT CQL_GOLDEN STEM WORKFLOW: derive's four outputs of WORKFLOW against their goldens,
# the CQL in CQL_GOLDEN, the others in derive_STEM.{json,svg,size.txt}.
derived() {
  local what=$1 cql=$2 stem=$3 workflow=$4
  check "derive: $what as CQL" golden "$cql" 0 derive "$workflow"
  check "derive: $what, the logical model as JSON" \
    golden "derive_$stem.json" 0 derive "$workflow" --format json
  check "derive: $what, the diagram with the workflow arrows" \
    golden "derive_$stem.svg" 0 derive "$workflow" --format svg
  check "derive: $what, the size report of the access patterns' rows" \
    golden "derive_$stem.size.txt" 0 derive "$workflow" --format size
}
workflow=$data/../../examples/model/hotel.yaml
derived "the seeds' workflow (Q4: 100 rooms x 730 nights)" derive_hotel.cql hotel "$workflow"
# The derived reservations_by_guest completes the reservation's key; pois_by_hotel and
# amenities_by_room keep the seeds' name keys (the conceptual model keys by name), which lint doubts.
check "derive: lint accepts the derived reservations_by_guest" \
  bash -c '! "$1" lint "$2" | grep -q "reservations_by_guest \[key-uniqueness\]"' _ "$cqlmodel" \
  "$golden/derive_hotel.cql"
check "derive: ... and doubts only the name keys" \
  bash -c '[ "$("$1" lint "$2" | grep -c "\[key-uniqueness\]")" -eq 2 ]' _ "$cqlmodel" \
  "$golden/derive_hotel.cql"
check "derive: -o writes every format" \
  bash -c '"$1" derive "$2" -o "$3" >/dev/null && cmp "$3/hotel.cql" "$4/derive_hotel.cql" &&
    cmp "$3/hotel.svg" "$4/derive_hotel.svg" && cmp "$3/hotel.json" "$4/derive_hotel.json" &&
    cmp "$3/hotel.size.txt" "$4/derive_hotel.size.txt" &&
    "$1" derive "$2" --format dot | cmp - "$3/hotel.dot"' \
  _ "$cqlmodel" "$workflow" "$work/derived" "$golden"
check "derive: -o with --format writes that one" \
  bash -c '"$1" derive "$2" -o "$3" --format dot >/dev/null && [ "$(ls "$3")" = hotel.dot ]' \
  _ "$cqlmodel" "$workflow" "$work/derived_dot"
check "diagram --workflow: the seeds' schema with Q1-Q9's arrows" \
  golden diagram_seeds_workflow.svg 0 diagram "$golden/seeds.cql" --workflow "$workflow"
check "diagram --workflow: DOT edges" \
  bash -c '"$1" diagram "$2" --workflow "$3" --format dot |
    grep -qF "\"reservation.reservations_by_guest\" -> \"reservation.guests\" [label=\"Q9\"]"' \
  _ "$cqlmodel" "$golden/seeds.cql" "$workflow"
check "derive: bad format" fails 2 "--format is cql, json, svg, dot or size" \
  derive "$workflow" --format png
printf 'keyspaces: {k: {}}\nentities: {}\nqueries:\n  Q1: {keyspace: k, entity: Nope, equality: [a]}\n' \
  >"$work/bad.yaml"
check "derive: an unknown entity" fails 2 "query Q1 reads unknown entity 'Nope'" \
  derive "$work/bad.yaml"
check "derive: missing file" fails 2 "cannot read $work/none.yaml" derive "$work/none.yaml"

# --- 4. the service's schema -------------------------------------------------------------------
sed -e 's/\${prefix}//g' \
  -e "s/\${replication}/{'class': 'SimpleStrategy', 'replication_factor': 1}/g" \
  "$data/../../schema/hotel_service.cql" >"$work/service.cql"
check "service schema: size" bash -c '"$1" size "$2" | grep -q "^hotel.available_rooms_by_hotel_month"' \
  _ "$cqlmodel" "$work/service.cql"
check "service schema: lint passes, its name keys accepted by its cqlmodel: allow comments" \
  bash -c '"$1" lint "$2" >"$3" && grep -qF "  error: hotel.pois_by_hotel [key-uniqueness] allowed at $2:" "$3" &&
    grep -qF "  error: hotel.amenities_by_room [key-uniqueness] allowed at" "$3" &&
    grep -qE "^0 error\(s\), [0-9]+ warning\(s\), 0 info, 4 suppressed$" "$3"' \
  _ "$cqlmodel" "$work/service.cql" "$work/service_lint.txt"
check "service schema: without its comments lint finds pois_by_hotel's key and exits 1" \
  bash -c 'grep -v "cqlmodel: allow" "$2" >"$3"; "$1" lint "$3" >"$4"; [ $? -eq 1 ] &&
    grep -qF "error: hotel.pois_by_hotel [key-uniqueness]" "$4"' \
  _ "$cqlmodel" "$work/service.cql" "$work/service_bare.cql" "$work/service_bare.txt"
check "service schema: --allow on the command line instead" \
  bash -c '"$1" lint "$2" --allow key-uniqueness --allow table-naming:pois >/dev/null' \
  _ "$cqlmodel" "$work/service_bare.cql"
check "service schema: lint JSON lists the suppressed findings apart" \
  bash -c '"$1" lint "$2" --json | /usr/bin/python3 -c "import json,sys; r=json.load(sys.stdin)
assert not [f for f in r[\"findings\"] if f[\"severity\"]==\"error\"], r[\"findings\"]
assert sorted(f[\"object\"] for f in r[\"suppressed\"])==[\"hotel.amenities_by_room\",\"hotel.pois\",\"hotel.pois\",\"hotel.pois_by_hotel\"], r
assert all(f[\"reason\"] and f[\"allowed_at\"] for f in r[\"suppressed\"]) and r[\"unused_suppressions\"]==[]"' \
  _ "$cqlmodel" "$work/service.cql"
printf -- '-- cqlmodel: allow key-uniqueness\nCREATE TABLE k.t (a int PRIMARY KEY);\n' >"$work/noreason.cql"
check "lint: a suppression without a reason" fails 2 \
  "$work/noreason.cql:1: \`cqlmodel: allow key-uniqueness\` needs a reason after the rule" \
  lint "$work/noreason.cql"
check "lint: --allow of an unknown rule" fails 2 "unknown lint rule nope" \
  lint "$work/service.cql" --allow nope
check "service schema: diagram of every table and type" \
  bash -c '[ "$("$1" diagram "$2" | grep -c "^<g id=")" -eq "$3" ]' _ "$cqlmodel" \
  "$work/service.cql" "$(grep -cE "^CREATE (TABLE|TYPE|MATERIALIZED VIEW)" "$work/service.cql")"

check "service schema: every table and view in the size report" \
  bash -c '[ "$("$1" size "$2" | grep -cE "^(hotel|reservation)\.[a-z_]+  -- ")" -eq "$3" ]' \
  _ "$cqlmodel" "$work/service.cql" "$(grep -cE "^CREATE (TABLE|MATERIALIZED VIEW)" "$work/service.cql")"
check "service schema: size JSON parses, every estimate within the limits at 100 rows" \
  bash -c '"$1" size "$2" --json | /usr/bin/python3 -c "import json,sys; r=json.load(sys.stdin)
assert len(r) >= 18 and all(not t[\"estimate\"][\"over_values\"] for t in r), r"' \
  _ "$cqlmodel" "$work/service.cql"
"$cqlmodel" diagram "$work/service.cql" -o "$work/service.svg"
check "service schema: the diagram's boxes do not overlap" no_overlap "$work/service.svg" 20
"$cqlmodel" diagram "$work/service.cql" --workflow "$data/../../examples/model/hotel.yaml" \
  -o "$work/service_workflow.svg"
check "service schema: the seeds' workflow draws its arrows on the service's tables" \
  bash -c '[ "$(grep -c "marker-end" "$1")" -ge 9 ]' _ "$work/service_workflow.svg"
check "service schema: ... without overlapping boxes" no_overlap "$work/service_workflow.svg" 20

# --- 5. a live server ---------------------------------------------------------------------------
if [ -n "$cqld" ] && [ -n "$hotel" ]; then
  "$cqld" --data "$work/cqld" --address 127.0.0.1 --port 0 --admin-port 0 \
    >"$work/cqld.out" 2>"$work/cqld.err" &
  cqld_pid=$!
  port=$(started '127\.0\.0\.1:[0-9]+' "$work/cqld.out" "$work/cqld.err" "$cqld_pid" cqld |
    cut -d: -f2)
  check "live: hotel load writes 2 hotels x 10 rooms x 8 days" \
    bash -c '"$1" load --cassandra "127.0.0.1:$2" --hotels 2 --rooms 10 --days 8 >/dev/null 2>&1' \
    _ "$hotel" "$port"
  "$cqlmodel" size "$work/service.cql" -k hotel --host 127.0.0.1 --port "$port" \
    >"$work/live.txt" 2>&1
  check "live: size --host exits 0" [ $? -eq 0 ]
  check "live: the availability partitions are measured beside the estimate" \
    bash -c 'sed -n "/^hotel.available_rooms_by_hotel_date /,/^\$/p" "$1" |
      grep -qE "^  measured: 2 partitions \(160 rows read\)"' _ "$work/live.txt"
  check "live: ... 80 rows each" \
    bash -c 'sed -n "/^hotel.available_rooms_by_hotel_date /,/^\$/p" "$1" |
      grep -qE "^    Nr mean 80.0, max 80;"' _ "$work/live.txt"
  check "live: JSON carries the measurement" \
    bash -c '"$1" size "$2" -k hotel --json --host 127.0.0.1 --port "$3" |
      /usr/bin/python3 -c "import json,sys; r={t[\"table\"]: t for t in json.load(sys.stdin)};
m=r[\"hotel.available_rooms_by_hotel_date\"][\"measured\"]; assert m[\"partitions\"]==2 and m[\"max_rows\"]==80, m"' \
    _ "$cqlmodel" "$work/service.cql" "$port"
  # The storage's own figures count flushed data only: flush the load first (the admin
  # listener is on the free port the start line names).
  admin_port=$(grep -oE 'admin 127\.0\.0\.1:[0-9]+' "$work/cqld.out" | cut -d: -f2)
  check "live: cqld admin flush" \
    bash -c '"$1" admin --host 127.0.0.1 --admin-port "$2" flush hotel >/dev/null' \
    _ "$cqld" "$admin_port"
  "$cqlmodel" size "$work/service.cql" -k hotel --host 127.0.0.1 --port "$port" \
    --source estimates >"$work/live_estimates.txt" 2>&1
  check "live: --source estimates exits 0" [ $? -eq 0 ]
  check "live: system.size_estimates counts the 2 availability partitions beside the estimate" \
    bash -c 'sed -n "/^hotel.available_rooms_by_hotel_date /,/^\$/p" "$1" |
      grep -qE "^  measured \(system.size_estimates\): 2 partitions, St mean [0-9,]+ bytes"' \
    _ "$work/live_estimates.txt"
  "$cqlmodel" size "$work/service.cql" -k hotel --host 127.0.0.1 --port "$port" \
    --source histograms >"$work/live_histograms.txt" 2>&1
  check "live: --source histograms exits 0" [ $? -eq 0 ]
  check "live: cqld's histograms show the availability partitions and their rows" \
    bash -c 'sed -n "/^hotel.available_rooms_by_hotel_date /,/^\$/p" "$1" |
      grep -qE "^  measured \(system_views.partition_histograms\): 2 partitions" &&
      sed -n "/^hotel.available_rooms_by_hotel_date /,/^\$/p" "$1" |
      grep -qE "^    0 partition\(s\) over the seeds. limits"' _ "$work/live_histograms.txt"
  check "live: histograms in JSON: 2 partitions of 80 rows (a bucket bound at or above 80)" \
    bash -c '"$1" size "$2" -k hotel --json --host 127.0.0.1 --port "$3" --source histograms |
      /usr/bin/python3 -c "import json,sys; r={t[\"table\"]: t for t in json.load(sys.stdin)};
m=r[\"hotel.available_rooms_by_hotel_date\"][\"measured\"];
assert m[\"source\"]==\"histograms\" and m[\"partitions\"]==2 and 80<=m[\"max_rows\"]<=100, m
assert m[\"max_bytes\"]>0 and m[\"over_limits\"]==0, m"' \
    _ "$cqlmodel" "$work/service.cql" "$port"
  # Without a schema file, the server's own schema (its DESCRIBE SCHEMA).
  check "live: diagram of the server's schema, every table and type of keyspace hotel" \
    bash -c '[ "$("$1" diagram --host 127.0.0.1 --port "$2" -k hotel | grep -c "^<g id=\"hotel\.")" \
      -eq "$(grep -cE "^CREATE (TABLE|TYPE) (IF NOT EXISTS )?hotel\." "$3")" ]' \
    _ "$cqlmodel" "$port" "$work/service.cql"
  check "live: lint of the server's schema (no comments there: the name keys are errors)" \
    bash -c '"$1" lint --host 127.0.0.1 --port "$2" >"$3"; [ $? -eq 1 ] &&
      grep -qF "error: hotel.pois_by_hotel [key-uniqueness]" "$3" &&
      "$1" lint --host 127.0.0.1 --port "$2" --allow key-uniqueness --allow table-naming:pois \
        >/dev/null' _ "$cqlmodel" "$port" "$work/server_lint.txt"
  check "live: size of the server's schema, measured from its histograms" \
    bash -c '"$1" size --host 127.0.0.1 --port "$2" -k hotel --source histograms |
      sed -n "/^hotel.available_rooms_by_hotel_date /,/^\$/p" |
      grep -qE "^  measured \(system_views.partition_histograms\): 2 partitions"' \
    _ "$cqlmodel" "$port"
  check "live: an unknown keyspace" fails 2 "127.0.0.1:$port: " \
    diagram --host 127.0.0.1 --port "$port" -k nope
  check "live: a bad --source" fails 2 "unknown source 'sample'" \
    size "$work/service.cql" --host 127.0.0.1 --port "$port" --source sample
  check "live: --source without --host" fails 2 "--source needs --host" \
    size "$work/service.cql" --source estimates
  printf 'CREATE TABLE hotel.no_such_table (id int PRIMARY KEY);\n' >"$work/missing.cql"
  check "live: a table the server lacks is reported as failed" \
    bash -c '"$1" size "$2" --host 127.0.0.1 --port "$3" | grep -q "^  measured: failed: .*no_such_table"' \
    _ "$cqlmodel" "$work/missing.cql" "$port"
  end "$cqld_pid"
  cqld_pid=""
  check "live: an unreachable server exits 2" fails 2 "127.0.0.1:$port" \
    size "$golden/seeds.cql" --host 127.0.0.1 --port "$port"
else
  echo "cqlmodel cli: live checks skipped (no CQLD_BINARY and HOTEL_BINARY)"
fi

# --- 7. a schema of 38 tables: the marketplace -------------------------------------------------
# tests/data/model/marketplace.yaml (38 access patterns over 4 keyspaces) derives
# marketplace.cql, on which every subcommand has a golden.
market=$golden/marketplace.cql
derived "the marketplace's 38 access patterns" marketplace.cql marketplace \
  "$golden/marketplace.yaml"
check "marketplace: 38 tables" bash -c '[ "$(grep -c "^CREATE TABLE" "$1")" -eq 38 ]' _ "$market"
check "marketplace: diagram" golden diagram_marketplace.svg 0 diagram "$market"
check "marketplace: diagram, no boxes overlap" no_overlap "$golden/diagram_marketplace.svg" 38
check "marketplace: diagram with the workflow, no boxes overlap" \
  no_overlap "$golden/derive_marketplace.svg" 38
check "marketplace: diagram --logical" golden diagram_marketplace_logical.svg 0 diagram "$market" \
  --logical
check "marketplace: size (bot sign-ins: 100 a day for five years, bucketed by month)" \
  golden size_marketplace.txt 0 size "$market" --rows logins_by_user_login_at=100x1825 \
  --span logins_by_user_login_at=1825 --rows products_by_category=250000 \
  --rows messages_by_conversation=200 --value-size review_text=400 --value-size body=300
check "marketplace: lint" golden lint_marketplace.txt 1 lint "$market"

# --- 6. errors ----------------------------------------------------------------------------------
check "no subcommand: usage" fails 2 "usage: cqlmodel" 
check "unknown subcommand" fails 2 "unknown command frobnicate" frobnicate x.cql
check "unknown option" fails 2 "unknown option --nope" size "$seeds/001_hotel.cql" --nope 1
check "bad row count" fails 2 "invalid --rows t=abc" size "$seeds/001_hotel.cql" --rows t=abc
check "missing file" fails 2 "cannot read $work/none.cql" size "$work/none.cql"
printf 'CREATE TABLE t (a int PRIMARY KEY);\n' >"$work/nokeyspace.cql"
check "schema without keyspace" fails 2 "No keyspace has been specified" size "$work/nokeyspace.cql"
printf 'CREATE TABLE k.t (a int PRIMARY KEY\n' >"$work/syntax.cql"
check "syntax error" fails 2 "line 0:-1 mismatched input '<EOF>'" size "$work/syntax.cql"

if [ "$failures" -ne 0 ]; then
  echo "cqlmodel cli: $failures check(s) failed"
  exit 1
fi
echo "cqlmodel cli: all checks passed"
