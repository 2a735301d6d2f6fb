// cql: the CQL shell (cqlsh-like).
//
//   cql [options] [host [port]]             connect to a server (default 127.0.0.1 9042)
//   cql [options] --data DIR                open a data directory with the embedded engine
//   cql --syntax-check                      parse and echo statements; execute nothing
//
// Options: -e 'STMT; ...' (run and exit), -f FILE.cql (run a file and exit), -k KEYSPACE,
// -u USER, -p PASSWORD, --ssl, --ssl-ca FILE, --ssl-cert FILE, --ssl-key FILE, --cqlrc FILE,
// --protocol-version 4|5, --connect-timeout SECONDS, --request-timeout SECONDS,
// --durability batch|periodic (with --data). Connection settings also come from the
// environment (CQL_PASSWORD, SSL_CERTFILE, SSL_VALIDATE) and ~/.cql/cqlrc (shell/cqlrc.h); a
// username without a password asks for it at the terminal. Without -e/-f, statements come from
// the terminal (readline, history in ~/.cql_history, Tab completion) or from standard input
// when it is not a terminal. See docs/shell.md.
//
// Exit status, as cqlsh: 0; 2 when a statement failed outside interactive mode, or on a usage
// error; 1 when the server cannot be reached, or the data directory or the `-f` file cannot
// be opened.

#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "client/remote_session.h"
#include "engine/database.h"
#include "shell/command_loop.h"
#include "shell/cqlrc.h"
#include "shell/password_prompt.h"
#include "shell/session_shell.h"
#include "shell/syntax_check_shell.h"

namespace {

constexpr int kStatementFailed = 2;
constexpr int kUsageError = 2;
constexpr int kCannotOpen = 1;

void Usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: cql [options] [host [port]]\n"
      "       cql [options] --data DIR [--durability batch|periodic]\n"
      "\n"
      "  host [port]              the server to connect to (default 127.0.0.1 9042)\n"
      "  --data DIR               execute statements on the data directory DIR with the\n"
      "                           embedded engine (created when missing); no server needed\n"
      "  --durability MODE        with --data: 'periodic' (default) or 'batch' (sync the\n"
      "                           write-ahead log before each write is acknowledged)\n"
      "  -e, --execute STMTS      run the statements, then exit\n"
      "  -f, --file FILE          run the statements of FILE, then exit\n"
      "  -k, --keyspace KS        start in keyspace KS (USE KS)\n"
      "  -u, --username USER      authenticate as USER (PasswordAuthenticator); without a\n"
      "                           password, cql asks for it at the terminal\n"
      "  -p, --password PASSWORD  the password of USER (visible to other local users: prefer\n"
      "                           the prompt, CQL_PASSWORD or the cqlrc)\n"
      "  --ssl                    connect with TLS (1.2 or newer)\n"
      "  --ssl-ca FILE            PEM certificate authorities to verify the server with\n"
      "                           (default: SSL_CERTFILE, then [ssl] certfile, then the\n"
      "                           system's)\n"
      "  --ssl-cert FILE          PEM client certificate, for servers that require one\n"
      "  --ssl-key FILE           the private key of --ssl-cert\n"
      "  --cqlrc FILE             the configuration file (default ~/.cql/cqlrc)\n"
      "  --protocol-version N     4 or 5 (default: the highest the server speaks)\n"
      "  --connect-timeout SECS   connection timeout (default 5)\n"
      "  --request-timeout SECS   statement timeout (default 10)\n"
      "  --syntax-check           parse and echo statements in canonical CQL; execute nothing\n"
      "  -h, --help               this text\n"
      "\n"
      "Without -e or -f, statements are read from the terminal (or from standard input).\n"
      "\n"
      "Environment: CQL_PASSWORD (the password), SSL_CERTFILE (the CA file), SSL_VALIDATE\n"
      "(false: do not verify the server's certificate). The cqlrc file has cqlsh's sections:\n"
      "[authentication] username, password, keyspace; [connection] hostname, port, ssl;\n"
      "[ssl] certfile, validate, usercert, userkey. The command line wins over the\n"
      "environment, the environment over the file.\n"
      "Exit status: 0; 2 when a statement failed (except at the terminal) or on a usage error;\n"
      "1 when the server cannot be reached or the data directory or the file cannot be opened.\n");
}

struct Flags {
  std::vector<std::string> positional;  // host [port]
  std::optional<std::string> keyspace;
  std::optional<std::string> username;
  std::optional<std::string> password;
  bool ssl = false;
  std::optional<std::string> ssl_ca;
  std::optional<std::string> ssl_cert;
  std::optional<std::string> ssl_key;
  std::optional<std::string> cqlrc;
  std::optional<std::string> protocol_version;
  std::optional<std::string> connect_timeout;
  std::optional<std::string> request_timeout;
  bool syntax_check = false;
  std::optional<std::string> data;
  std::optional<std::string> durability;
  std::optional<std::string> execute;
  std::optional<std::string> file;
};

// Parses the command line into `flags`. Returns an exit status when the program should stop.
std::optional<int> ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::optional<std::string> inline_value;
    if (size_t equals = arg.find('='); arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      inline_value = arg.substr(equals + 1);
      arg.resize(equals);
    }
    auto value = [&]() -> std::optional<std::string> {
      if (inline_value) return inline_value;
      if (i + 1 < argc) return std::string(argv[++i]);
      return std::nullopt;
    };
    std::optional<std::string>* target = nullptr;
    if (arg == "--data") {
      target = &flags->data;
    } else if (arg == "--durability") {
      target = &flags->durability;
    } else if (arg == "-e" || arg == "--execute") {
      target = &flags->execute;
    } else if (arg == "-f" || arg == "--file") {
      target = &flags->file;
    } else if (arg == "-k" || arg == "--keyspace") {
      target = &flags->keyspace;
    } else if (arg == "-u" || arg == "--username") {
      target = &flags->username;
    } else if (arg == "-p" || arg == "--password") {
      target = &flags->password;
    } else if (arg == "--ssl") {
      flags->ssl = true;
      continue;
    } else if (arg == "--ssl-ca" || arg == "--ssl_ca") {
      target = &flags->ssl_ca;
    } else if (arg == "--ssl-cert" || arg == "--ssl_cert") {
      target = &flags->ssl_cert;
    } else if (arg == "--ssl-key" || arg == "--ssl_key") {
      target = &flags->ssl_key;
    } else if (arg == "--cqlrc") {
      target = &flags->cqlrc;
    } else if (arg == "--protocol-version" || arg == "--protocol_version") {
      target = &flags->protocol_version;
    } else if (arg == "--connect-timeout" || arg == "--connect_timeout") {
      target = &flags->connect_timeout;
    } else if (arg == "--request-timeout" || arg == "--request_timeout") {
      target = &flags->request_timeout;
    } else if (arg == "--syntax-check") {
      flags->syntax_check = true;
      continue;
    } else if (arg == "-h" || arg == "--help") {
      Usage(stdout);
      return 0;
    } else if (!arg.empty() && arg[0] != '-' && flags->positional.size() < 2) {
      flags->positional.push_back(arg);
      continue;
    } else {
      std::fprintf(stderr, "cql: unknown argument '%s'\n", argv[i]);
      Usage(stderr);
      return kUsageError;
    }
    *target = value();
    if (!*target) {
      std::fprintf(stderr, "cql: %s needs a value\n", arg.c_str());
      return kUsageError;
    }
    if (target == &flags->password) {
      // Blank the password in the process's arguments, so that `ps` shows it for a moment only.
      char* argument = inline_value ? argv[i] + arg.size() + 1 : argv[i];
      std::memset(argument, 'x', std::strlen(argument));
    }
  }
  if (flags->data && !flags->positional.empty()) {
    std::fprintf(stderr, "cql: --data and a host exclude each other\n");
    return kUsageError;
  }
  if (flags->durability && !flags->data) {
    std::fprintf(stderr, "cql: --durability needs --data\n");
    return kUsageError;
  }
  if (flags->durability && *flags->durability != "batch" && *flags->durability != "periodic") {
    std::fprintf(stderr, "cql: --durability must be 'batch' or 'periodic', not '%s'\n",
                 flags->durability->c_str());
    return kUsageError;
  }
  return std::nullopt;
}

// Runs the input the flags name through `loop`; returns the exit status.
int Run(shell::CommandLoop& loop, const Flags& flags) {
  if (flags.execute) {
    std::string statements = *flags.execute;
    if (statements.empty() || statements.back() != ';') statements += ';';  // as cqlsh does
    return loop.RunScript(statements, "<stdin>") == 0 ? 0 : kStatementFailed;
  }
  if (flags.file) {
    common::Result<std::string> script = shell::ReadScriptFile(*flags.file);
    if (!script.ok()) {
      std::fprintf(stderr, "Can't open '%s': %s\n", flags.file->c_str(),
                   script.status().message().c_str());
      return kCannotOpen;
    }
    return loop.RunScript(*script, *flags.file) == 0 ? 0 : kStatementFailed;
  }
  if (!isatty(STDIN_FILENO)) {
    std::stringstream buffer;
    buffer << std::cin.rdbuf();
    return loop.RunScript(buffer.str(), "<stdin>") == 0 ? 0 : kStatementFailed;
  }
  loop.RunInteractive();
  return 0;
}

// Seconds given on the command line as milliseconds; nullopt when not a positive number.
std::optional<std::chrono::milliseconds> ParseSeconds(const std::string& text) {
  char* end = nullptr;
  double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(seconds > 0) || seconds > 1e6) {
    return std::nullopt;
  }
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

// The connection the flags, the environment and the cqlrc file ask for, with the password asked
// at the terminal when a username has none; or an exit status after printing why not.
std::optional<int> ResolveConnectionFor(const Flags& flags, shell::ConnectionConfig* config) {
  std::string path = flags.cqlrc ? *flags.cqlrc : shell::DefaultCqlrcPath();
  common::Result<shell::LoadedCqlrc> file = shell::LoadCqlrc(path, flags.cqlrc.has_value());
  if (!file.ok()) {
    std::fprintf(stderr, "cql: %s\n", file.status().message().c_str());
    return file.status().code() == common::StatusCode::kIOError ? kCannotOpen : kUsageError;
  }
  for (const std::string& warning : file->warnings) std::fprintf(stderr, "%s\n", warning.c_str());
  shell::ConnectionFlags given;
  if (!flags.positional.empty()) given.host = flags.positional[0];
  if (flags.positional.size() == 2) given.port = flags.positional[1];
  given.username = flags.username;
  given.password = flags.password;
  given.keyspace = flags.keyspace;
  given.ssl = flags.ssl;
  given.ssl_ca = flags.ssl_ca;
  given.ssl_cert = flags.ssl_cert;
  given.ssl_key = flags.ssl_key;
  common::Result<shell::ConnectionConfig> resolved =
      shell::ResolveConnection(given, shell::EnvironmentFromProcess(), file->settings);
  if (!resolved.ok()) {
    std::fprintf(stderr, "cql: %s\n", resolved.status().message().c_str());
    return kUsageError;
  }
  *config = std::move(resolved).value();
  if (!config->username.empty() && !config->password) {
    common::Result<std::string> typed = shell::ReadPassword("Password: ");
    if (!typed.ok()) {
      std::fprintf(stderr, "cql: %s\n", typed.status().message().c_str());
      return kUsageError;
    }
    config->password = std::move(typed).value();
  }
  return std::nullopt;
}

// The client options for the flags and the resolved connection, or an exit status after a
// usage error.
std::optional<int> ClientOptionsFor(const Flags& flags, const shell::ConnectionConfig& config,
                                    client::ClientOptions* options) {
  const std::string& host = config.host;
  std::string address = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  options->contact_points = {address + ":" + std::to_string(config.port)};
  options->username = config.username;
  options->password = config.password.value_or("");
  options->tls = config.tls;
  if (flags.protocol_version) {
    if (*flags.protocol_version != "4" && *flags.protocol_version != "5") {
      std::fprintf(stderr, "cql: --protocol-version must be 4 or 5, not '%s'\n",
                   flags.protocol_version->c_str());
      return kUsageError;
    }
    options->protocol_version = static_cast<uint8_t>(std::stoi(*flags.protocol_version));
  }
  options->request_timeout = std::chrono::seconds(10);  // cqlsh's default
  for (auto [flag, target] : {std::pair{&flags.connect_timeout, &options->connect_timeout},
                              std::pair{&flags.request_timeout, &options->request_timeout}}) {
    if (!*flag) continue;
    std::optional<std::chrono::milliseconds> value = ParseSeconds(**flag);
    if (!value) {
      std::fprintf(stderr, "cql: a timeout must be a positive number of seconds, not '%s'\n",
                   (*flag)->c_str());
      return kUsageError;
    }
    *target = *value;
  }
  // COPY sends from several threads; a few connections spread the load.
  options->connections_per_host = 2;
  return std::nullopt;
}

// The history file, ~/.cql_history, when HOME is set.
std::string HistoryFile() {
  const char* home = std::getenv("HOME");
  return home == nullptr || *home == '\0' ? "" : std::string(home) + "/.cql_history";
}

// USE -k's keyspace (or the cqlrc's); false (after printing the error) when it failed.
bool UseKeyspace(cql::Session& session, const std::optional<std::string>& keyspace) {
  if (!keyspace) return true;
  common::Result<cql::ResultSet> use =
      session.Execute("USE " + cql::QuoteIdentifierIfNeeded(*keyspace));
  if (use.ok()) return true;
  std::fprintf(stderr, "%s\n", shell::CqlshErrorText(use.status()).c_str());
  return false;
}

int RunRemote(const Flags& flags) {
  shell::ConnectionConfig config;
  if (std::optional<int> status = ResolveConnectionFor(flags, &config)) return *status;
  client::ClientOptions options;
  if (std::optional<int> status = ClientOptionsFor(flags, config, &options)) return *status;
  const std::string host = config.host;
  const uint16_t port = config.port;
  common::Result<std::unique_ptr<client::RemoteSession>> session =
      client::RemoteSession::Connect(options);
  if (!session.ok() && session.status().code() == common::StatusCode::kInvalid) {
    // Options the driver refused before connecting (a TLS file it cannot load).
    std::fprintf(stderr, "cql: %s\n", session.status().message().c_str());
    return kCannotOpen;
  }
  if (!session.ok()) {
    std::fprintf(stderr, "%s\n", shell::ConnectionErrorText(host, port, session.status()).c_str());
    return kCannotOpen;
  }
  std::string cluster = "Test Cluster";
  std::string release = "unknown";
  std::string cql_version = "3.4.6";
  common::Result<cql::ResultSet> local =
      (*session)->Execute("SELECT cluster_name, release_version, cql_version FROM system.local");
  if (local.ok() && local->row_count() == 1) {
    if (auto text = local->GetText(0, 0); text.ok()) cluster = *text;
    if (auto text = local->GetText(0, 1); text.ok()) release = *text;
    if (auto text = local->GetText(0, 2); text.ok()) cql_version = *text;
  }
  shell::SessionShellOptions shell_options;
  shell_options.host = fmt::format("Connected to {} at {}:{}", cluster, host, port);
  shell_options.version = fmt::format("[cql | Cassandra {} | CQL spec {} | Native protocol v{}]",
                                      release, cql_version, (*session)->protocol_version());
  shell_options.banner = shell_options.host + "\n" + shell_options.version;
  shell_options.output_is_terminal = isatty(STDOUT_FILENO) != 0;
  shell_options.login = [options, host, port](const std::string& user, const std::string& password)
      -> common::Result<std::unique_ptr<cql::Session>> {
    client::ClientOptions login_options = options;
    login_options.username = user;
    login_options.password = password;
    common::Result<std::unique_ptr<client::RemoteSession>> connected =
        client::RemoteSession::Connect(login_options);
    if (!connected.ok()) {
      return common::Status(connected.status().code(),
                            shell::ConnectionErrorText(host, port, connected.status()));
    }
    return std::unique_ptr<cql::Session>(std::move(connected).value());
  };
  if (!UseKeyspace(**session, config.keyspace)) return kStatementFailed;
  shell::SessionShell shell(session->get(), stdout, stderr, shell_options);
  shell.set_history_file(HistoryFile());
  return Run(shell, flags);
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (std::optional<int> status = ParseFlags(argc, argv, &flags)) return *status;
  if (flags.syntax_check) {
    shell::SyntaxCheckShell shell(stdout, stderr);
    shell.set_history_file(HistoryFile());
    return Run(shell, flags);
  }
  if (!flags.data) return RunRemote(flags);

  const std::string& directory = *flags.data;
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    std::fprintf(stderr, "cql: cannot create the data directory '%s': %s\n", directory.c_str(),
                 error.message().c_str());
    return kCannotOpen;
  }
  engine::DatabaseOptions options;
  bool batch = flags.durability && *flags.durability == "batch";
  options.durability = batch ? engine::DatabaseOptions::Durability::kBatch
                             : engine::DatabaseOptions::Durability::kPeriodic;
  auto database = engine::Database::Open(directory, options);
  if (!database.ok()) {
    std::fprintf(stderr, "cql: cannot open the data directory '%s': %s\n", directory.c_str(),
                 database.status().ToString().c_str());
    return kCannotOpen;
  }
  std::unique_ptr<cql::Session> session = (*database)->NewSession();
  const schema::LocalNodeInfo& node = (*database)->local_node();
  shell::SessionShellOptions shell_options;
  shell_options.host = "Connected to " + node.cluster_name + " at " + directory +
                       " (embedded engine, durability " + (batch ? "batch" : "periodic") + ")";
  shell_options.version = "[cql | Cassandra " + node.release_version + " compatible | CQL spec " +
                          node.cql_version + "]";
  shell_options.banner = shell_options.host + ".\n" + shell_options.version;
  shell_options.output_is_terminal = isatty(STDOUT_FILENO) != 0;
  if (!UseKeyspace(*session, flags.keyspace)) return kStatementFailed;
  shell::SessionShell shell(session.get(), stdout, stderr, shell_options);
  shell.set_history_file(HistoryFile());
  return Run(shell, flags);
}
