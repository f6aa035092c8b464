// Lint's solving: a document's answers computed at its defaults, at the ends of every param's
// range and at drawn variants, and its constraints met by some draw.
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"
#include "exercises/lint.hpp"

namespace commlab::detail {

namespace {

std::string show_number(double x) {
  if (std::isnan(x)) return "not a number (NaN: 0/0 or a root of a negative?)";
  if (std::isinf(x)) return std::string(x > 0 ? "" : "-") + "infinite (a division by zero?)";
  return num(x);
}

// A side of a condition as written: params.devices, >, 5000.
std::string side(const json& v) {
  if (!v.is_string()) return show_value(v);
  const std::string q = quoted(v.get<std::string>());
  return q.substr(1, q.size() - 2);
}

std::string params_text(const json& p) {
  std::vector<std::string> parts;
  for (auto it = p.begin(); it != p.end(); ++it)
    parts.push_back(
        concat({it.key(), " = ", (it.value().is_number() ? num(it.value().get<double>()) : show_value(it.value()))}));
  return join(parts, ", ");
}

// What is wrong with the answers at one point: not computable, not finite, an exact count not
// whole; {key, "path: what"}. `solved` receives the solution when it is computed.
std::vector<std::pair<std::string, std::string>> point_problems(const Exercise& ex, const json& params, json* solved) {
  std::vector<std::pair<std::string, std::string>> out;
  try {
    *solved = solve_exercise(ex, params);
  } catch (const RequestError& e) {
    if (document_work_exhausted()) throw;
    std::string m = e.what();
    const std::string head = concat({"exercise ", std::to_string(ex.id), ", "});
    if (m.rfind(head, 0) == 0) m = m.substr(head.size());
    const size_t colon = m.find(": ");
    const std::string path = colon == std::string::npos ? "answers" : m.substr(0, colon);
    out.push_back({path + "#solve",
                   concat({path, ": cannot be computed", (colon == std::string::npos ? ": " + m : m.substr(colon))})});
    *solved = json();
    return out;
  } catch (const json::exception& e) {  // a figure of the wrong kind read
    out.push_back({"answers#json", std::string("answers: cannot be computed: ") + e.what()});
    *solved = json();
    return out;
  }
  const json& answers = ex.doc.at("answers");
  for (size_t i = 0; i < answers.size(); ++i) {
    const std::string id = answers[i].at("id");
    const json& v = solved->at("answers").at(id);
    if (!v.is_number()) continue;
    const double x = v.get<double>();
    const std::string path =
        ex.doc.contains("compute") ? "compute.answers." + id : concat({"answers[", std::to_string(i), "]"});
    if (!std::isfinite(x))
      out.push_back({path + "#finite", concat({path, ": is ", show_number(x), "; allowed: a finite number"})});
    else if (answers[i].value("exact", false) && x != std::floor(x))
      out.push_back({path + "#exact", concat({path, ": an exact count (answers[", std::to_string(i), "].exact) is ",
                                              num(x), "; allowed: a whole number, or no \"exact\""})});
  }
  return out;
}

}  // namespace

// Solvable: the answers at the defaults, at both ends of every param's range (the others at
// their defaults) and at 50 drawn variants; every constraint met by some draw.
void solvability_into(const Exercise& ex, const json& defaults, const Said& said) {
  const size_t kDraws = 50;
  std::set<std::string> reported;
  json solved;
  auto report_at = [&](const json& params, const std::string& where) {
    for (const auto& [key, line] : point_problems(ex, params, &solved))
      if (reported.insert(key).second) {
        const size_t colon = line.find(": ");
        said(concat({line.substr(0, colon), ": at ", where, ", ", line.substr(colon + 2)}));
      }
  };
  report_at(defaults, "the defaults");
  const json& params = ex.doc.at("params");
  for (size_t i = 0; i < params.size(); ++i) {
    const json& def = params[i];
    const std::string id = def.at("id");
    std::vector<std::pair<json, std::string>> ends;
    if (def.at("kind") == "choice") {
      for (const json& c : def.at("choices"))
        ends.push_back({c, concat({"params[", std::to_string(i), "] ", id, " = ", c.get<std::string>()})});
    } else {
      const json list = def.contains("one_of") ? def.at("one_of") : json::array({def.at("min"), def.at("max")});
      for (const json& x : list)
        ends.push_back({x, concat({id, " = ", num(x.get<double>()), " (params[", std::to_string(i), "] ",
                                   (def.contains("one_of") ? "one_of"
                                    : x == def.at("min")   ? "min"
                                                           : "max"),
                                   ")"})});
    }
    for (const auto& [x, where] : ends) {
      json p = defaults;
      p[id] = x;
      report_at(p, where);
    }
  }
  // Drawn variants: failures counted, the first named with its params.
  std::map<std::string, std::pair<int, std::string>> at_draws;  // key -> (count, first line)
  std::vector<std::string> order;
  const json& constraints = member(member(ex.doc, "variant", kNoMembers), "constraints", kNoItems);
  std::vector<int> holds(constraints.size(), 0);
  int drawn = 0, solved_draws = 0;
  for (std::uint64_t seed = 1; seed <= kDraws; ++seed) {
    const json p = draw_params(ex, seed);
    if (p.is_null()) continue;
    ++drawn;
    for (const auto& [key, line] : point_problems(ex, p, &solved)) {
      if (reported.count(key)) continue;
      auto& slot = at_draws[key];
      if (slot.first++ == 0) {
        order.push_back(key);
        const size_t colon = line.find(": ");
        slot.second = concat({line.substr(0, colon), ": at drawn variants (first: seed ", std::to_string(seed), ", ",
                              params_text(p), "), ", line.substr(colon + 2)});
      }
    }
    if (solved.is_null()) continue;
    ++solved_draws;
    for (size_t i = 0; i < constraints.size(); ++i) {
      try {
        holds[i] += condition_holds(solved, constraints[i]) ? 1 : 0;
      } catch (const std::exception&) {
        if (document_work_exhausted()) throw;
      }
    }
  }
  for (const std::string& key : order) {
    const auto& [count, line] = at_draws.at(key);
    const size_t at = line.find(": at drawn variants");
    said(concat(
        {line.substr(0, at), ": at ", std::to_string(count), " of ", std::to_string(drawn), " ", line.substr(at + 5)}));
  }
  if (solved_draws == 0) return;
  for (size_t i = 0; i < constraints.size(); ++i)
    if (holds[i] == 0)
      said(concat({"variant.constraints[", std::to_string(i), "]: no drawn variant satisfies it (0 of ",
                   std::to_string(solved_draws), " draws: ", side(member(constraints[i], "left")), " ",
                   side(member(constraints[i], "op")), " ", side(member(constraints[i], "right")),
                   "); allowed: a condition some params within min, max and nice meet"}));
}

}  // namespace commlab::detail
