// Op gpudirect: one message between GPUs of two nodes by the three paths of P5 §2.4.
#include "api/ops.hpp"
#include "model/gpudirect.hpp"
#include "model/link_field.hpp"

namespace commlab {

json op_gpudirect(Request& r) {
  const double bytes = r.bytes_or("bytes", 1e9);  // code 01 demo 4 sends 1 GB
  const int chunks = r.integer_or("chunks", 64, 1, 1 << 20);
  const Link host = read_link_or(r, "host_link", "pcie5");
  const Link net = read_link_or(r, "link", "ib_ndr");
  const bool same_switch = r.boolean_or("same_pcie_switch", true);
  r.finish();
  const GpuDirectPaths g = gpudirect_paths(bytes, chunks, host, net, same_switch);
  json paths = json::array();
  for (const TransferPath& p : g.paths) {
    json stages = json::array();
    for (const PathStage& s : p.stages)
      stages.push_back({{"stage", s.stage}, {"link", s.link}, {"start_s", s.start_s}, {"end_s", s.end_s},
                        {"busy_s", s.busy_s}, {"chunk_time_s", s.chunk_time_s}});
    paths.push_back({{"id", p.id}, {"chunks", p.chunks}, {"time_s", p.time_s}, {"host_copies", p.host_copies},
                     {"host_memory_bytes", p.host_memory_bytes}, {"paced_by", p.paced_by}, {"stages", stages}});
  }
  auto link_json = [](const Link& l) { return json{{"id", l.id}, {"alpha_s", l.alpha_s}, {"beta_Bps", l.beta_Bps}}; };
  return {{"bytes", g.bytes},
          {"chunks", chunks},
          {"host_link", link_json(host)},
          {"link", link_json(net)},
          {"same_pcie_switch", same_switch},
          {"paths", paths},
          {"fastest", g.fastest},
          {"nccl_path", g.nccl_path},
          {"staged_over_gpudirect", g.staged_over_gpudirect},
          {"pipelined_over_gpudirect", g.pipelined_over_gpudirect}};
}

}  // namespace commlab
