// PasswordAuthenticator and CassandraAuthorizer through gocql's PasswordAuthenticator (Debian's
// golang-github-gocql-gocql-dev, GOPATH mode). Runs under tests/drivers/run_suite.sh go_auth:
// cqld with --authenticator PasswordAuthenticator --authorizer CassandraAuthorizer, the
// superuser's password in CQLD_SUPERUSER_PASSWORD, CQLD_HOST and CQLD_PORT from
// run_with_cqld.sh. With CQLD_TLS_CA set the driver connects over TLS and verifies cqld's
// certificate against that CA (CQLD_TLS_CLIENT_CERT and CQLD_TLS_CLIENT_KEY add a client
// certificate); see tests/drivers/README.md.
package cqlddriversauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

// gocql 1.3.2 speaks v5 only as the pre-release "v5-beta" (no v5 segments), which cqld does
// not serve: v4 pinned, and 0 = gocql's own protocol discovery (which lands on v4).
var protocols = []int{4, 0}

type frameVersions struct {
	mu       sync.Mutex
	versions map[byte]int
}

func (f *frameVersions) ObserveFrameHeader(_ context.Context, h gocql.ObservedFrameHeader) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.versions[byte(h.Version)&0x7f]++
}

func superuserPassword(t *testing.T) string {
	t.Helper()
	password := os.Getenv("CQLD_SUPERUSER_PASSWORD")
	if password == "" {
		t.Fatal("CQLD_SUPERUSER_PASSWORD is not set: run through tests/drivers/run_suite.sh go_auth")
	}
	return password
}

// newCluster is the configuration of a client logging in as username (none when empty).
func newCluster(t *testing.T, username, password string, protocol int) *gocql.ClusterConfig {
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
	cluster.ProtoVersion = protocol
	// The defaults (600 ms) are tight for a sanitizer build on a shared 2-core machine; a
	// refused login takes cqld's 1 s delay on top.
	cluster.Timeout = 10 * time.Second
	cluster.ConnectTimeout = 10 * time.Second
	// One connection: every refused login costs 1 s, and one connection is all a test needs.
	cluster.NumConns = 1
	if username != "" {
		cluster.Authenticator = gocql.PasswordAuthenticator{Username: username, Password: password}
	}
	if ca := os.Getenv("CQLD_TLS_CA"); ca != "" {
		cluster.SslOpts = &gocql.SslOptions{
			CaPath:                 ca,
			CertPath:               os.Getenv("CQLD_TLS_CLIENT_CERT"),
			KeyPath:                os.Getenv("CQLD_TLS_CLIENT_KEY"),
			EnableHostVerification: true,
		}
	}
	return cluster
}

func connect(t *testing.T, username, password string, protocol int) *gocql.Session {
	t.Helper()
	session, err := newCluster(t, username, password, protocol).CreateSession()
	if err != nil {
		t.Fatalf("CreateSession as %q: %v", username, err)
	}
	t.Cleanup(session.Close)
	return session
}

// refused checks that logging in fails with an error whose text contains want.
func refused(t *testing.T, username, password string, protocol int, want string) {
	t.Helper()
	session, err := newCluster(t, username, password, protocol).CreateSession()
	if err == nil {
		session.Close()
		t.Fatalf("CreateSession as %q succeeded, want an error containing %q", username, want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("CreateSession as %q: %v, want an error containing %q", username, err, want)
	}
}

func exec(t *testing.T, s *gocql.Session, stmt string, values ...interface{}) {
	t.Helper()
	if err := s.Query(stmt, values...).Exec(); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// unauthorized checks that err is cqld's Unauthorized error (0x2100) containing want.
func unauthorized(t *testing.T, what string, err error, want string) {
	t.Helper()
	e, ok := err.(gocql.RequestError)
	if !ok || e.Code() != gocql.ErrCodeUnauthorized || !strings.Contains(e.Message(), want) {
		t.Fatalf("%s: %v (%T), want Unauthorized (0x2100) containing %q", what, err, err, want)
	}
}

func uniqueName(t *testing.T, prefix string) string {
	t.Helper()
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

func forEachProtocol(t *testing.T, f func(t *testing.T, protocol int)) {
	for _, protocol := range protocols {
		protocol := protocol
		name := fmt.Sprintf("v%d", protocol)
		if protocol == 0 {
			name = "discovered"
		}
		t.Run(name, func(t *testing.T) { f(t, protocol) })
	}
}

func TestSuperuserLogsIn(t *testing.T) {
	password := superuserPassword(t)
	forEachProtocol(t, func(t *testing.T, protocol int) {
		observer := &frameVersions{versions: map[byte]int{}}
		cluster := newCluster(t, "cassandra", password, protocol)
		cluster.FrameHeaderObserver = observer
		s, err := cluster.CreateSession()
		if err != nil {
			t.Fatalf("CreateSession: %v", err)
		}
		defer s.Close()
		found := false
		iter := s.Query("LIST ROLES").Iter()
		for row := map[string]interface{}{}; iter.MapScan(row); row = map[string]interface{}{} {
			if row["role"] == "cassandra" {
				found = true
				if row["super"] != true || row["login"] != true {
					t.Errorf("LIST ROLES: cassandra super=%v login=%v", row["super"], row["login"])
				}
			}
		}
		if err := iter.Close(); err != nil {
			t.Fatalf("LIST ROLES: %v", err)
		}
		if !found {
			t.Error("LIST ROLES has no role cassandra")
		}
		var release string
		if err := s.Query("SELECT release_version FROM system.local").Scan(&release); err != nil {
			t.Fatal(err)
		}
		if release == "" {
			t.Error("system.local: empty release_version")
		}
		observer.mu.Lock()
		defer observer.mu.Unlock()
		if observer.versions[4] == 0 || len(observer.versions) != 1 {
			t.Errorf("frame versions read: %v, want only v4", observer.versions)
		}
	})
}

func TestNoCredentialsIsRefused(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, protocol int) {
		// gocql's own message when cqld answers STARTUP with AUTHENTICATE and it has no
		// authenticator.
		refused(t, "", "", protocol,
			`authentication required (using "org.apache.cassandra.auth.PasswordAuthenticator")`)
	})
}

func TestWrongPasswordIsRefused(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, protocol int) {
		refused(t, "cassandra", "not-the-password", protocol,
			"Provided username cassandra and/or password are incorrect")
	})
}

func TestRolesCreatedByTheSuperuserLogIn(t *testing.T) {
	password := superuserPassword(t)
	name := uniqueName(t, "r")
	admin := connect(t, "cassandra", password, 4)
	exec(t, admin, "CREATE ROLE "+name+" WITH PASSWORD = 'pw-"+name+"' AND LOGIN = true")
	exec(t, admin, "CREATE ROLE "+name+"_nologin WITH PASSWORD = 'pw'")

	s := connect(t, name, "pw-"+name, 4)
	var clusterName string
	if err := s.Query("SELECT cluster_name FROM system.local").Scan(&clusterName); err != nil {
		t.Fatal(err)
	}
	unauthorized(t, "CREATE ROLE as "+name,
		s.Query("CREATE ROLE "+name+"_boss WITH SUPERUSER = true").Exec(),
		"User "+name+" has no CREATE permission on <all roles>")
	exec(t, s, "ALTER ROLE "+name+" WITH PASSWORD = 'changed'")
	s.Close()

	refused(t, name, "pw-"+name, 4, "Provided username "+name+" and/or password are incorrect")
	connect(t, name, "changed", 4).Close()
	refused(t, name+"_nologin", "pw", 4, name+"_nologin is not permitted to log in")
}

// A role with SELECT on a keyspace reads but does not write; MODIFY granted (and revoked) by
// the superuser on another connection takes effect on the role's open session; prepared
// statements are checked when executed, batches for every table they write.
func TestPermissionsTakeEffectWithoutReconnecting(t *testing.T) {
	password := superuserPassword(t)
	forEachProtocol(t, func(t *testing.T, protocol int) {
		name := uniqueName(t, "p")
		admin := connect(t, "cassandra", password, protocol)
		exec(t, admin, "CREATE KEYSPACE "+name+
			" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
		defer exec(t, admin, "DROP KEYSPACE "+name)
		exec(t, admin, "CREATE TABLE "+name+".t (k int PRIMARY KEY, v int)")
		exec(t, admin, "CREATE TABLE "+name+".u (k int PRIMARY KEY, v int)")
		exec(t, admin, "INSERT INTO "+name+".t (k, v) VALUES (0, 0)")
		exec(t, admin, "CREATE ROLE "+name+" WITH PASSWORD = 'pw' AND LOGIN = true")
		defer exec(t, admin, "DROP ROLE "+name)
		exec(t, admin, "GRANT SELECT ON KEYSPACE "+name+" TO "+name)

		s := connect(t, name, "pw", protocol)
		count := func() int {
			t.Helper()
			var n int
			if err := s.Query("SELECT count(*) FROM " + name + ".t").Scan(&n); err != nil {
				t.Fatalf("SELECT count(*) as %s: %v", name, err)
			}
			return n
		}
		var v int
		// gocql prepares every statement with bind values, so this SELECT is prepared.
		if err := s.Query("SELECT v FROM "+name+".t WHERE k = ?", 0).Scan(&v); err != nil || v != 0 {
			t.Fatalf("prepared SELECT as %s: v=%d, %v", name, v, err)
		}
		if count() != 1 {
			t.Fatal("SELECT count(*) before any write: want 1 row")
		}

		noModifyT := "User " + name + " has no MODIFY permission on <table " + name + ".t>"
		simple := "INSERT INTO " + name + ".t (k, v) VALUES (1, 1)" // no bind values: QUERY
		prepared := "INSERT INTO " + name + ".t (k, v) VALUES (?, ?)"
		batch := func(tables ...string) error {
			b := s.NewBatch(gocql.LoggedBatch)
			for i, table := range tables {
				b.Query("INSERT INTO "+name+"."+table+" (k, v) VALUES (?, ?)", 10+i, 10+i)
			}
			return s.ExecuteBatch(b)
		}
		unauthorized(t, "INSERT without MODIFY", s.Query(simple).Exec(), noModifyT)
		unauthorized(t, "prepared INSERT without MODIFY", s.Query(prepared, 2, 2).Exec(), noModifyT)
		unauthorized(t, "batch without MODIFY", batch("t"), noModifyT)
		if count() != 1 {
			t.Fatal("a refused write changed the table")
		}

		exec(t, admin, "GRANT MODIFY ON TABLE "+name+".t TO "+name)
		exec(t, s, simple)
		exec(t, s, prepared, 2, 2)
		if err := batch("t"); err != nil {
			t.Fatalf("batch on t with MODIFY on t: %v", err)
		}
		if count() != 4 {
			t.Fatal("after the writes: want 4 rows")
		}
		unauthorized(t, "batch on t and u with MODIFY on t only", batch("t", "u"),
			"User "+name+" has no MODIFY permission on <table "+name+".u>")

		// The statement is prepared on this connection already: only EXECUTE goes out now.
		exec(t, admin, "REVOKE MODIFY ON TABLE "+name+".t FROM "+name)
		unauthorized(t, "prepared INSERT after REVOKE", s.Query(prepared, 3, 3).Exec(), noModifyT)
		exec(t, admin, "REVOKE SELECT ON KEYSPACE "+name+" FROM "+name)
		err := s.Query("SELECT v FROM "+name+".t WHERE k = ?", 0).Scan(&v)
		unauthorized(t, "prepared SELECT after REVOKE", err,
			"User "+name+" has no SELECT permission on <table "+name+".t>")
	})
}
