// Writes the synthetic logs (tests/nccl_synth.hpp, tests/nccl_synth_topology.hpp):
//   nccl_synth fixtures DIR   every synthetic fixture of tests/fixtures/nccl/ into DIR
//   nccl_synth bench          the benchmark's 4 MB log on stdout (tests/node/bench_wasm.mjs reads it)
//   nccl_synth topology [--ranks N] [--nodes N] [--channels N] [--format F] [--launcher L]
//                       [--nics N] [--net IB|Socket] [--shm] [--nvls] [--busbw GB/s] [--grouped]
//                       [--no-graph] [--no-connections] [--no-noise]
//                             an NCCL_DEBUG=INFO log of that structure on stdout (the page's tests,
//                             nccl.topology's), an nccl-tests table after it with --busbw
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "nccl_synth.hpp"
#include "nccl_synth_topology.hpp"

namespace {

const char* kUsage =
    "usage: nccl_synth fixtures DIR | nccl_synth bench |\n"
    "       nccl_synth topology [--ranks N] [--nodes N] [--channels N] [--format 2.23|2.19|2.12|2.7|2.4|2.3]\n"
    "                           [--launcher openmpi|intelmpi|srun] [--nics N] [--net IB|Socket] [--shm] [--nvls]\n"
    "                           [--busbw GB/s] [--grouped] [--no-graph] [--no-connections] [--no-noise]\n";

bool whole(const char* s, int lo, int hi, int* out) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (!end || *end || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

int topology(int argc, char** argv) {
  commlab_test::TopoSynthRun run;
  commlab_test::TopoSynthComm& c = run.comms[0];
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    bool ok = true;
    if (a == "--ranks" && v) ok = whole(argv[++i], 1, 4096, &c.ranks);
    else if (a == "--nodes" && v) ok = whole(argv[++i], 1, 4096, &c.nodes);
    else if (a == "--channels" && v) ok = whole(argv[++i], 1, 64, &c.channels);
    else if (a == "--nics" && v) ok = whole(argv[++i], 0, 64, &c.nics);
    else if (a == "--format" && v) {
      run.format = argv[++i];
      ok = run.format == "2.23" || run.format == "2.19" || run.format == "2.12" || run.format == "2.7" ||
           run.format == "2.4" || run.format == "2.3";
    } else if (a == "--launcher" && v) {
      run.launcher = argv[++i];
      ok = run.launcher == "openmpi" || run.launcher == "intelmpi" || run.launcher == "srun";
    } else if (a == "--net" && v) {
      c.net = argv[++i];
      ok = c.net == "IB" || c.net == "Socket";
    } else if (a == "--busbw" && v) {
      char* end = nullptr;
      run.table_busbw_Bps = std::strtod(argv[++i], &end) * 1e9;
      ok = end && !*end && run.table_busbw_Bps > 0 && run.table_busbw_Bps < 1e13;
    } else if (a == "--shm") c.shm = true;
    else if (a == "--nvls") run.nvls = true;
    else if (a == "--grouped") run.interleave = false;
    else if (a == "--no-graph") run.prev_next = false;
    else if (a == "--no-connections") run.connections = false;
    else if (a == "--no-noise") run.noise = false;
    else ok = false;
    if (!ok) {
      std::cerr << "nccl_synth topology: bad argument '" << a << (v && a.rfind("--", 0) == 0 ? std::string(" ") + v : "")
                << "'\n" << kUsage;
      return 2;
    }
  }
  if (c.ranks % c.nodes != 0) {
    std::cerr << "nccl_synth topology: --ranks " << c.ranks << " is not a multiple of --nodes " << c.nodes << "\n";
    return 2;
  }
  std::cout << commlab_test::topo_synth_log(run);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "bench") {
    std::cout << commlab_test::synth_bench_log().text;
    return 0;
  }
  if (cmd == "topology") return topology(argc, argv);
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
  std::cerr << kUsage;
  return 2;
}
