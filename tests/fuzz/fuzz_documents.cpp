// libFuzzer target over exercise documents (`./lab fuzz`; exercises/README.md "Exercise documents are untrusted
// input"): the input is a document's text. It reaches the engine only by requests through
// commlab::evaluate, as the page and the CLI send them: exercise.lint of the text, exercise.load,
// then exercise.get, exercise.solve at the defaults, exercise.variant, exercise.solve at the
// variant's params and exercise.check of the loaded id. Beyond the sanitizers and the API's
// promises (answer_checks.hpp) it holds lint to its promise (exercises/README.md "Lint"): lint's
// lines are short, and a document lint calls ok loads under its id, solves at the defaults,
// draws a variant that solves, and its own displayed answers at that variant are judged correct.
// The work budget (core/base/work_meter.hpp) is held by libFuzzer's -timeout (./lab), not by a
// clock here. The structure-aware mutator is fuzz_documents_mutator.cpp; replay_main.cpp replays
// tests/fuzz/documents/ and the shipped documents through this function in the native suite.
#include <cstdint>
#include <string>

#include "answer_checks.hpp"
#include "exercise_folder.hpp"

namespace {

using commlab_fuzz::json;
const char* const kTarget = "fuzz_documents";

struct Asked {
  std::string request, answer;
  json out;
  bool ok() const { return !out.contains("error"); }
};

Asked ask(const json& request) {
  Asked a;
  a.request = request.dump(-1, ' ', false, json::error_handler_t::replace);
  a.answer = commlab::evaluate(a.request);
  a.out = commlab_fuzz::checked_answer(kTarget, a.request, a.answer);
  return a;
}

[[noreturn]] void broken(const std::string& what, const Asked& a) { commlab_fuzz::fail(kTarget, what, a.request, a.answer); }

// A lint line: "path: what is wrong; what is allowed", at most 300 characters.
void check_lint(const Asked& lint) {
  if (!lint.ok()) broken("exercise.lint refused a text", lint);
  const json& ok = lint.out.value("ok", json());
  const json& problems = lint.out.value("problems", json());
  if (!ok.is_boolean() || !problems.is_array()) broken("exercise.lint without ok and problems", lint);
  if (ok.get<bool>() != problems.empty()) broken("exercise.lint's ok disagrees with its problems", lint);
  for (const json& p : problems) {
    if (!p.is_string() || p.get_ref<const std::string&>().empty()) broken("a lint problem that is not a text", lint);
    if (commlab_fuzz::characters(p.get<std::string>()) > 300) broken("a lint problem over 300 characters", lint);
  }
}

// Every answer a number or a choice (a text): a null would be a NaN or an infinity written out.
void check_solution(const Asked& solve, bool promised) {
  if (!solve.ok()) {
    if (promised) broken("a document lint calls ok does not solve", solve);
    return;
  }
  const json& answers = solve.out.value("answers", json());
  const json& display = solve.out.value("display", json());
  if (!answers.is_object() || !display.is_object() || !solve.out.value("params", json()).is_object())
    broken("a solution without params, answers and display", solve);
  // display: one text per declared answer (a solver reused by "solver": N may give more answers).
  for (auto it = display.begin(); it != display.end(); ++it) {
    if (!it.value().is_string()) broken("a displayed answer that is not a text", solve);
    const json& v = answers.value(it.key(), json());
    if (!v.is_number() && !v.is_string()) broken("an answer neither a number nor a choice", solve);
  }
}

// Deterministic choices from the input itself (FNV-1a), so a finding replays alike.
std::uint64_t hash_of(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

}  // namespace

// The mutator's own set-up (its pool of documents and ops), linked in the libFuzzer build only.
extern "C" __attribute__((weak)) int commlab_documents_mutator_init(int*, char***);

// The source tree's exercises installed first (none is compiled in), as every host does: a
// mutant meets the lecture's eight as a student's page would.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  if (commlab_documents_mutator_init) commlab_documents_mutator_init(argc, argv);
  const nlohmann::json installed = commlab::install_exercise_folder(COMMLAB_SOURCE_DIR "/exercises");
  if (installed.contains("error") || !installed.at("problems").empty()) {
    std::fprintf(stderr, "fuzz_documents: the exercises do not install: %.300s\n", installed.dump().c_str());
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The text as the engine receives it in a request: bytes that are not UTF-8 replaced (U+FFFD),
  // as a page sends it (a JavaScript string cannot hold them).
  const std::string text =
      json::parse(json(std::string(reinterpret_cast<const char*>(data), size)).dump(-1, ' ', false, json::error_handler_t::replace))
          .get<std::string>();
  const std::uint64_t h = hash_of(text);
  // A file name no built-in has: a built-in's number is a lint problem here, as exercise.load
  // refuses it.
  const Asked lint = ask({{"op", "exercise.lint"}, {"file", "fuzz.json"}, {"text", text}});
  check_lint(lint);
  const bool promised = lint.out.at("ok").get<bool>();

  const Asked load = ask({{"op", "exercise.load"}, {"file", "fuzz.json"}, {"text", text}});
  if (!load.ok()) {
    if (promised) broken("a document lint calls ok is refused by exercise.load", load);
    return 0;
  }
  const json id = load.out.value("id", json());
  if (!id.is_number_integer() || id.get<int>() < 1 || id.get<int>() > 999) broken("exercise.load gave no id", load);
  if (promised) {
    const json doc = json::parse(text, nullptr, false);
    if (!doc.is_object() || doc.value("id", json()) != id) broken("exercise.load gave another id than the document's", load);
  }

  const Asked get = ask({{"op", "exercise.get"}, {"id", id}});
  if (promised && !get.ok()) broken("exercise.get refuses a document lint calls ok", get);

  const Asked defaults = ask({{"op", "exercise.solve"}, {"id", id}});
  check_solution(defaults, promised);

  // Seeds from the input: lint's own (1-50) half the time, any other the rest (a student's).
  const std::uint64_t seed = (h & 1) ? 1 + (h >> 1) % 50 : (h >> 1) % 9007199254740992ULL;
  const Asked variant = ask({{"op", "exercise.variant"}, {"id", id}, {"seed", seed}});
  if (!variant.ok()) {
    if (promised) broken("a document lint calls ok draws no variant", variant);
    return 0;
  }
  const json params = variant.out.value("params", json());
  if (!params.is_object()) broken("exercise.variant without params", variant);
  const Asked solved = ask({{"op", "exercise.solve"}, {"id", id}, {"params", params}});
  check_solution(solved, promised);
  if (!solved.ok()) return 0;

  // The variant's own displayed answers, typed back: judged correct when the draw is fresh
  // (variant_params keeps a draw only then; the defaults may be a fallback, not checked).
  const json& display = solved.out.at("display");
  const Asked check = ask({{"op", "exercise.check"}, {"id", id}, {"params", params}, {"answers", display}});
  if (promised && !check.ok()) broken("exercise.check refuses the variant's own answers", check);
  if (promised && defaults.ok() && params != defaults.out.at("params") && check.out.value("all_correct", false) != true)
    broken("a fresh variant's own displayed answers are not all judged correct", check);

  // And answers typed as students mistype them: any text is a verdict or a documented error.
  static const char* const kTyped[] = {"0", "-1", "1e300", "abc", "", "1,5", "６４ KB", "2-3x", "NaN", "10 %"};
  json typed = json::object();
  for (auto it = display.begin(); it != display.end(); ++it) {
    const std::uint64_t k = hash_of(it.key()) ^ h;
    typed[it.key()] = k % 11 == 10 ? it.value().get<std::string>() + "0" : kTyped[k % 10];
  }
  ask({{"op", "exercise.check"}, {"id", id}, {"params", params}, {"answers", typed}});
  return 0;
}
