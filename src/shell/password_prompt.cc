#include "shell/password_prompt.h"

#include <fcntl.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace shell {
namespace {

using common::Result;
using common::Status;

constexpr size_t kMaxPassword = 4096;
constexpr std::array kSignals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// The terminal whose echo is off, for the signal handler (only one prompt runs at a time).
volatile sig_atomic_t echo_off_fd = -1;
struct termios saved_mode;
std::array<struct sigaction, kSignals.size()> saved_actions;

void RestoreEcho() {
  if (echo_off_fd >= 0) tcsetattr(echo_off_fd, TCSAFLUSH, &saved_mode);
  echo_off_fd = -1;
}

extern "C" void RestoreEchoAndReraise(int signal) {
  RestoreEcho();
  for (size_t i = 0; i < kSignals.size(); ++i) {
    if (kSignals[i] == signal) sigaction(signal, &saved_actions[i], nullptr);
  }
  raise(signal);
}

void Write(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = write(fd, text.data(), text.size());
    if (n <= 0 && errno != EINTR) return;
    if (n > 0) text.remove_prefix(static_cast<size_t>(n));
  }
}

// Reads up to a newline or end of input; false on end of input before any newline or an error.
bool ReadLine(int fd, std::string* line) {
  char c = 0;
  while (true) {
    ssize_t n = read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (c == '\n') break;
    if (line->size() < kMaxPassword) line->push_back(c);
  }
  if (!line->empty() && line->back() == '\r') line->pop_back();
  return true;
}

}  // namespace

Result<std::string> ReadPassword(std::string_view prompt) {
  int fd = -1;
  bool opened = false;
  if (isatty(STDIN_FILENO)) {
    fd = STDIN_FILENO;
  } else {
    fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
      return Status::Invalid(
          "password required: no terminal to ask for it on (give it with -p, "
          "CQL_PASSWORD or the cqlrc)");
    }
    opened = true;
  }
  int out = opened ? fd : STDERR_FILENO;
  struct termios mode;
  bool echo_changed = false;
  bool handlers_installed = false;
  if (tcgetattr(fd, &mode) == 0) {
    handlers_installed = true;
    saved_mode = mode;
    for (size_t i = 0; i < kSignals.size(); ++i) {
      struct sigaction action {};
      action.sa_handler = &RestoreEchoAndReraise;
      sigemptyset(&action.sa_mask);
      sigaction(kSignals[i], &action, &saved_actions[i]);
    }
    mode.c_lflag &= ~static_cast<tcflag_t>(ECHO | ECHOE | ECHOK | ECHONL);
    echo_changed = tcsetattr(fd, TCSAFLUSH, &mode) == 0;
    if (echo_changed) echo_off_fd = fd;
  }
  Write(out, prompt);
  std::string password;
  int read_error = 0;
  bool ok = ReadLine(fd, &password);
  if (!ok) read_error = errno;
  if (echo_changed) RestoreEcho();
  if (handlers_installed) {
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &saved_actions[i], nullptr);
  }
  Write(out, "\n");  // the Enter that echo swallowed
  if (opened) close(fd);
  if (!ok) {
    return Status::IOError(read_error != 0 ? std::string("cannot read the password: ") +
                                                 std::strerror(read_error)
                                           : std::string("no password given (end of input)"));
  }
  return password;
}

}  // namespace shell
