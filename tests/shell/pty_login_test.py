#!/usr/bin/env python3
"""Password prompts and history at a terminal (run by tests/shell/cli_tls_auth_test.sh).

    HOME=DIR pty_login_test.py CQL_BINARY RO_PASSWORD SUPER_PASSWORD TARGET_ARGS...

TARGET_ARGS select the server (e.g. `--ssl --ssl-ca ca.pem 127.0.0.1 PORT`), which has
PasswordAuthenticator on, the superuser `cassandra` with SUPER_PASSWORD, and a role `ro` with
RO_PASSWORD that may read ks.t. In a pseudo-terminal:
  1. `cql -u ro` without a password asks `Password: `; what is typed is not echoed, and the
     session then runs as ro;
  2. `LOGIN ro 'password'` and `LOGIN cassandra` (which asks, without echo) switch users;
  3. CREATE/ALTER ROLE with a password, on one line and with the literal on its own line;
then checks that $HOME/.cql_history holds the statements and `LOGIN user` lines but none of
the passwords. Exits 1 with the transcript on failure.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pty_test import Session, fail  # noqa: E402


def expect_password_prompt(s, password):
    s.expect("Password: ")
    s.send(password + "\n")
    # Echo is off: the answer that follows must not show the password.
    seen = s.expect_any(["cqlsh> ", "cqlsh:ks> "])
    if password in seen:
        fail("the password was echoed: %r" % seen, s)


def main():
    cql, ro_password, super_password = sys.argv[1:4]
    target = sys.argv[4:]
    home = os.environ["HOME"]
    os.makedirs(home, exist_ok=True)
    history = os.path.join(home, ".cql_history")
    if os.path.exists(history):
        os.remove(history)
    env = dict(os.environ, TERM="dumb", INPUTRC="/dev/null")
    env.pop("CQL_PASSWORD", None)

    s = Session([cql, "-u", "ro"] + target, env)
    s.expect("Password: ")
    s.send(ro_password + "\n")
    seen = s.expect("cqlsh> ")
    if ro_password in seen:
        fail("the password was echoed: %r" % seen, s)
    s.send("SELECT k, v FROM ks.t;\n")
    s.expect("(1 rows)")
    s.expect("cqlsh> ")

    s.send("LOGIN ro '%s'\n" % ro_password)
    s.expect("cqlsh> ")
    s.send("LOGIN cassandra\n")
    expect_password_prompt(s, super_password)
    s.send("CREATE ROLE IF NOT EXISTS history_check WITH PASSWORD = 'first-secret' AND LOGIN = false;\n")
    s.expect("cqlsh> ")
    s.send("ALTER ROLE history_check WITH PASSWORD =\n")
    s.expect("   ... ")
    s.send("  'second-secret';\n")
    s.expect("cqlsh> ")
    s.send("LIST ROLES;\n")
    seen = s.expect("cqlsh> ")
    if "history_check" not in seen:
        fail("the role statements did not run as cassandra: %r" % seen, s)
    s.send("EXIT\n")
    status = s.wait()
    if status != 0:
        fail("the shell exited with %d" % status, s)

    with open(history) as f:
        saved = f.read()
    for secret in (ro_password, super_password, "first-secret", "second-secret"):
        if secret in saved:
            fail("the history file holds a password: %r" % saved)
    for line in ("SELECT k, v FROM ks.t;", "LOGIN ro", "LOGIN cassandra",
                 "ALTER ROLE history_check WITH PASSWORD =", "LIST ROLES;"):
        if line not in saved.splitlines():
            fail("the history file lacks %r: %r" % (line, saved))
    print("pty_login_test: ok")


if __name__ == "__main__":
    main()
