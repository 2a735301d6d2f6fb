#include "shell/shell_help.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace shell {
namespace {

struct Topic {
  std::string_view name;
  std::string_view text;
};

constexpr Topic kShellTopics[] = {
    {"CAPTURE",
     "CAPTURE 'file'     appends the output of the following statements to 'file'\n"
     "CAPTURE OFF        stops capturing\n"
     "CAPTURE            shows whether output is being captured\n"},
    {"CLEAR", "CLEAR | CLS        clears the terminal\n"},
    {"CLS", "CLEAR | CLS        clears the terminal\n"},
    {"CONSISTENCY",
     "CONSISTENCY [level]  shows or sets the consistency level of the statements that follow\n"
     "                     (ANY, ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, EACH_QUORUM,\n"
     "                     SERIAL, LOCAL_SERIAL, LOCAL_ONE; default ONE)\n"},
    {"COPY",
     "COPY [ks.]table [(col, ...)] TO 'file.csv' | STDOUT [WITH option = value [AND ...]]\n"
     "COPY [ks.]table [(col, ...)] FROM 'file.csv' [WITH option = value [AND ...]]\n"
     "  Both:  DELIMITER (','), QUOTE ('\"'), ESCAPE ('\\\\'), HEADER (false), NULL (''),\n"
     "         MAXROWS (-1), NUMPROCESSES, BOOLSTYLE ('True, False'), REPORTFREQUENCY (0.25)\n"
     "  TO:    PAGESIZE (1000), MAXOUTPUTSIZE (-1), FLOATPRECISION, DOUBLEPRECISION\n"
     "  FROM:  MAXBATCHSIZE (20), MINBATCHSIZE (10), CHUNKSIZE (5000), SKIPROWS (0),\n"
     "         SKIPCOLS (''), MAXPARSEERRORS (-1), MAXINSERTERRORS (1000),\n"
     "         ERRFILE (import_<ks>_<table>.err), TTL (-1)\n"},
    {"DESCRIBE",
     "DESCRIBE | DESC\n"
     "  KEYSPACES | KEYSPACE [ks] | TABLES | TABLE [ks.]t | TYPES | TYPE [ks.]t\n"
     "  FUNCTIONS | AGGREGATES | INDEX [ks.]i | MATERIALIZED VIEW [ks.]v\n"
     "  SCHEMA | FULL SCHEMA | CLUSTER | [ks.]name\n"
     "prints the schema as CQL that recreates it\n"},
    {"EXIT", "EXIT | QUIT        leaves the shell (or the file being SOURCE'd)\n"},
    {"EXPAND", "EXPAND [ON | OFF]  prints each row as a block of `column | value` lines\n"},
    {"HELP", "HELP [topic]       lists the topics, or explains one\n"},
    {"LOGIN",
     "LOGIN user ['password']  reconnects as another user (asks for the password at the\n"
     "                         terminal when it is not given)\n"},
    {"PAGING",
     "PAGING [ON | OFF | n]  shows or sets paging (default on, 100 rows); at the terminal\n"
     "                       each page ends with ---MORE--- (Enter shows the next one)\n"},
    {"QUIT", "EXIT | QUIT        leaves the shell (or the file being SOURCE'd)\n"},
    {"SERIAL", "SERIAL CONSISTENCY [SERIAL | LOCAL_SERIAL]  the serial consistency of LWTs\n"},
    {"SHOW", "SHOW VERSION | HOST  the server's version, the connection\n"},
    {"SOURCE", "SOURCE 'file.cql'  runs every statement of a file\n"},
    {"TRACING",
     "TRACING [ON | OFF]  traces each statement and prints its trace after the result\n"},
};

constexpr std::string_view kCqlTopics[] = {
    "ALTER_KEYSPACE", "ALTER_TABLE",     "ALTER_TYPE",    "APPLY",       "BEGIN",
    "CREATE_INDEX",   "CREATE_KEYSPACE", "CREATE_TABLE",  "CREATE_TYPE", "CREATE_MATERIALIZED_VIEW",
    "DELETE",         "DROP_INDEX",      "DROP_KEYSPACE", "DROP_TABLE",  "DROP_TYPE",
    "INSERT",         "SELECT",          "TRUNCATE",      "UPDATE",      "USE",
};

std::string Columns(const std::vector<std::string_view>& words) {
  std::string out;
  size_t width = 0;
  for (std::string_view word : words) width = std::max(width, word.size());
  width += 2;
  size_t per_line = std::max<size_t>(1, 80 / width);
  for (size_t i = 0; i < words.size(); ++i) {
    out += words[i];
    bool end = (i + 1) % per_line == 0 || i + 1 == words.size();
    if (end) {
      out += '\n';
    } else {
      out += std::string(width - words[i].size(), ' ');
    }
  }
  return out;
}

}  // namespace

std::string HelpText(std::string_view topic) {
  if (topic.empty()) {
    std::vector<std::string_view> shell;
    for (const Topic& entry : kShellTopics) shell.push_back(entry.name);
    std::vector<std::string_view> cql(std::begin(kCqlTopics), std::end(kCqlTopics));
    return "\nDocumented shell commands:\n===========================\n" + Columns(shell) +
           "\nCQL help topics:\n================\n" + Columns(cql) + "\n";
  }
  for (const Topic& entry : kShellTopics) {
    if (entry.name == topic) return std::string(entry.text);
  }
  for (std::string_view name : kCqlTopics) {
    if (name == topic) {
      return "See the CQL reference for " + std::string(name) +
             ": https://cassandra.apache.org/doc/latest/cassandra/developing/cql/\n";
    }
  }
  return "No help topic for '" + std::string(topic) + "'\n";
}

}  // namespace shell
