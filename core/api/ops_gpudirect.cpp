// Op gpudirect: one message between GPUs of two nodes by the three paths of P5 §2.4.
#include "api/ops.hpp"
#include "base/json_writer.hpp"
#include "model/gpudirect.hpp"
#include "model/link_field.hpp"

namespace commlab {

void op_gpudirect(Request& r, JsonWriter& w) {
  const double bytes = r.bytes_or("bytes", 1e9);  // code 01 demo 4 sends 1 GB
  const int chunks = r.integer_or("chunks", 64, 1, 1 << 20);
  const Link host = read_link_or(r, "host_link", "pcie5");
  const Link net = read_link_or(r, "link", "ib_ndr");
  const bool same_switch = r.boolean_or("same_pcie_switch", true);
  r.finish();
  const GpuDirectPaths g = gpudirect_paths(bytes, chunks, host, net, same_switch);
  w.objects("paths", g.paths, [&](const TransferPath& p) {
    w.member("id", p.id).member("chunks", p.chunks).member("time_s", p.time_s).member("host_copies", p.host_copies)
        .member("host_memory_bytes", p.host_memory_bytes).member("paced_by", p.paced_by);
    w.objects("stages", p.stages, [&](const PathStage& s) {
      w.member("stage", s.stage).member("link", s.link).member("start_s", s.start_s).member("end_s", s.end_s)
          .member("busy_s", s.busy_s).member("chunk_time_s", s.chunk_time_s);
    });
  });
  w.member("bytes", g.bytes).member("chunks", chunks).member("same_pcie_switch", same_switch)
      .member("fastest", g.fastest).member("nccl_path", g.nccl_path)
      .member("staged_over_gpudirect", g.staged_over_gpudirect)
      .member("pipelined_case", g.pipelined_case).member("pipelined_over_gpudirect", g.pipelined_over_gpudirect);
  write_link(w, "host_link", host);
  write_link(w, "link", net);
}

}  // namespace commlab
