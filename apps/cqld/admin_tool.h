// `cqld admin`: the admin tool, with nodetool's command names, arguments, output layout and exit
// codes (docs/operations.md §5), over the admin API of a running cqld (server/admin_api.h).
//
//   cqld admin [--host H] [--admin-port N] [-u USER (-pw PASSWORD | -pwf FILE)] COMMAND [ARGS]
//
// The password may also come from $CQLD_ADMIN_PASSWORD, which keeps it out of `ps`. Exit status:
// 0 on success; 1 on an error (one line on stderr); 2 on a usage error.
//
// Adding a command: one function and one row of kCommands in admin_tool.cc.

#pragma once

namespace cqld {

// Runs the admin tool; `argv[0]` is "admin". Returns the exit status.
int RunAdmin(int argc, char** argv);

}  // namespace cqld
