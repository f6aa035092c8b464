// The tests' main: the request API as the native CLI has it (demo tables included).
#include <gtest/gtest.h>

#include "demos/demo_table.hpp"

int main(int argc, char** argv) {
  commlab::add_demo_op();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
