// The exercises the engine holds: none compiled in. The host installs the documents it ships
// once at start (exercise.install: the CLI from a folder, the page from dist/exercises/), and a
// session may add more (exercise.load). Core reads no files: the texts come in the request.
#include <algorithm>
#include <cmath>
#include <map>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/heap_sort.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"

namespace commlab {

using namespace detail;

namespace {

std::vector<Exercise>& registry() {
  static std::vector<Exercise> all;
  return all;
}

void sort_by_id(std::vector<Exercise>& list) {
  heap_sort(list.begin(), list.end(), [](const Exercise& a, const Exercise& b) { return a.id < b.id; });
}

// One document read as exercise.load reads it, inside its own work budget: the message of its
// first problem, or "" with `out` set.
std::string read_one(const ExerciseFile& f, Exercise* out) {
  DocumentWork work;  // checking a compute section runs its requests at the defaults
  try {
    *out = read_exercise(f.file, parse_exercise_text(f.file, f.text), !f.checked_at_build);
    return "";
  } catch (const RequestError& e) {
    if (document_work_exhausted()) return capped_message(concat({"exercises/", f.file, ": ", document_work_message()}));
    return capped_message(e.what());
  } catch (const json::exception& e) {
    return capped_message(concat({"exercises/", f.file, ": a field has the wrong type: ", e.what()}));
  } catch (const std::bad_alloc&) {
    return concat({"exercises/", f.file, ": the document needs more memory than the engine may use"});
  }
}

}  // namespace

const std::vector<Exercise>& exercises() { return registry(); }

std::string lecture_file(int id) {
  if (id < 1 || id > kLectureExercises) return "";
  return concat({(id < 10 ? "0" : ""), std::to_string(id), ".json"});
}

InstallReport install_exercises(const std::vector<ExerciseFile>& files) {
  InstallReport report;
  std::vector<Exercise> list;
  std::map<int, std::string> owners;  // id -> the file installed with it
  for (const ExerciseFile& f : files) {
    Exercise ex{0, json(), ""};
    std::string problem = read_one(f, &ex);
    if (problem.empty()) {
      const std::string own = lecture_file(ex.id);
      const auto owner = owners.find(ex.id);
      if (!own.empty() && own != f.file)
        problem =
            concat({"exercises/", f.file, ": field 'id': exercise ", std::to_string(ex.id),
                    " is the lecture's, accepted only from exercises/", own, "; allowed: in this file, a number from ",
                    std::to_string(kLectureExercises + 1), " to ", std::to_string(kMaxExerciseId)});
      else if (owner != owners.end())
        problem = concat({"exercises/", f.file, ": field 'id': exercise ", std::to_string(ex.id),
                          " is also the id of exercises/", owner->second, "; allowed: one file per id"});
    }
    if (!problem.empty()) {
      report.problems.push_back({f.file, capped_message(problem)});
      continue;
    }
    owners.emplace(ex.id, f.file);
    ex.file = f.file;
    report.installed.push_back({f.file, ex.id, ex.doc.at("title")});
    list.push_back(std::move(ex));
  }
  sort_by_id(list);
  registry() = std::move(list);
  return report;
}

const Exercise& load_exercise(const std::string& file, const json& doc) {
  Exercise ex = read_exercise(file, doc);
  const int id = ex.id;
  if (!lecture_file(id).empty())
    bad_doc(file, {"field 'id': exercise ", std::to_string(id), " is built in; give the new exercise another number"});
  std::vector<Exercise>& list = registry();
  for (Exercise& old : list)
    if (old.id == id) {
      old = std::move(ex);
      return old;
    }
  list.push_back(std::move(ex));
  sort_by_id(list);
  for (const Exercise& e : list)
    if (e.id == id) return e;
  return list.back();
}

void throw_not_installed() {
  refuse("not_installed", {"no exercise is installed: the host gives the documents first, "
                           "{\"op\":\"exercise.install\",\"files\":[{\"file\":\"01.json\",\"text\":\"...\"}]} "
                           "(the CLI reads its exercises folder, the page dist/exercises/index.json)"});
}

const Exercise& find_exercise(const json& id, const std::string& field) {
  if (exercises().empty()) throw_not_installed();
  std::vector<std::string> ids;
  for (const Exercise& ex : exercises()) ids.push_back(std::to_string(ex.id));
  const std::string rule = "allowed: one of " + join(ids, ", ");
  if (!id.is_number() || !std::isfinite(id.get<double>()) || id.get<double>() != std::floor(id.get<double>()))
    refuse("invalid_type", {"field '", field, "': value ", show_value(id), " is not an exercise number; ", rule});
  for (const Exercise& ex : exercises())
    if (ex.id == id.get<double>()) return ex;
  refuse("unknown_value", {"field '", field, "': no exercise ", show_value(id), "; ", rule});
}

}  // namespace commlab
