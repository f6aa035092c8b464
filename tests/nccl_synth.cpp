// Writes the synthetic nccl-tests logs (tests/nccl_synth.hpp):
//   nccl_synth fixtures DIR   every synthetic fixture of tests/fixtures/nccl/ into DIR
//   nccl_synth bench          the benchmark's 4 MB log on stdout (tests/node/bench_wasm.mjs reads it)
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "nccl_synth.hpp"

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "bench") {
    std::cout << commlab_test::synth_bench_log().text;
    return 0;
  }
  if (cmd == "fixtures" && argc > 2) {
    for (const commlab_test::SynthFixture& f : commlab_test::synth_fixtures()) {
      const std::string path = std::string(argv[2]) + "/" + f.file;
      std::ofstream out(path, std::ios::binary);
      out << commlab_test::synth_fixture_log(f).text;
      if (!out) {
        std::cerr << "nccl_synth: cannot write " << path << "\n";
        return 1;
      }
      std::cout << path << ": " << f.what << "\n";
    }
    return 0;
  }
  std::cerr << "usage: nccl_synth fixtures DIR | nccl_synth bench\n";
  return 2;
}
