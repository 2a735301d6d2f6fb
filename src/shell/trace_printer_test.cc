#include "shell/trace_printer.h"

#include <gtest/gtest.h>

namespace shell {
namespace {

// As Python's str(datetime): microseconds only when there are some.
TEST(TracePrinterTest, TimesPrintAsPythonDatetimes) {
  EXPECT_EQ(FormatTraceTime(0), "1970-01-01 00:00:00");
  EXPECT_EQ(FormatTraceTime(1'700'000'000'123'000), "2023-11-14 22:13:20.123000");
  EXPECT_EQ(FormatTraceTime(1'700'000'000'000'007), "2023-11-14 22:13:20.000007");
  EXPECT_EQ(FormatTraceTime(-1), "1969-12-31 23:59:59.999999");
}

}  // namespace
}  // namespace shell
