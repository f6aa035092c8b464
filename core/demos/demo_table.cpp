#include "demos/demo_table.hpp"

#include <cmath>
#include <cstdlib>

namespace commlab {

DemoTable::DemoTable(std::string id, std::string title) {
  j_ = {{"id", std::move(id)}, {"title", std::move(title)}, {"columns", json::array()},
        {"rows", json::array()}, {"checks", json::array()}, {"assumptions", json::array()},
        {"notes", json::array()}};
}

DemoTable& DemoTable::columns(std::vector<std::pair<std::string, std::string>> cols) {
  for (auto& [label, unit] : cols) j_["columns"].push_back({{"label", label}, {"unit", unit}});
  return *this;
}

DemoTable& DemoTable::row(std::vector<json> cells) {
  j_["rows"].push_back(std::move(cells));
  return *this;
}

std::string compare_to_lecture(double engine, const std::string& lecture, double tolerance_rel) {
  // Keep digits, point, sign and exponent; count decimals to know the lecture's rounding.
  std::string num;
  bool started = false;
  for (char c : lecture) {
    if ((c >= '0' && c <= '9') || c == '.' || (c == '-' && !started)) {
      num += c;
      started = true;
    } else if (c == ',' && started) {
      continue;
    } else if (started) {
      break;
    }
  }
  if (num.empty()) return "differs";
  const double value = std::strtod(num.c_str(), nullptr);
  const size_t point = num.find('.');
  const int decimals = point == std::string::npos ? 0 : static_cast<int>(num.size() - point - 1);
  const double half_ulp = 0.5 * std::pow(10.0, -decimals);
  if (std::fabs(engine - value) <= half_ulp * (1 + 1e-9)) return "match";
  if (tolerance_rel > 0 && std::fabs(engine - value) <= tolerance_rel * std::fabs(value)) return "close";
  return "differs";
}

DemoTable& DemoTable::check(const std::string& what, double engine, const std::string& lecture,
                            const std::string& unit, double tolerance_rel, const std::string& note) {
  json c = {{"what", what},       {"engine", engine}, {"lecture", lecture}, {"unit", unit},
            {"status", compare_to_lecture(engine, lecture, tolerance_rel)}};
  if (tolerance_rel > 0) c["tolerance_rel"] = tolerance_rel;
  if (!note.empty()) c["note"] = note;
  j_["checks"].push_back(c);
  return *this;
}

DemoTable& DemoTable::check_text(const std::string& what, const std::string& engine,
                                 const std::string& lecture) {
  j_["checks"].push_back({{"what", what}, {"engine", engine}, {"lecture", lecture}, {"unit", ""},
                          {"status", engine == lecture ? "match" : "differs"}});
  return *this;
}

DemoTable& DemoTable::assume(const std::string& text) {
  j_["assumptions"].push_back(text);
  return *this;
}

DemoTable& DemoTable::note(const std::string& text) {
  j_["notes"].push_back(text);
  return *this;
}

json DemoTable::to_json() const { return j_; }

}  // namespace commlab
