// Every file the CLI reads is size-checked while it is read (cli/bounded_read.hpp): /dev/zero
// given as an exercise document grew to 8 GB and aborted with std::bad_alloc (issue 44). And
// the CLI's own messages name the path as given, the flag, and what is wrong.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include "nccl_synth.hpp"
#include "test_cli.hpp"

namespace {

namespace fs = std::filesystem;

using commlab_test::CliRun;

// `timeout` bounds a CLI that would read without end; it exits 124 then.
CliRun cli(const std::string& args) { return commlab_test::run_cli(args, "timeout 120"); }

std::string temp_file(const std::string& name, size_t bytes) {
  const fs::path p = fs::path(testing::TempDir()) / name;
  std::ofstream(p, std::ios::binary) << std::string(bytes, ' ');
  return p.string();
}

void expect_refused_read(const CliRun& r, const std::string& file, const std::string& limit, const std::string& allowed) {
  EXPECT_TRUE(r.status == 1 || r.status == 2) << r.status << "\n" << r.out.substr(0, 600);
  EXPECT_NE(r.out.find(file + ": more than " + limit), std::string::npos) << r.out.substr(0, 600);
  EXPECT_NE(r.out.find("allowed: " + allowed), std::string::npos) << r.out.substr(0, 600);
  EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out.substr(0, 600);
}

}  // namespace

TEST(CliFiles, AnEndlessOrLargeExerciseIsRefusedWhileRead) {
  expect_refused_read(cli("--exercise /dev/zero eval '{\"op\":\"links\"}'"), "/dev/zero", "262144 bytes",
                      "an exercise document of at most 256 KB");
  const std::string big = temp_file("commlab_big_exercise.json", 300 * 1024);
  expect_refused_read(cli("--exercise " + big + " eval '{\"op\":\"links\"}'"), big, "262144 bytes",
                      "an exercise document of at most 256 KB");
  expect_refused_read(cli("exercise lint /dev/zero"), "/dev/zero", "262144 bytes", "an exercise document");
}

TEST(CliFiles, AnEndlessOrLargeLogIsRefusedWhileRead) {
  expect_refused_read(cli("fit /dev/zero"), "/dev/zero", "8000000 bytes", "an nccl-tests log of at most 8 MB");
  expect_refused_read(cli("fit - < /dev/zero"), "stdin", "8000000 bytes", "an nccl-tests log of at most 8 MB");
  const std::string big = temp_file("commlab_big_log.txt", 8000001);
  expect_refused_read(cli("fit " + big), big, "8000000 bytes", "an nccl-tests log");
}

TEST(CliFiles, AnEndlessRequestLineIsAnsweredAsTooLarge) {
  const CliRun r = cli("eval < /dev/zero");
  EXPECT_EQ(r.status, 1) << r.out.substr(0, 600);
  EXPECT_NE(r.out.find("\"code\":\"too_large\""), std::string::npos) << r.out.substr(0, 600);
  EXPECT_NE(r.out.find("line 1 is over 64000000 bytes"), std::string::npos) << r.out.substr(0, 600);
}

TEST(CliFiles, AnExerciseFolderFileIsReadWithinTheLimit) {
  const fs::path dir = fs::path(testing::TempDir()) / "commlab_big_folder";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "50.json", std::ios::binary) << std::string(300 * 1024, ' ');
  const CliRun r = cli("--exercises " + dir.string() + " eval '{\"op\":\"links\"}'");
  EXPECT_EQ(r.status, 2) << r.out.substr(0, 600);
  EXPECT_NE(r.out.find((dir / "50.json").string() + ": more than 262144 bytes"), std::string::npos) << r.out.substr(0, 600);
}

TEST(CliFiles, ADirectoryGivenAsAnExerciseIsNamedAsGiven) {
  const fs::path dir = fs::path(testing::TempDir()) / "commlab_a_folder";
  fs::create_directories(dir);
  const CliRun r = cli("--exercise " + dir.string() + " eval '{\"op\":\"links\"}'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--exercise " + dir.string() + ": is a directory"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("exercises/"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not valid JSON"), std::string::npos) << r.out;
}

TEST(CliFiles, AnExercisesEngineErrorNamesThePathAsGiven) {
  const fs::path p = fs::path(testing::TempDir()) / "commlab_not_json.json";
  std::ofstream(p, std::ios::binary) << "{ not json";
  const CliRun r = cli("--exercise " + p.string() + " eval '{\"op\":\"links\"}'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(p.string() + ": "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("exercises/commlab_not_json.json"), std::string::npos) << r.out;
}

TEST(CliFiles, AFlagWithoutItsValueSaysWhatItNeeds) {
  CliRun r = cli("--exercise");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--exercise needs a file"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("unknown command"), std::string::npos) << r.out;
  r = cli("--exercises");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--exercises needs a folder"), std::string::npos) << r.out;
}

TEST(CliFiles, FitErrorsNameTheFlagGiven) {
  const std::string log = COMMLAB_SOURCE_DIR "/tests/fixtures/nccl/synthetic_nccl_protocols.txt";
  CliRun r = cli("fit --collective warp " + log);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("--collective: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("'collective'"), std::string::npos) << r.out;
  r = cli("fit --ranks 1 " + log);
  EXPECT_NE(r.out.find("--ranks: "), std::string::npos) << r.out;
  r = cli("fit --link warp " + log);
  EXPECT_NE(r.out.find("--link: "), std::string::npos) << r.out;
}

TEST(CliFiles, FitErrorsNameTheFlagToGive) {
  // What the log does not say, the error asks for by its flag, not by the request field the op
  // names ("give 'collective': ..."). rccl-tests under srun: all-gather prints all-to-all's table.
  commlab_test::SynthSpec s;
  s.rccl = true;
  s.prefix = " 0: ";
  s.collective = "all_gather";
  s.redop = "none";
  const fs::path tie = fs::path(testing::TempDir()) / "commlab_rccl_all_gather.txt";
  std::ofstream(tie, std::ios::binary) << commlab_test::synth_log(s).text;
  CliRun r = cli("fit " + tie.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(": --collective: table 1 ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fits all_gather and alltoall alike"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("give --collective: all_gather or alltoall"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("'collective'"), std::string::npos) << r.out;
  // All-gather rows too small to tell the rank count: --ranks.
  const fs::path small = fs::path(testing::TempDir()) / "commlab_small_all_gather.txt";
  std::ofstream(small, std::ios::binary)
      << "        1024            16     float    74.96    0.01    0.01  5e-07    74.94    0.01    0.01  5e-07\n"
         "        2048            32     float    75.73    0.03    0.03  5e-07    75.44    0.03    0.03  5e-07\n";
  r = cli("fit --collective all_gather " + small.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(": --ranks: table 1 (lines 1-2) (all_gather) does not say how many ranks ran it"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("give --ranks: an integer from 2 to"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("'ranks'"), std::string::npos) << r.out;
}
