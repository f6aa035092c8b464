// The commlab CLI run as a user runs it (COMMLAB_CLI, set by tests/CMakeLists.txt), for the tests
// of its commands.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace commlab_test {

struct CliRun {
  int status = -1;  // the exit code; -1 when the CLI did not exit (an abort, a signal)
  std::string out;  // stdout, and stderr unless `redirect` sends it elsewhere
};

// `before`: words ahead of the command (an environment, `timeout 120`); `redirect`: where
// stderr goes (default: with stdout).
inline CliRun run_cli(const std::string& args, const std::string& before = "", const std::string& redirect = "2>&1") {
  CliRun r;
  FILE* pipe = popen((before + " " + COMMLAB_CLI + " " + args + " " + redirect).c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int st = pclose(pipe);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

}  // namespace commlab_test
