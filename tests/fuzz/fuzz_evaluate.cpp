// libFuzzer target over the request API (`./lab fuzz`): any bytes as a request. Beyond the
// sanitizers' own findings it checks the API's promises (answer_checks.hpp): the answer is a
// JSON object, an error carries a documented code and a short message, and no number comes back
// as null. The same function replays the seed and regression inputs in the normal native suite
// (replay_main.cpp).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "answer_checks.hpp"
#include "exercise_folder.hpp"

namespace {

// The source tree's exercises, installed before the first input (none is compiled in), and
// again after an input that may have replaced them, so every input meets the same eight.
void install_source_exercises() {
  const nlohmann::json installed = commlab::install_exercise_folder(COMMLAB_SOURCE_DIR "/exercises");
  if (installed.contains("error") || !installed.at("problems").empty()) {
    std::fprintf(stderr, "fuzz_evaluate: the exercises do not install: %.300s\n", installed.dump().c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  install_source_exercises();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using commlab_fuzz::fail;
  const std::string request(reinterpret_cast<const char*>(data), size);
  const std::string answer = commlab::evaluate(request);
  if (request.find("exercise.install") != std::string::npos) install_source_exercises();
  const nlohmann::json out = commlab_fuzz::checked_answer("fuzz_evaluate", request, answer);
  if (out.contains("error")) return 0;
  // null is documented only where no value exists (README "Errors"): simulate's closed_form
  // and verified in accounting mode, ring_attention's causal layouts that do not apply.
  std::vector<std::pair<const nlohmann::json*, std::string>> stack = {{&out, ""}};
  while (!stack.empty()) {
    const auto [v, key] = stack.back();
    stack.pop_back();
    if (v->is_null() && key != "closed_form" && key != "verified" && key != "contiguous" && key != "zigzag")
      fail("fuzz_evaluate", "a null in an answer", request, answer);
    if (v->is_object())
      for (auto it = v->begin(); it != v->end(); ++it) stack.push_back({&it.value(), it.key()});
    if (v->is_array())
      for (const auto& x : *v) stack.push_back({&x, key});
  }
  return 0;
}
