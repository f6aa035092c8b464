// The tests' main: the request API as the native CLI has it (demo tables included), with the
// source tree's exercises installed (none is compiled in: the host installs them).
#include <gtest/gtest.h>

#include <iostream>

#include "demos/demo_table.hpp"
#include "exercise_folder.hpp"

int main(int argc, char** argv) {
  commlab::add_demo_op();
  const nlohmann::json installed = commlab::install_exercise_folder(COMMLAB_SOURCE_DIR "/exercises");
  if (installed.contains("error") || !installed.at("problems").empty()) {
    std::cerr << "the exercises of " COMMLAB_SOURCE_DIR "/exercises do not install: " << installed.dump() << "\n";
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
