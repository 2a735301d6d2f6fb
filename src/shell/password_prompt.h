// ReadPassword: asks for a password at the terminal with echo off, for `cql -u USER` without a
// password and for `LOGIN user` (session_shell.h).
//
// The terminal is standard input when it is one, otherwise the controlling terminal
// (/dev/tty), so `cql -u bob -f script.cql` and piped input still ask the person at the
// keyboard. Echo is restored afterwards, also when SIGINT, SIGTERM, SIGHUP or SIGQUIT arrive
// while it is off (the signal is then delivered as usual).
//
// Thread-safety: not thread-safe (changes the terminal's mode and signal handlers for the
// duration of the call).

#pragma once

#include <string>
#include <string_view>

#include "common/result.h"

namespace shell {

// Writes `prompt` to the terminal, reads one line (without its line end) with echo off and
// returns it. Errors: Invalid "password required: ..." when there is no terminal to ask on;
// IOError when the terminal fails or reaches end of input before a line.
common::Result<std::string> ReadPassword(std::string_view prompt);

}  // namespace shell
