// A folder of exercise documents, read for the native doors (the CLI, the tests, the fuzz
// target): core reads no files, so they read the folder and install what it holds
// (exercise.install), as the page's worker does with dist/exercises/.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "exercises/exercises.hpp"

namespace commlab {

struct ExerciseFolder {
  std::vector<ExerciseFile> files;
  /// What is missing or unreadable ("" when every file was read).
  std::string error;
};

/// The documents of `dir`: the files its index.json lists ({"files": ["01.json", ...]}, as
/// `./lab build` writes for the page), else every *.json in it but index.json and schema.json,
/// by name.
ExerciseFolder read_exercise_folder(const std::string& dir);

/// Reads `dir` and installs its documents: the exercise.install answer ({exercises, problems}),
/// or {"error": {"code", "message"}} when the folder or a listed file cannot be read.
nlohmann::json install_exercise_folder(const std::string& dir);

}  // namespace commlab
