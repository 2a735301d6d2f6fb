// The `cql` shell's HELP: the list of topics (shell commands and CQL help topics, as cqlsh
// lists them) and a short text per topic.
//
// Pipeline position: CommandLoop sends HELP [topic] to SessionShell::PrintHelp, which prints
// HelpText(topic).
//
// Thread-safety: a pure function.

#pragma once

#include <string>
#include <string_view>

namespace shell {

// The text of HELP `topic` (upper case; empty for the list of topics). An unknown topic gives
// cqlsh's "No help topic for 'x'" line.
std::string HelpText(std::string_view topic);

}  // namespace shell
