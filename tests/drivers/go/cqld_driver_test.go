// cqld against gocql (Debian's golang-github-gocql-gocql-dev, built in GOPATH mode; see
// tests/drivers/run_suite.sh). Runs under tests/drivers/run_with_cqld.sh, which exports
// CQLD_HOST and CQLD_PORT. The protocol version is left to gocql's discovery.
package cqlddrivers

import (
	"context"
	"math/big"
	"os"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"gopkg.in/inf.v0"
)

const keyspace = "drv_go"

// frameVersions records the protocol version byte of every frame the driver reads.
type frameVersions struct {
	mu       sync.Mutex
	versions map[byte]int
}

func (f *frameVersions) ObserveFrameHeader(_ context.Context, h gocql.ObservedFrameHeader) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.versions[byte(h.Version)&0x7f]++
}

func newCluster(t *testing.T) *gocql.ClusterConfig {
	t.Helper()
	host := os.Getenv("CQLD_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	port, err := strconv.Atoi(os.Getenv("CQLD_PORT"))
	if err != nil {
		t.Fatalf("CQLD_PORT: %v", err)
	}
	cluster := gocql.NewCluster(host)
	cluster.Port = port
	// The defaults (600 ms) are tight for a sanitizer build on a shared 2-core machine.
	cluster.Timeout = 10 * time.Second
	cluster.ConnectTimeout = 10 * time.Second
	return cluster
}

func connect(t *testing.T, observer *frameVersions) *gocql.Session {
	t.Helper()
	cluster := newCluster(t)
	if observer != nil {
		cluster.FrameHeaderObserver = observer
	}
	session, err := cluster.CreateSession()
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return session
}

func exec(t *testing.T, s *gocql.Session, stmt string, values ...interface{}) {
	t.Helper()
	if err := s.Query(stmt, values...).Exec(); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

func setUp(t *testing.T) *gocql.Session {
	t.Helper()
	s := connect(t, nil)
	exec(t, s, "DROP KEYSPACE IF EXISTS "+keyspace)
	exec(t, s, "CREATE KEYSPACE "+keyspace+
		" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
	t.Cleanup(func() {
		_ = s.Query("DROP KEYSPACE IF EXISTS " + keyspace).Exec()
		s.Close()
	})
	return s
}

func TestConnectNegotiatesV4(t *testing.T) {
	observer := &frameVersions{versions: map[byte]int{}}
	s := connect(t, observer)
	defer s.Close()
	var release, cluster string
	if err := s.Query("SELECT release_version, cluster_name FROM system.local WHERE key = 'local'").
		Scan(&release, &cluster); err != nil {
		t.Fatal(err)
	}
	if cluster != "Test Cluster" || release == "" || release[0] != '4' {
		t.Errorf("system.local: cluster_name %q release_version %q", cluster, release)
	}
	observer.mu.Lock()
	defer observer.mu.Unlock()
	if observer.versions[4] == 0 || len(observer.versions) != 1 {
		t.Errorf("frame versions read: %v, want only v4", observer.versions)
	}
}

func TestSchemaMetadata(t *testing.T) {
	s := setUp(t)
	exec(t, s, "CREATE TYPE "+keyspace+".address (street text, city text)")
	exec(t, s, "CREATE TABLE "+keyspace+".poi (poi_name text, poi_description text STATIC, "+
		"hotel_id text, day date, addr frozen<address>, PRIMARY KEY ((poi_name), hotel_id, day)) "+
		"WITH CLUSTERING ORDER BY (hotel_id ASC, day DESC)")
	exec(t, s, "CREATE TABLE "+keyspace+".rooms (hotel_id text, day date, room smallint, "+
		"free boolean, PRIMARY KEY (hotel_id, day, room))")
	exec(t, s, "CREATE MATERIALIZED VIEW "+keyspace+".rooms_by_day AS SELECT * FROM "+keyspace+
		".rooms WHERE hotel_id IS NOT NULL AND day IS NOT NULL AND room IS NOT NULL "+
		"PRIMARY KEY (day, hotel_id, room)")
	ks, err := s.KeyspaceMetadata(keyspace)
	if err != nil {
		t.Fatal(err)
	}
	if ks.StrategyClass != "org.apache.cassandra.locator.SimpleStrategy" {
		t.Errorf("strategy %q", ks.StrategyClass)
	}
	table := ks.Tables["poi"]
	if table == nil {
		t.Fatalf("no table poi in %v", ks.Tables)
	}
	names := func(cols []*gocql.ColumnMetadata) []string {
		var out []string
		for _, c := range cols {
			out = append(out, c.Name)
		}
		return out
	}
	if got := names(table.PartitionKey); !reflect.DeepEqual(got, []string{"poi_name"}) {
		t.Errorf("partition key %v", got)
	}
	if got := names(table.ClusteringColumns); !reflect.DeepEqual(got, []string{"hotel_id", "day"}) {
		t.Errorf("clustering columns %v", got)
	}
	if table.ClusteringColumns[0].Order != gocql.ASC || table.ClusteringColumns[1].Order != gocql.DESC {
		t.Errorf("clustering orders %v %v", table.ClusteringColumns[0].Order,
			table.ClusteringColumns[1].Order)
	}
	if table.Columns["poi_description"].Kind != gocql.ColumnStatic {
		t.Errorf("poi_description kind %v", table.Columns["poi_description"].Kind)
	}
	udt := ks.UserTypes["address"]
	if udt == nil || !reflect.DeepEqual(udt.FieldNames, []string{"street", "city"}) {
		t.Errorf("udt address: %+v", udt)
	}
	view := ks.MaterializedViews["rooms_by_day"]
	if view == nil || !view.IncludeAllColumns || view.BaseTable == nil || view.BaseTable.Name != "rooms" {
		t.Errorf("view rooms_by_day: %+v", view)
	}
}

type address struct {
	Street string `cql:"street"`
	City   string `cql:"city"`
}

func TestPreparedRoundTrip(t *testing.T) {
	s := setUp(t)
	exec(t, s, "CREATE TYPE "+keyspace+".address (street text, city text)")
	exec(t, s, "CREATE TABLE "+keyspace+".typed (k int PRIMARY KEY, b bigint, d decimal, "+
		"vi varint, u uuid, tu timeuuid, ts timestamp, day date, bl blob, m map<text, int>, "+
		"st set<text>, l list<int>, addr frozen<address>, dur duration, sm smallint, ti tinyint)")
	u, _ := gocql.ParseUUID("5b6962dd-3f90-4c93-8f61-eabfa4a803e2")
	tu := gocql.TimeUUID()
	ts := time.Date(2016, 1, 2, 3, 4, 5, 678000000, time.UTC)
	day := time.Date(2016, 1, 2, 0, 0, 0, 0, time.UTC)
	vi, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	dec := inf.NewDec(123456789, 4)
	dur := gocql.Duration{Months: 1, Days: 2, Nanoseconds: 3000000000}
	exec(t, s, "INSERT INTO "+keyspace+".typed (k, b, d, vi, u, tu, ts, day, bl, m, st, l, addr, "+
		"dur, sm, ti) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		1, int64(-9223372036854775808), dec, vi, u, tu, ts, day, []byte{0, 255},
		map[string]int{"a": 1, "b": 2}, []string{"x", "y"}, []int{3, 1, 2},
		address{"1 Main St", "Springfield"}, dur, int16(-32768), int8(127))

	var (
		b          int64
		gotDec     *inf.Dec
		gotVi      *big.Int
		gotU, gotT gocql.UUID
		gotTs      time.Time
		gotDay     time.Time
		bl         []byte
		m          map[string]int
		st         []string
		l          []int
		addr       address
		gotDur     gocql.Duration
		sm         int16
		ti         int8
	)
	if err := s.Query("SELECT b, d, vi, u, tu, ts, day, bl, m, st, l, addr, dur, sm, ti FROM "+
		keyspace+".typed WHERE k = ?", 1).Scan(&b, &gotDec, &gotVi, &gotU, &gotT, &gotTs, &gotDay,
		&bl, &m, &st, &l, &addr, &gotDur, &sm, &ti); err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want interface{}) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	check("bigint", b, int64(-9223372036854775808))
	check("decimal", gotDec.String(), "12345.6789")
	check("varint", gotVi.String(), vi.String())
	check("uuid", gotU, u)
	check("timeuuid", gotT, tu)
	check("timestamp", gotTs.UTC(), ts)
	check("date", gotDay.UTC(), day)
	check("blob", bl, []byte{0, 255})
	check("map", m, map[string]int{"a": 1, "b": 2})
	check("set", st, []string{"x", "y"})
	check("list", l, []int{3, 1, 2})
	check("udt", addr, address{"1 Main St", "Springfield"})
	check("duration", gotDur, dur)
	check("smallint", sm, int16(-32768))
	check("tinyint", ti, int8(127))
}

func TestPaging(t *testing.T) {
	s := setUp(t)
	exec(t, s, "CREATE TABLE "+keyspace+".wide (p text, c int, PRIMARY KEY (p, c))")
	const rows = 53
	for c := 0; c < rows; c++ {
		exec(t, s, "INSERT INTO "+keyspace+".wide (p, c) VALUES (?, ?)", "part", c)
	}
	query := "SELECT c FROM " + keyspace + ".wide WHERE p = ?"
	for _, pageSize := range []int{1, 2, 5, 7, 10, 53, 100} {
		iter := s.Query(query, "part").PageSize(pageSize).Iter()
		var c, next int
		for iter.Scan(&c) {
			if c != next {
				t.Fatalf("page size %d: row %d is %d", pageSize, next, c)
			}
			next++
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		if next != rows {
			t.Errorf("page size %d: %d rows, want %d", pageSize, next, rows)
		}
	}

	// Manual paging with PageState: one page per request.
	var state []byte
	var seen []int
	for pages := 0; ; pages++ {
		if pages > rows {
			t.Fatal("paging does not end")
		}
		iter := s.Query(query, "part").PageSize(20).PageState(state).Iter()
		var c int
		for iter.Scan(&c) {
			seen = append(seen, c)
		}
		state = iter.PageState()
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		if len(state) == 0 {
			break
		}
	}
	if len(seen) != rows || seen[0] != 0 || seen[rows-1] != rows-1 {
		t.Errorf("manual paging read %v", seen)
	}
}

func TestBatches(t *testing.T) {
	s := setUp(t)
	exec(t, s, "CREATE TABLE "+keyspace+".b (k int, c int, v text, PRIMARY KEY (k, c))")
	exec(t, s, "CREATE TABLE "+keyspace+".n (k int PRIMARY KEY, hits counter)")
	logged := s.NewBatch(gocql.LoggedBatch)
	for c := 0; c < 3; c++ {
		logged.Query("INSERT INTO "+keyspace+".b (k, c, v) VALUES (?, ?, ?)", 1, c, "v"+strconv.Itoa(c))
	}
	if err := s.ExecuteBatch(logged); err != nil {
		t.Fatal(err)
	}
	counter := s.NewBatch(gocql.CounterBatch)
	counter.Query("UPDATE "+keyspace+".n SET hits = hits + ? WHERE k = ?", int64(3), 1)
	counter.Query("UPDATE "+keyspace+".n SET hits = hits + ? WHERE k = ?", int64(-4), 2)
	if err := s.ExecuteBatch(counter); err != nil {
		t.Fatal(err)
	}
	var count int
	if err := s.Query("SELECT COUNT(*) FROM " + keyspace + ".b WHERE k = 1").Scan(&count); err != nil {
		t.Fatal(err)
	}
	hits := map[int]int64{}
	iter := s.Query("SELECT k, hits FROM " + keyspace + ".n").Iter()
	var k int
	var n int64
	for iter.Scan(&k, &n) {
		hits[k] = n
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	if count != 3 || !reflect.DeepEqual(hits, map[int]int64{1: 3, 2: -4}) {
		t.Errorf("count %d hits %v, want 3 and map[1:3 2:-4]", count, hits)
	}
}

func TestLightweightTransactions(t *testing.T) {
	s := setUp(t)
	exec(t, s, "CREATE TABLE "+keyspace+".users (login text PRIMARY KEY, name text, version int)")
	insert := "INSERT INTO " + keyspace + ".users (login, name, version) VALUES (?, ?, ?) IF NOT EXISTS"
	previous := map[string]interface{}{}
	applied, err := s.Query(insert, "jdoe", "John", 1).MapScanCAS(previous)
	if err != nil || !applied {
		t.Fatalf("first insert: applied %v err %v", applied, err)
	}
	previous = map[string]interface{}{}
	applied, err = s.Query(insert, "jdoe", "Jane", 2).MapScanCAS(previous)
	if err != nil || applied {
		t.Fatalf("second insert: applied %v err %v", applied, err)
	}
	if previous["name"] != "John" || previous["version"] != 1 {
		t.Errorf("second insert returned %v", previous)
	}
	previous = map[string]interface{}{}
	applied, err = s.Query("UPDATE "+keyspace+".users SET name = ? WHERE login = ? IF version = ?",
		"X", "jdoe", 5).MapScanCAS(previous)
	if err != nil || applied || previous["version"] != 1 {
		t.Errorf("update: applied %v err %v previous %v", applied, err, previous)
	}
}

func TestErrors(t *testing.T) {
	s := setUp(t)
	err := s.Query("SELEC * FROM system.local").Exec()
	if e, ok := err.(gocql.RequestError); !ok || e.Code() != gocql.ErrCodeSyntax ||
		e.Message() != "line 1:0 no viable alternative at input 'SELEC' ([SELEC]...)" {
		t.Errorf("syntax error: %T %v", err, err)
	}
	exec(t, s, "CREATE TABLE "+keyspace+".t (k int PRIMARY KEY)")
	err = s.Query("CREATE TABLE " + keyspace + ".t (k int PRIMARY KEY)").Exec()
	if e, ok := err.(*gocql.RequestErrAlreadyExists); !ok || e.Keyspace != keyspace || e.Table != "t" {
		t.Errorf("already exists: %T %v", err, err)
	}
	err = s.Query("SELECT nope FROM " + keyspace + ".t").Exec()
	if e, ok := err.(gocql.RequestError); !ok || e.Code() != gocql.ErrCodeInvalid ||
		e.Message() != "Undefined column name nope in table "+keyspace+".t" {
		t.Errorf("invalid: %T %v", err, err)
	}
}
