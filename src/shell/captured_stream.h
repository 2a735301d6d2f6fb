// CapturedStream: a stdio stream whose contents a test reads back, for the shells' unit tests
// (the shells write to `std::FILE*`). Header-only so that no test code lands in the library.
//
// Thread-safety: not thread-safe.

#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

namespace shell {

class CapturedStream {
 public:
  CapturedStream() : file_(std::tmpfile()) {}
  ~CapturedStream() {
    if (file_ != nullptr) std::fclose(file_);
  }
  CapturedStream(const CapturedStream&) = delete;
  CapturedStream& operator=(const CapturedStream&) = delete;

  // The stream to hand to the code under test (the same for the stream's whole life); null if
  // no temporary file could be made.
  std::FILE* file() const { return file_; }
  // Everything written so far; reading also empties the stream.
  std::string Take() {
    if (file_ == nullptr) return "";
    std::fflush(file_);
    std::rewind(file_);
    std::string text;
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), file_)) > 0) text.append(buffer, n);
    std::rewind(file_);
    if (ftruncate(fileno(file_), 0) != 0) text += "<cannot truncate the capture file>";
    return text;
  }

 private:
  std::FILE* file_;
};

}  // namespace shell
