// The figures a compute section asks of the engine: a request with its "$name"s bound, run by
// the evaluator the api layer installs, and one field taken from its response.
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "base/concat.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/declared_run.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"

namespace commlab {

void set_request_evaluator(RequestEvaluator f) { detail::request_evaluator() = std::move(f); }

namespace detail {

RequestEvaluator& request_evaluator() {
  static RequestEvaluator f;
  return f;
}

json bind_names(const json& j, const json& scope, const std::string& path) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s.empty() || s[0] != '$') return j;
    const std::string name = s.substr(1);
    if (!scope.contains(name)) reject({path, ": ", clip(s), " is not bound (a param, or a figure computed above)"});
    return scope.at(name);
  }
  if (j.is_object()) {
    json out = json::object();
    for (auto it = j.begin(); it != j.end(); ++it)
      out[it.key()] = bind_names(it.value(), scope, concat({path, ".", it.key()}));
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (size_t i = 0; i < j.size(); ++i)
      out.push_back(bind_names(j[i], scope, concat({path, "[", std::to_string(i), "]"})));
    return out;
  }
  return j;
}

namespace {

// A response field by path: "time_s", or into arrays and objects, "phases[1].time_s"; an
// array's element also by its id, "gpus[h100].flops" (a preset's figure wherever the list puts it).
const json& take_field(const json& res, const std::string& field, const std::string& at) {
  const json* node = &res;
  std::string walked;
  size_t i = 0;
  auto bad_path = [&] {
    reject({at, ": ", detail::quoted(field),
            " is not a field path; allowed: names joined by '.', each with "
            "optional [index] or [id] (\"time_s\", \"phases[1].time_s\", \"gpus[h100].flops\")"});
  };
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i <= field.size()) {
    size_t j = i;
    while (j < field.size() && word_char(field[j])) ++j;
    const std::string name = field.substr(i, j - i);
    if (name.empty()) bad_path();
    if (!node->is_object() || !node->contains(name)) {
      std::vector<std::string> names;
      if (node->is_object())
        for (auto it = node->begin(); it != node->end(); ++it) names.push_back(it.key());
      reject({at, ": the response has no field '", clip(walked.empty() ? name : concat({walked, ".", name})), "'",
              (names.empty() ? "" : "; " + nearest_or_allowed(name, names))});
    }
    node = &node->at(name);
    walked += (walked.empty() ? "" : ".") + name;
    while (j < field.size() && field[j] == '[') {
      size_t k = j + 1;
      while (k < field.size() && word_char(field[k])) ++k;
      if (k == j + 1 || k >= field.size() || field[k] != ']' || k - j > 61) bad_path();
      const std::string key = field.substr(j + 1, k - j - 1);
      const bool index_given = key.find_first_not_of("0123456789") == std::string::npos;
      if (!node->is_array())
        reject({at, ": the response's ", detail::quoted(walked),
                " is not an array; allowed: [index] or [id] after an array's name only"});
      if (index_given) {
        const size_t index = key.size() > 7 ? node->size() : std::stoul(key);
        if (index >= node->size())
          reject({at, ": the response's ", detail::quoted(walked), " has ", std::to_string(node->size()),
                  " entries; allowed: ",
                  (node->empty() ? "none" : "an index from 0 to " + std::to_string(node->size() - 1))});
        node = &node->at(index);
      } else {
        const json* found = nullptr;
        std::vector<std::string> ids;
        for (const json& e : *node) {
          const json* id = e.is_object() && e.contains("id") && e.at("id").is_string() ? &e.at("id") : nullptr;
          if (!id) continue;
          if (id->get_ref<const std::string&>() == key) {
            found = &e;
            break;
          }
          ids.push_back(id->get<std::string>());
        }
        if (!found)
          reject({at, ": the response's ", detail::quoted(walked), " has no entry of id ", detail::quoted(key), "; ",
                  (ids.empty() ? std::string("allowed: [index] (its entries have no id)")
                               : nearest_or_allowed(key, ids))});
        node = found;
      }
      walked += field.substr(j, k - j + 1);
      j = k + 1;
    }
    if (j == field.size()) break;
    if (field[j] != '.') bad_path();
    i = j + 1;
  }
  return *node;
}

}  // namespace

json request_figure(const json& spec, Run& run, const std::string& path) {
  const json& scope = run.scope;
  const json& req = spec.at("request");
  if (!req.is_object() || !req.contains("op") || !req.at("op").is_string())
    reject({path, ".request: must be a request object with an \"op\""});
  const std::string op = req.at("op");
  if (op.rfind("exercise.", 0) == 0) reject({path, ".request.op: an exercise cannot ask for ", op});
  if (!spec.contains("field") || !spec.at("field").is_string())
    reject({path, ".field: must name the response field to take"});
  if (!request_evaluator()) reject({path, ": no request evaluator is installed"});
  // The same text asks the same request while no $name it may hold is rebound (run() resets).
  if (!run.last_request || req != *run.last_request) {
    run.last_request = nullptr;
    run.last_response = json();
    charge_work(kDeclaredRequestUnits);  // the document's one budget (base/work_meter.hpp)
    json res = request_evaluator()(bind_names(req, scope, path + ".request"));
    if (res.contains("error")) {
      const std::string code = res.at("error").value("code", std::string()),
                        why = concat({path, ".request: the engine refused it: ",
                                      res.at("error").value("message", std::string("?"))});
      if (code == "out_of_range" || code == "too_large") throw RefusedAtParams(code, why);
      reject({why});
    }
    run.last_request = &req;
    run.last_response = std::move(res);
  }
  // The field only, copied out of the response: kept figures are numbers, words or flags,
  // never a response's timeline (50 kept pipeline timelines held 2.77 GB).
  const json& taken = take_field(run.last_response, spec.at("field").get<std::string>(), path + ".field");
  if (taken.is_structured() || (taken.is_string() && taken.get_ref<const std::string&>().size() > kMaxFilledTextBytes))
    reject({path, ".field: the response's ", quoted(spec.at("field").get<std::string>()),
            " is an array, an object or a long text; allowed: a field that is a "
            "number, a short text or true/false"});
  return taken;
}

}  // namespace detail

}  // namespace commlab
