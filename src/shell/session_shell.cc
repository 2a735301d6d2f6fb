#include "shell/session_shell.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "common/ascii.h"
#include "shell/copy_command.h"
#include "shell/password_prompt.h"
#include "shell/shell_help.h"
#include "shell/system_schema_reader.h"
#include "shell/trace_printer.h"

namespace shell {
namespace {

// The words of `statement`, split at whitespace.
std::vector<std::string> Words(std::string_view statement) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < statement.size()) {
    while (i < statement.size() && std::isspace(static_cast<unsigned char>(statement[i]))) ++i;
    size_t begin = i;
    while (i < statement.size() && !std::isspace(static_cast<unsigned char>(statement[i]))) ++i;
    if (i > begin) words.emplace_back(statement.substr(begin, i - begin));
  }
  return words;
}

// As cqlsh decides whether to print a table and a row count: by the statement's first six
// characters.
bool IsSelect(std::string_view statement) {
  return statement.size() >= 6 && common::AsciiUpper(statement.substr(0, 6)) == "SELECT";
}

constexpr std::array kConsistencies = {
    cql::Consistency::kAny,         cql::Consistency::kOne,        cql::Consistency::kTwo,
    cql::Consistency::kThree,       cql::Consistency::kQuorum,     cql::Consistency::kAll,
    cql::Consistency::kLocalQuorum, cql::Consistency::kEachQuorum, cql::Consistency::kSerial,
    cql::Consistency::kLocalSerial, cql::Consistency::kLocalOne,
};

std::optional<cql::Consistency> ParseConsistency(std::string_view name) {
  std::string upper = common::AsciiUpper(name);
  for (cql::Consistency consistency : kConsistencies) {
    if (cql::ConsistencyName(consistency) == upper) return consistency;
  }
  return std::nullopt;
}

// The driver's text for errors it turns into exceptions carrying a summary.
std::string ServerErrorText(std::string_view exception, uint32_t code, std::string_view summary,
                            std::string_view message) {
  return fmt::format("{}: Error from server: code={:04x} [{}] message=\"{}\"", exception, code,
                     summary, message);
}

// The driver builds AlreadyExists's text from the keyspace and table of the error body, which
// our messages carry in Cassandra's wording.
std::string AlreadyExistsText(const std::string& message) {
  constexpr std::string_view kKeyspace = "Cannot add existing keyspace \"";
  constexpr std::string_view kTable = "Cannot add already existing table \"";
  constexpr std::string_view kTableKeyspace = "\" to keyspace \"";
  if (message.starts_with(kKeyspace) && message.ends_with('"')) {
    std::string_view keyspace(message);
    keyspace = keyspace.substr(kKeyspace.size(), keyspace.size() - kKeyspace.size() - 1);
    return fmt::format("AlreadyExists: Keyspace '{}' already exists", keyspace);
  }
  size_t middle = message.find(kTableKeyspace);
  if (message.starts_with(kTable) && message.ends_with('"') && middle != std::string::npos) {
    std::string_view text(message);
    std::string_view table = text.substr(kTable.size(), middle - kTable.size());
    size_t keyspace_begin = middle + kTableKeyspace.size();
    std::string_view keyspace = text.substr(keyspace_begin, text.size() - keyspace_begin - 1);
    return fmt::format("AlreadyExists: Table '{}.{}' already exists", keyspace, table);
  }
  return "AlreadyExists: " + message;
}

constexpr std::string_view kTimeoutSummary =
    "Coordinator node timed out waiting for replica nodes' responses";

}  // namespace

std::string CqlshErrorText(const common::Status& status) {
  using common::StatusCode;
  const std::string& message = status.message();
  switch (status.code()) {
    case StatusCode::kSyntaxError:
      return "SyntaxException: " + message;
    case StatusCode::kInvalid:
      return ServerErrorText("InvalidRequest", 0x2200, "Invalid query", message);
    case StatusCode::kUnauthorized:
      return ServerErrorText("Unauthorized", 0x2100, "Unauthorized", message);
    case StatusCode::kConfigError:
      return "ConfigurationException: " + message;
    case StatusCode::kAlreadyExists:
      return AlreadyExistsText(message);
    case StatusCode::kUnprepared:
      return "PreparedQueryNotFound: " + message;
    case StatusCode::kProtocolError:
      return "ProtocolException: " + message;
    case StatusCode::kAuthenticationError:
      return "BadCredentials: " + message;
    case StatusCode::kUnavailable:
      return ServerErrorText("Unavailable", 0x1000, "Unavailable exception", message);
    case StatusCode::kOverloaded:
      return "OverloadedErrorMessage: " + message;
    case StatusCode::kIsBootstrapping:
      return "IsBootstrappingErrorMessage: " + message;
    case StatusCode::kTruncateError:
      return "TruncateError: " + message;
    case StatusCode::kWriteTimeout:
      return ServerErrorText("WriteTimeout", 0x1100, kTimeoutSummary, message);
    case StatusCode::kReadTimeout:
      return ServerErrorText("ReadTimeout", 0x1200, kTimeoutSummary, message);
    case StatusCode::kReadFailure:
      return ServerErrorText("ReadFailure", 0x1300, "Replica(s) failed to execute read", message);
    case StatusCode::kFunctionFailure:
      return ServerErrorText("FunctionFailure", 0x1400, "User Defined Function failure", message);
    case StatusCode::kWriteFailure:
      return ServerErrorText("WriteFailure", 0x1500, "Replica(s) failed to execute write", message);
    case StatusCode::kCdcWriteFailure:
      return "CDCWriteException: " + message;
    case StatusCode::kCasWriteUnknown:
      return "CASWriteUnknown: " + message;
    default:  // ServerError and the internal codes, which travel as ServerError
      return "ServerError: " + message;
  }
}

std::string ConnectionErrorText(std::string_view host, uint16_t port,
                                const common::Status& status) {
  std::string endpoint = fmt::format("{}:{}", host, port);
  std::string tried = fmt::format("Tried connecting to [('{}', {})]. Last error: ", host, port);
  const std::string& message = status.message();
  std::string inner;
  if (status.code() == common::StatusCode::kAuthenticationError) {
    inner = fmt::format(
        "AuthenticationFailed('Failed to authenticate to {}: Error from server: code=0100 [Bad "
        "credentials] message=\"{}\"')",
        endpoint, message);
  } else if (status.code() == common::StatusCode::kIOError) {
    constexpr std::string_view kTls = "TLS handshake with ";
    constexpr std::string_view kWrapper = "Unable to connect to any contact point (";
    if (size_t tls = message.find(kTls); tls != std::string::npos) {
      // The driver's own words: they say which check failed (cqlsh shows Python's ssl error).
      std::string reason = message.substr(tls);
      if (message.starts_with(kWrapper) && reason.ends_with(')')) reason.pop_back();
      inner = "SSLError(\"" + reason + "\")";
    } else if (message.find("refused") != std::string::npos) {
      inner = "ConnectionRefusedError(111, \"" + tried + "Connection refused\")";
    } else if (message.find("Timed out") != std::string::npos ||
               message.find("timed out") != std::string::npos) {
      inner = "OSError(None, \"" + tried + "timed out\")";
    } else {
      size_t colon = message.rfind(": ");
      std::string reason = colon == std::string::npos ? message : message.substr(colon + 2);
      while (!reason.empty() && reason.back() == ')') reason.pop_back();
      inner = "OSError(None, \"" + tried + reason + "\")";
    }
  } else {
    inner = "ConnectionException('" + CqlshErrorText(status) + "')";
  }
  return fmt::format("Connection error: ('Unable to connect to any servers', {{'{}': {}}})",
                     endpoint, inner);
}

bool SessionShell::Execute(std::string_view statement) {
  std::vector<std::string> words = Words(statement);
  std::string command = words.empty() ? "" : common::AsciiUpper(words[0]);
  if (command == "EXPAND") return RunSwitch(words, "EXPAND", "Expanded output", &expand_);
  if (command == "TRACING") return RunSwitch(words, "TRACING", "Tracing", &tracing_);
  if (command == "CONSISTENCY") return RunConsistency(words);
  if (command == "SERIAL") return RunSerialConsistency(words);
  if (command == "PAGING") return RunPaging(words);
  if (command == "DESCRIBE" || command == "DESC") return RunDescribe(statement);
  if (command == "COPY") return RunCopy(statement);
  if (command == "CAPTURE") return RunCapture(statement);
  if (command == "LOGIN") return RunLogin(words);
  if (command == "SHOW") return RunShow(words);
  if (command == "CLEAR" || command == "CLS") {
    if (tty()) Write("\x1b[H\x1b[2J");
    return true;
  }
  return RunQuery(statement);
}

cql::QueryOptions SessionShell::Options() const {
  cql::QueryOptions options;
  options.consistency = consistency_;
  options.serial_consistency = serial_consistency_;
  options.page_size = page_size();
  options.tracing = tracing_;
  return options;
}

TableStyle SessionShell::Style() const {
  bool colour = tty() && options_.output_is_terminal && !capture_;
  return TableStyle{tty(), expand_, options_.values, colour};
}

void SessionShell::Write(std::string_view text) {
  std::FILE* target = capture_ ? capture_.get() : out();
  std::fwrite(text.data(), 1, text.size(), target);
}

bool SessionShell::RunQuery(std::string_view statement) {
  cql::QueryOptions options = Options();
  // As cqlsh's do_select: reading the traces is not traced.
  if (IsSelect(statement) &&
      (common::AsciiLower(statement).find("system_traces.") != std::string::npos ||
       session_->keyspace() == "system_traces")) {
    options.tracing = false;
  }
  common::Result<cql::ResultSet> result = session_->Execute(statement, options);
  if (!result.ok()) {
    ReportError(CqlshErrorText(result.status()));
    return false;
  }
  std::vector<std::string> warnings = result->warnings();
  if (result->kind() == cql::ResultSet::Kind::kSchemaChange ||
      result->kind() == cql::ResultSet::Kind::kSetKeyspace) {
    names_.Invalidate();
  }
  if (result->kind() == cql::ResultSet::Kind::kRows) {
    if (IsSelect(statement)) {
      RowsFormatter rows(Style());
      while (true) {
        Write(rows.Page(*result));
        // Stop at the last page, and at a paging state that would fetch the same page again.
        if (!result->paging_state() || result->paging_state() == options.paging_state) break;
        // At the terminal, cqlsh waits for Enter between pages (not while capturing).
        if (tty() && paging_ && !capture_ && !ReadMore()) break;
        options.paging_state = result->paging_state();
        result = session_->Execute(statement, options);
        if (!result.ok()) {
          ReportError(CqlshErrorText(result.status()));
          return false;
        }
      }
      Write(rows.Finish());
    } else {
      Write(FormatStaticResult(*result, Style()));
    }
  }
  Write(FormatWarnings(warnings));
  if (tracing_ && result->tracing_id()) PrintTrace(*result->tracing_id());
  return true;
}

void SessionShell::PrintTrace(const common::Uuid& id) {
  common::Result<std::string> trace = FetchTrace(*session_, id, tty());
  if (trace.ok()) {
    Write(*trace);
  } else if (trace.status().code() == common::StatusCode::kNotFound) {
    ReportError(trace.status().message());
  } else {
    ReportError(fmt::format("Unable to fetch query trace: {}", trace.status().message()));
  }
}

bool SessionShell::RunDescribe(std::string_view statement) {
  cql::QueryOptions options = Options();
  common::Result<cql::ResultSet> page = session_->Execute(statement, options);
  if (!page.ok() && page.status().code() == common::StatusCode::kSyntaxError) {
    // A server without DESCRIBE (Cassandra before 4.0): build it from system_schema. A real
    // syntax error fails here too, and the server's error is reported.
    common::Result<cql::ResultSet> local =
        DescribeFromSystemSchema(*session_, statement, session_->keyspace());
    if (local.ok() || local.status().code() != common::StatusCode::kSyntaxError) page = local;
  }
  if (!page.ok()) {
    // cqlsh prints only the server's message for DESCRIBE.
    const common::Status& status = page.status();
    bool syntax = status.code() == common::StatusCode::kSyntaxError;
    ReportError(syntax ? CqlshErrorText(status) : status.message());
    return false;
  }
  std::vector<std::string> warnings = page->warnings();
  cql::ResultSet all = cql::ResultSet::Rows(page->columns());
  while (true) {
    for (size_t r = 0; r < page->row_count(); ++r) {
      for (size_t c = 0; c < page->column_count(); ++c) {
        std::optional<std::string_view> cell = page->Value(r, c);
        all.AddCell(cell ? std::optional<common::Bytes>(*cell) : std::nullopt);
      }
    }
    if (!page->paging_state() || page->paging_state() == options.paging_state) break;
    options.paging_state = page->paging_state();
    page = session_->Execute(statement, options);
    if (!page.ok()) {
      ReportError(page.status().message());
      return false;
    }
  }
  Write(FormatDescribe(DescribeKindOf(statement), all, !session_->keyspace().empty()));
  Write(FormatWarnings(warnings));
  return true;
}

bool SessionShell::RunSwitch(const std::vector<std::string>& words, std::string_view command,
                             std::string_view description, bool* flag) {
  if (words.size() == 1) {
    Write(*flag ? fmt::format("{} is currently enabled. Use {} OFF to disable\n", description,
                              command)
                : fmt::format("{} is currently disabled. Use {} ON to enable.\n", description,
                              command));
    return true;
  }
  std::string value = words.size() == 2 ? common::AsciiUpper(words[1]) : "";
  if (value == "ON") {
    if (*flag) {
      ReportError(
          fmt::format("{} is already enabled. Use {} OFF to disable.", description, command));
      return false;
    }
    *flag = true;
    Write(fmt::format("Now {} is enabled\n", description));
    return true;
  }
  if (value == "OFF") {
    if (!*flag) {
      ReportError(fmt::format("{} is not enabled.", description));
      return false;
    }
    *flag = false;
    Write(fmt::format("Disabled {}.\n", description));
    return true;
  }
  ReportError(fmt::format("Improper {} command.", common::AsciiLower(command)));
  return false;
}

bool SessionShell::RunConsistency(const std::vector<std::string>& words) {
  if (words.size() == 1) {
    Write(fmt::format("Current consistency level is {}.\n", cql::ConsistencyName(consistency_)));
    return true;
  }
  std::optional<cql::Consistency> level =
      words.size() == 2 ? ParseConsistency(words[1]) : std::nullopt;
  if (!level) {
    ReportError("Improper consistency command.");
    return false;
  }
  consistency_ = *level;
  Write(fmt::format("Consistency level set to {}.\n", cql::ConsistencyName(consistency_)));
  return true;
}

bool SessionShell::RunSerialConsistency(const std::vector<std::string>& words) {
  if (words.size() == 2 && common::AsciiUpper(words[1]) == "CONSISTENCY") {
    Write(fmt::format("Current serial consistency level is {}.\n",
                      cql::ConsistencyName(serial_consistency_)));
    return true;
  }
  std::optional<cql::Consistency> level =
      words.size() == 3 && common::AsciiUpper(words[1]) == "CONSISTENCY"
          ? ParseConsistency(words[2])
          : std::nullopt;
  if (level != cql::Consistency::kSerial && level != cql::Consistency::kLocalSerial) {
    ReportError("Improper serial command.");
    return false;
  }
  serial_consistency_ = *level;
  Write(fmt::format("Serial consistency level set to {}.\n",
                    cql::ConsistencyName(serial_consistency_)));
  return true;
}

bool SessionShell::RunPaging(const std::vector<std::string>& words) {
  if (words.size() == 1) {
    Write(paging_ ? "Query paging is currently enabled. Use PAGING OFF to disable\n"
                  : "Query paging is currently disabled. Use PAGING ON to enable.\n");
  } else if (words.size() == 2 && common::AsciiUpper(words[1]) == "OFF") {
    if (!paging_) {
      ReportError("Query paging is not enabled.");
      return false;
    }
    paging_ = false;
    options_.page_size = kDefaultPageSize;
    Write("Disabled Query paging.\n");
    return true;
  } else if (words.size() == 2 && common::AsciiUpper(words[1]) == "ON") {
    if (paging_) {
      ReportError("Query paging is already enabled. Use PAGING OFF to disable.");
      Write(fmt::format("Page size: {}\n", options_.page_size));  // cqlsh shows it anyway
      return false;
    }
    paging_ = true;
    Write("Now Query paging is enabled\n");
  } else {
    int32_t size = 0;
    std::string text = words.size() == 2 ? words[1] : "";
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), size);
    if (error != std::errc() || end != text.data() + text.size() || size <= 0) {
      ReportError("Improper paging command.");
      return false;
    }
    paging_ = true;
    options_.page_size = size;
  }
  if (paging_) Write(fmt::format("Page size: {}\n", options_.page_size));
  return true;
}

std::string SessionShell::Prompt(bool continuation) const {
  std::string keyspace = session_->keyspace();
  if (keyspace.empty()) return continuation ? "   ... " : "cqlsh> ";
  return continuation ? std::string(keyspace.size(), ' ') + "    ... " : "cqlsh:" + keyspace + "> ";
}

void SessionShell::PrintBanner() {
  if (!options_.banner.empty()) Write(options_.banner + "\n");
  Write("Use HELP for help.\n");
}

void SessionShell::PrintHelp(std::string_view topic) { Write(HelpText(topic)); }

std::vector<std::string> SessionShell::Complete(std::string_view context, std::string_view word) {
  if (!names_.fresh()) (void)names_.Refresh(*session_);  // stale names beat none
  return CompletionCandidates(names_, session_->keyspace(), context, word);
}

bool SessionShell::RunCopy(std::string_view statement) {
  common::Result<CopyCommand> command = ParseCopyCommand(statement, session_->keyspace());
  if (!command.ok()) {
    ReportError(command.status().message());
    return false;
  }
  CopyIo io;
  io.out = capture_ ? capture_.get() : out();
  io.err = err();
  io.progress = options_.output_is_terminal && !capture_;
  io.consistency = consistency_;
  common::Result<CopyStats> stats =
      command->from ? RunCopyFrom(*session_, *command, io) : RunCopyTo(*session_, *command, io);
  if (!stats.ok()) {
    const common::Status& status = stats.status();
    ReportError(status.code() == common::StatusCode::kIOError ? status.message()
                                                              : CqlshErrorText(status));
    return false;
  }
  return stats->failed == 0;
}

bool SessionShell::RunCapture(std::string_view statement) {
  std::string_view rest = statement.substr(std::min<size_t>(7, statement.size()));
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) {
    rest.remove_prefix(1);
  }
  while (!rest.empty() &&
         (std::isspace(static_cast<unsigned char>(rest.back())) || rest.back() == ';')) {
    rest.remove_suffix(1);
  }
  if (rest.empty()) {
    Write(capture_ ? fmt::format("Currently capturing query output to '{}'.\n", capture_path_)
                   : "Currently not capturing query output.\n");
    return true;
  }
  if (common::AsciiUpper(rest) == "OFF") {
    if (!capture_) {
      ReportError("Not currently capturing output.");
      return false;
    }
    capture_.reset();
    Write(fmt::format("Stopped capture. Output saved in '{}'.\n", capture_path_));  // to out()
    return true;
  }
  std::string path(rest);
  if (path.size() >= 2 && path.front() == '\'' && path.back() == '\'') {
    path = path.substr(1, path.size() - 2);
  }
  if (path.rfind("~/", 0) == 0) {
    if (const char* home = std::getenv("HOME")) path = std::string(home) + path.substr(1);
  }
  if (capture_) capture_.reset();
  capture_.reset(std::fopen(path.c_str(), "a"));
  if (!capture_) {
    ReportError(fmt::format("Unable to open '{}' for writing: [Errno {}] {}", path, errno,
                            std::strerror(errno)));
    return false;
  }
  capture_path_ = path;
  std::fprintf(out(), "Now capturing query output to '%s'.\n", path.c_str());
  return true;
}

bool SessionShell::RunLogin(const std::vector<std::string>& words) {
  if (words.size() < 2 || words.size() > 3) {
    ReportError("Improper login command.");
    return false;
  }
  if (!options_.login) {
    ReportError("LOGIN is not available: the embedded engine has no users.");
    return false;
  }
  auto unquote = [](std::string text) {
    while (!text.empty() && text.back() == ';') text.pop_back();
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
      text = text.substr(1, text.size() - 2);
    }
    return text;
  };
  std::string user = unquote(words[1]);
  std::string password;
  if (words.size() == 3) {
    password = unquote(words[2]);
  } else {
    std::fflush(out());
    common::Result<std::string> typed =
        options_.read_password ? options_.read_password("Password: ") : ReadPassword("Password: ");
    if (!typed.ok()) {
      ReportError("LOGIN: " + typed.status().message());
      return false;
    }
    password = std::move(typed).value();
  }
  common::Result<std::unique_ptr<cql::Session>> session = options_.login(user, password);
  if (!session.ok()) {
    ReportError(session.status().message());
    return false;
  }
  std::string keyspace = session_->keyspace();
  if (!keyspace.empty()) {
    common::Result<cql::ResultSet> use =
        (*session)->Execute("USE " + cql::QuoteIdentifierIfNeeded(keyspace));
    if (!use.ok()) ReportError(CqlshErrorText(use.status()));
  }
  owned_session_ = std::move(session).value();
  session_ = owned_session_.get();
  names_.Invalidate();
  return true;
}

bool SessionShell::RunShow(const std::vector<std::string>& words) {
  std::string what = words.size() >= 2 ? common::AsciiUpper(words[1]) : "";
  while (!what.empty() && what.back() == ';') what.pop_back();
  if (what == "VERSION" && !options_.version.empty()) {
    Write(options_.version + "\n");
    return true;
  }
  if (what == "HOST" && !options_.host.empty()) {
    Write(options_.host + "\n");
    return true;
  }
  ReportError("Improper show command.");
  return false;
}

}  // namespace shell
