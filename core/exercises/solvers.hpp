// Solvers of the lecture's exercises (P5 §11), one function per exercise. exercise.solve and
// exercise.check call these; the exercise JSON files carry statements, params and tolerances.
#pragma once
#include <nlohmann/json.hpp>

namespace commlab {

// Each solver takes the exercise's params (a JSON object with every param filled in, base units)
// and returns answers by id (base units: seconds, bytes, fractions 0-1, counts; text answers as
// strings) and `values`: named intermediate figures for the worked solution.
// `ranges`: answer id -> [lo, hi] where the lecture accepts a range ("8, and one or two more
// fill it completely"); every value in it is judged correct.
struct ExerciseSolution {
  nlohmann::json answers;
  nlohmann::json values;
  nlohmann::json ranges = nlohmann::json::object();
};

ExerciseSolution solve_exercise_3(const nlohmann::json& params);
ExerciseSolution solve_exercise_4(const nlohmann::json& params);
ExerciseSolution solve_exercise_6(const nlohmann::json& params);
ExerciseSolution solve_exercise_8(const nlohmann::json& params);

}  // namespace commlab
