// Replays inputs through the fuzz target's checks without libFuzzer, in the normal native suite:
// each file of a folder is one input (the regression corpus: every finding is kept here), each
// line of an .ndjson file is one input (the golden requests).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
int run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  return 1;
}
std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

int main(int argc, char** argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& entry : std::filesystem::directory_iterator(p))
        if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') inputs += run(slurp(entry.path()));
    } else if (p.extension() == ".ndjson") {
      std::istringstream lines(slurp(p));
      for (std::string line; std::getline(lines, line);) inputs += run(line);
    } else {
      inputs += run(slurp(p));
    }
  }
  std::printf("replayed %d inputs: every answer kept the API's promises\n", inputs);
  return inputs > 0 ? 0 : 1;
}
