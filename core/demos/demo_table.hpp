// Layer demos (top): the lecture's demo tables (code 01-05) as data, each row computed by the
// engine, each quoted figure of the lecture checked beside the engine's own. Linked by the CLI
// and the tests, not by the wasm module.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace commlab {

using json = nlohmann::json;

/// One table of a demo; cells are numbers in the column's unit, or text.
class DemoTable {
 public:
  DemoTable(std::string id, std::string title);
  /// Columns as (label, unit) pairs; unit "" for text or plain numbers.
  DemoTable& columns(std::vector<std::pair<std::string, std::string>> cols);
  DemoTable& row(std::vector<json> cells);
  /// A quoted figure: `lecture` is the lecture's text ("9.61", "about 5"); it matches when the
  /// engine's value rounds to it, or lies within `tolerance_rel` for the lecture's "about".
  DemoTable& check(const std::string& what, double engine, const std::string& lecture,
                   const std::string& unit, double tolerance_rel = 0, const std::string& note = "");
  /// A quoted choice ("LL", "recursive_doubling"): matches when equal.
  DemoTable& check_text(const std::string& what, const std::string& engine, const std::string& lecture);
  /// A parameter the lecture leaves out, written down with the value chosen.
  DemoTable& assume(const std::string& text);
  DemoTable& note(const std::string& text);
  json to_json() const;

 private:
  json j_;
};

/// "match" when `engine` rounds to the decimals of `lecture`; "close" within tolerance_rel;
/// else "differs". The lecture text may carry "about"/"~" and thousands commas.
std::string compare_to_lecture(double engine, const std::string& lecture, double tolerance_rel);

/// A demo: its id ("01") and a function that builds its tables.
struct DemoInfo {
  const char* id;
  const char* title;
  json (*build)();
};
const std::vector<DemoInfo>& demo_table();
/// Adds the "demo" op to the request API. The native CLI and the tests call it; the wasm module
/// does not link this layer (the page never shows the tables).
void add_demo_op();

// One per lecture script.
json demo_01();
json demo_02();
json demo_03();
json demo_04();
json demo_05();

}  // namespace commlab
