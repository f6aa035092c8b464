// Helpers shared by the files of the exercises layer; not part of its interface.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/quantity.hpp"

namespace commlab {
struct Exercise;
}

namespace commlab::detail {

using json = nlohmann::json;

constexpr double kDefaultTolerance = 0.01;
constexpr int kDefaultMinFigures = 2;

std::string lower(std::string s);
std::string trim(const std::string& s);
bool ends_with(const std::string& s, const std::string& tail);
/// "Recursive doubling", "recursive-doubling" and "recursive_doubling" are one name.
std::string normalize_choice(const std::string& s);
std::string join(const std::vector<std::string>& items, const std::string& sep);
std::string num(double x);
std::string percent(double fraction);
/// A message's start, at most kMaxMessageChars bytes, cut at a UTF-8 boundary.
std::string capped_message(const std::string& message);
/// A document's text quoted in a message: at most 60 characters.
std::string quoted(const std::string& text);
/// A name from the document in a message: at most 60 characters, so messages stay short.
std::string clip(const std::string& s);
/// Throws invalid_exercise naming the file (the message capped).
[[noreturn]] void bad_doc(const std::string& file, const std::string& what);
/// The same with the message in pieces, joined there (one call at each of some fifty sites).
[[noreturn]] void bad_doc(const std::string& file, std::initializer_list<std::string_view> what);
bool is_text_pair(const json& j);
/// null, {} and []: the fallbacks of member().
extern const json kNoValue, kNoMembers, kNoItems;
/// obj.value(key, fallback) without the copy: the member, else `fallback` (one of the constants
/// above, never a temporary); like value(), json's type_error when `obj` is no object.
const json& member(const json& obj, const char* key, const json& fallback = kNoValue);
std::string base_unit_name(Dimension d);
/// def.value("unit", "") without the copy: the unit, or "" (json's type_error, as value() throws,
/// for a unit that is not a text).
const std::string& unit_of(const json& def);
Dimension param_dimension(const json& def);
bool is_choice_answer(const json& def);
Dimension answer_dimension(const json& def);
int min_figures(const json& def);
double tolerance(const json& def);
std::vector<std::string> choices_of(const json& def);
/// The definitions of a list of params or answers by id, the first of each, in one pass (it
/// charges the document's meter a unit a definition). Built once for many lookups: a scan for
/// each id made a solve quadratic in the answers.
std::unordered_map<std::string, const json*> defs_by_id(const json& list);
/// A text in both languages.
json message(std::string en, std::string zh);
/// {"params", "answers", "values"}: the figures conditions and conclusions read.
json figures_of(const json& params, const json& answers, const json& values);
/// A unit as prose shows it: the request vocabulary says "us" and "x", a reader sees "µs" and "×".
std::string shown(const std::string& unit);
/// Levenshtein distance (fields.cpp): the nearest valid name for a misspelled field.
size_t edit_distance(const std::string& a, const std::string& b);
/// "did you mean \"x\"?" when a name in `allowed` is close, else "allowed: a, b, c".
std::string nearest_or_allowed(const std::string& name, const std::vector<std::string>& allowed);
/// exercises/schema.json without its descriptions, as CMake embedded it (generated/schema_data.cpp).
const char* exercise_schema_text();
/// That schema, parsed once: where the field names of every object of a document come from.
const json& exercise_schema();
/// Every unknown field of a document, anywhere: "answers[1].tolerence_rel: unknown field; did you
/// mean \"tolerance_rel\"?" (exercises/README.md "Exercise documents are untrusted input": read as a request),
/// the fields of each object those its schema definition lists; and every key of a map that
/// names nothing of the document (a preset's param, an alias's choice, a computed answer's id).
std::vector<std::string> unknown_fields(const json& doc);
/// A parsed document checked (fields, types, ranges, its compute section at the defaults unless
/// `run_compute` is false) and given its compute function (document.cpp); throws
/// invalid_exercise naming the file and the path.
Exercise read_exercise(const std::string& file, const json& doc, bool run_compute = true);
/// The checks of one part of a document (document_checks.cpp), each throwing invalid_exercise
/// naming the file and the field's path: params[i], answers[i], "variant", "$schema".
void check_param_def(const std::string& file, const json& p, size_t i);
void check_answer_def(const std::string& file, const json& a, size_t i);
void check_variant(const std::string& file, const json& doc);
void check_schema_reference(const std::string& file, const json& doc);

}  // namespace commlab::detail
