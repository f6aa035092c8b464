// The tests' main: the request API as the native CLI has it (demo tables included), with the
// source tree's exercises installed (none is compiled in: the host installs them).
#include <gtest/gtest.h>

#include <iostream>
#include <vector>

#include "demos/demo_table.hpp"
#include "exercise_folder.hpp"

namespace {

const char* const kExercises = COMMLAB_SOURCE_DIR "/exercises";

bool same(const std::vector<commlab::Exercise>& a, const std::vector<commlab::Exercise>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || a[i].file != b[i].file || a[i].doc != b[i].doc) return false;
  }
  return true;
}

// Every test starts from the source tree's exercises: the tests share one process (one binary,
// run in shards), and some install or load other documents.
class RestoreExercises : public ::testing::EmptyTestEventListener {
 public:
  explicit RestoreExercises(std::vector<commlab::Exercise> installed) : installed_(std::move(installed)) {}
  void OnTestEnd(const ::testing::TestInfo&) override {
    if (!same(commlab::exercises(), installed_)) commlab::install_exercise_folder(kExercises);
  }

 private:
  std::vector<commlab::Exercise> installed_;
};

}  // namespace

int main(int argc, char** argv) {
  commlab::add_demo_op();
  const nlohmann::json installed = commlab::install_exercise_folder(kExercises);
  if (installed.contains("error") || !installed.at("problems").empty()) {
    std::cerr << "the exercises of " << kExercises << " do not install: " << installed.dump() << "\n";
    return 2;
  }
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new RestoreExercises(commlab::exercises()));
  return RUN_ALL_TESTS();
}
