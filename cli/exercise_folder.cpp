#include "exercise_folder.hpp"

#include <algorithm>
#include <filesystem>

#include "api/api.hpp"
#include "bounded_read.hpp"

namespace commlab {

namespace {

namespace fs = std::filesystem;

constexpr ReadLimit kIndexLimit{kMaxDocumentBytes, "an index.json"};

// A listed name is a file of the folder itself: no path, no hidden file.
bool plain_name(const std::string& n) {
  if (n.size() < 6 || n.size() > 100 || n[0] == '.' || n.compare(n.size() - 5, 5, ".json") != 0) return false;
  return std::all_of(n.begin(), n.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  });
}

}  // namespace

ExerciseFolder read_exercise_folder(const std::string& dir) {
  ExerciseFolder out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    out.error = "the exercises folder " + dir + " does not exist (give one with --exercises DIR or COMMLAB_EXERCISES_DIR)";
    return out;
  }
  std::vector<std::string> names;
  const fs::path index = fs::path(dir) / "index.json";
  if (fs::exists(index, ec)) {
    std::string text, error;
    nlohmann::json list;
    if (!read_file_bounded(index.string(), kIndexLimit, &text, &error)) {
      out.error = error;
      return out;
    }
    try {
      list = nlohmann::json::parse(text).at("files");
    } catch (const std::exception&) {
      list = nullptr;
    }
    bool ok = list.is_array();
    for (const auto& n : ok ? list : nlohmann::json::array()) ok = ok && n.is_string() && plain_name(n.get<std::string>());
    if (!ok) {
      out.error = index.string() + ": must be {\"files\": [\"01.json\", ...]}, the exercise files of the folder";
      return out;
    }
    for (const auto& n : list) names.push_back(n.get<std::string>());
  } else {
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string n = entry.path().filename().string();
      if (entry.is_regular_file() && entry.path().extension() == ".json" && n != "index.json" && n != "schema.json" &&
          n[0] != '.')
        names.push_back(n);
    }
    std::sort(names.begin(), names.end());
  }
  for (const std::string& n : names) {
    std::string text, error;
    if (!read_file_bounded((fs::path(dir) / n).string(), kDocumentLimit, &text, &error)) {
      out.error = error;
      return out;
    }
    out.files.push_back({n, std::move(text)});
  }
  return out;
}

nlohmann::json install_exercise_folder(const std::string& dir) {
  const ExerciseFolder folder = read_exercise_folder(dir);
  if (!folder.error.empty()) return {{"error", {{"code", "not_installed"}, {"message", folder.error}}}};
  nlohmann::json files = nlohmann::json::array();
  for (const ExerciseFile& f : folder.files) files.push_back({{"file", f.file}, {"text", f.text}});
  return evaluate(nlohmann::json{{"op", "exercise.install"}, {"files", files}});
}

}  // namespace commlab
