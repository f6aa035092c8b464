// What solving an exercise gives (P5 §11): its "compute" section run for one set of params
// (declared.hpp). exercise.solve and exercise.check read it; the document carries the texts.
#pragma once
#include <nlohmann/json.hpp>

namespace commlab {

// `answers` by id (base units: seconds, bytes, fractions 0-1, counts; choice answers as strings),
// `values`: the named figures of the worked solution and the page's views, and `ranges`: answer
// id -> [lo, hi] where the lecture accepts a range ("8, and one or two more fill it completely");
// every value in it is judged correct.
struct ExerciseSolution {
  nlohmann::json answers;
  nlohmann::json values;
  nlohmann::json ranges = nlohmann::json::object();
};

}  // namespace commlab
