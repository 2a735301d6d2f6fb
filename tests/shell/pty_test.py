#!/usr/bin/env python3
"""Drives the `cql` shell interactively in a pseudo-terminal (run by tests/shell/cli_test.sh).

    HOME=DIR pty_test.py CQL_BINARY TARGET_ARGS...

TARGET_ARGS select the database (`--data DIR`, or `HOST PORT`), which must hold the seeds'
001 schema and the Q1-Q9 rows. Checks, as a user at a terminal would see them: the banner and
the prompt, a statement typed over two lines (continuation prompt `   ... `), Tab completion of
a keyspace and of a table name, USE changing the prompt, PAGING 2 with the ---MORE--- prompt
between pages, EXPAND ON/OFF, an error that does not end the session, EXIT, and the history
file $HOME/.cql_history. Then a session whose history file cannot be written still works.
Exits 1 with the transcript on failure.
"""

import os
import pty
import re
import select
import sys
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]")


class Session:
    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvpe(argv[0], argv, env)
        self.buffer = b""
        self.transcript = b""

    def _read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.transcript += data
        self.buffer += ANSI.sub(b"", data).replace(b"\r", b"")
        return True

    def expect(self, text, timeout=30):
        """Waits until `text` appears; consumes the output up to its end."""
        needle = text.encode()
        deadline = time.time() + timeout
        while needle not in self.buffer:
            left = deadline - time.time()
            if left <= 0 or not self._read(left):
                fail("did not see %r; output so far: %r" % (text, self.buffer[-2000:]), self)
        index = self.buffer.index(needle) + len(needle)
        seen = self.buffer[:index].decode(errors="replace")
        self.buffer = self.buffer[index:]
        return seen

    def expect_any(self, texts, timeout=30):
        """Waits until one of `texts` appears; consumes the output up to the first one."""
        deadline = time.time() + timeout
        while True:
            found = [(self.buffer.index(t.encode()) + len(t), t) for t in texts
                     if t.encode() in self.buffer]
            if found:
                index = min(found)[0]
                seen = self.buffer[:index].decode(errors="replace")
                self.buffer = self.buffer[index:]
                return seen
            left = deadline - time.time()
            if left <= 0 or not self._read(left):
                fail("did not see any of %r; output so far: %r" % (texts, self.buffer[-2000:]),
                     self)

    def send(self, text):
        os.write(self.fd, text.encode())

    def wait(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            self._read(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, 9)
        fail("the shell did not exit", self)


def fail(message, session=None):
    print("pty_test: " + message, file=sys.stderr)
    if session is not None:
        sys.stderr.write("transcript:\n" + session.transcript.decode(errors="replace")[-4000:] + "\n")
    sys.exit(1)


def main():
    cql = sys.argv[1]
    target = sys.argv[2:]
    home = os.environ["HOME"]
    os.makedirs(home, exist_ok=True)
    history = os.path.join(home, ".cql_history")
    if os.path.exists(history):
        os.remove(history)
    env = dict(os.environ, TERM="dumb", INPUTRC="/dev/null")

    s = Session([cql] + target, env)
    s.expect("Use HELP for help.")
    s.expect("cqlsh> ")

    # A statement over two lines: the continuation prompt, then the result.
    s.send("SELECT keyspace_name\n")
    s.expect("   ... ")
    s.send("FROM system_schema.keyspaces WHERE keyspace_name = 'hotel';\n")
    seen = s.expect("(1 rows)")
    if " keyspace_name\n" not in seen or "\n         hotel\n" not in seen:
        fail("unexpected two-line result: %r" % seen, s)
    s.expect("cqlsh> ")

    # Tab completes a keyspace name, then USE changes the prompt.
    s.send("USE hot\t")
    s.expect("USE hotel ")
    s.send(";\n")
    s.expect("cqlsh:hotel> ")

    # Tab completes a table name of the current keyspace.
    s.send("PAGING 2\n")
    s.expect("Page size: 2")
    s.expect("cqlsh:hotel> ")
    s.send("SELECT date, room_number FROM available_r\t")
    s.expect("available_rooms_by_hotel_date ")
    # Six rows in pages of two: ---MORE--- after the first and the second page.
    s.send("WHERE hotel_id = 'AZ123';\n")
    first = s.expect("---MORE---")
    if "2016-01-01 |         101" not in first:
        fail("unexpected first page: %r" % first, s)
    seen = ""
    pages = 1
    while "(6 rows)" not in seen:
        # Enter for the next page; the last full page may be followed by an empty one, as in
        # cqlsh when the server cannot tell that no rows follow.
        s.send("\n")
        seen += s.expect_any(["---MORE---", "(6 rows)"])
        pages += 1
        if pages > 5:
            fail("too many pages", s)
    if "2016-01-05 |         101" not in seen:
        fail("the last page is missing: %r" % seen, s)
    s.expect("cqlsh:hotel> ")
    s.send("PAGING OFF\n")
    s.expect("Disabled Query paging.")

    # EXPAND prints a block per row.
    s.send("EXPAND ON\n")
    s.expect("Now Expanded output is enabled")
    s.send("SELECT name, phone FROM hotels WHERE id = 'AZ123';\n")
    seen = s.expect("(1 rows)")
    if "@ Row 1" not in seen or " name  | Super Hotel Paris" not in seen:
        fail("unexpected expanded row: %r" % seen, s)
    s.send("EXPAND OFF\n")
    s.expect("Disabled Expanded output.")

    # An error is printed and the session goes on.
    s.send("SELECT * FROM nope;\n")
    s.expect('message="table nope does not exist"')
    s.expect("cqlsh:hotel> ")

    s.send("EXIT\n")
    code = s.wait()
    if code != 0:
        fail("EXIT ended with status %d" % code, s)

    lines = open(history, encoding="utf-8", errors="replace").read().splitlines()
    for expected in ["SELECT keyspace_name",
                     "FROM system_schema.keyspaces WHERE keyspace_name = 'hotel';",
                     "USE hotel ;", "EXPAND ON", "EXIT"]:
        if expected not in lines:
            fail("history %s lacks %r: %r" % (history, expected, lines))

    # A history file that cannot be written never stops the shell.
    env_unwritable = dict(env, HOME=os.path.join(home, "missing", "dir"))
    s = Session([cql] + target, env_unwritable)
    s.expect("cqlsh> ")
    s.send("SELECT count(*) FROM hotel.hotels;\n")
    s.expect("(1 rows)")
    s.send("QUIT\n")
    code = s.wait()
    if code != 0:
        fail("QUIT ended with status %d" % code, s)
    print("pty_test: ok")


if __name__ == "__main__":
    main()
