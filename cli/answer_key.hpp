// `commlab exercise key`: an instructor's answer key, one row per variant (cli/README.md "Answer keys"). Every figure is the engine's: exercise.variant draws the params of a seed,
// exercise.solve answers them and formats them as the page shows them to students.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace commlab {

/// Runs `commlab exercise key` with the arguments after "key" (`--id N|all`, `--seeds A-B|N`,
/// `--format csv|markdown`, `--lang en|zh`). The key goes to `out`; a bad argument is one line
/// on `err` naming the flag, the value and what is allowed (exit status 2), an engine error on a
/// seed one line too (status 1). The exercises must be installed.
int exercise_key(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace commlab
