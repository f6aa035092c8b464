// Code 01: interconnects and the alpha-beta model (P5 §2-3).

#include "demos/demo_table.hpp"
#include "model/gpudirect.hpp"
#include "model/links.hpp"
#include "model/presets.hpp"
#include "base/units.hpp"

namespace commlab {

using namespace units;

namespace {

json links_table() {
  DemoTable t("01-1", "The nine links: effective bandwidth (nominal x 0.8) and assumed alpha");
  t.columns({{"link", ""}, {"nominal per direction", "GB/s"}, {"effective", "GB/s"},
             {"alpha", "us"}, {"n_1/2", "KB"}});
  for (const LinkSpec& s : link_catalogue()) {
    const Link l = effective_link(s);
    t.row({s.label, s.nominal_Bps / GB, l.beta_Bps / GB, l.alpha_s / us, n_half_bytes(l) / kB});
  }
  const Link nv = catalogue_link("nvlink4"), hbm = catalogue_link("hbm3"), ib = catalogue_link("ib_ndr"),
             eth = catalogue_link("ethernet");
  t.check("NVLink 4 effective bandwidth", nv.beta_Bps / GB, "360", "GB/s")
      .check("InfiniBand NDR effective bandwidth", ib.beta_Bps / GB, "40", "GB/s")
      .check("NVLink 4 vs InfiniBand (\"nearly an order of magnitude\")", nv.beta_Bps / ib.beta_Bps, "9", "x")
      .check("NVLink 4 vs Ethernet (\"over two orders of magnitude\")", nv.beta_Bps / eth.beta_Bps, "144", "x")
      .check("HBM3 vs NVLink 4 (\"nearly 10x\")", hbm.beta_Bps / nv.beta_Bps, "about 10", "x", 0.30)
      .assume("Ethernet is taken at 25 Gb/s with alpha 20 us (TCP), NVMe at 7 GB/s with 80 us, "
              "RoCE at 6 us, HBM3 at 1 us: the lecture gives only the NVLink (2 us) and "
              "PCIe / InfiniBand (5 us) alphas.");
  return t.to_json();
}

json alpha_beta_table() {
  DemoTable t("01-2", "Half-bandwidth size and the share of bandwidth a message uses");
  const std::vector<double> sizes = {1 * kB, 16 * kB, 64 * kB, 256 * kB, 1 * MB, 16 * MB, 256 * MB};
  std::vector<std::pair<std::string, std::string>> cols = {{"link", ""}, {"n_1/2", "KB"}};
  for (double n : sizes) cols.push_back({n >= MB ? std::to_string(int(n / MB)) + " MB"
                                                 : std::to_string(int(n / kB)) + " KB", "%"});
  t.columns(cols);
  for (const LinkSpec& s : link_catalogue()) {
    const Link l = effective_link(s);
    std::vector<json> row = {s.label, n_half_bytes(l) / kB};
    for (double n : sizes) row.push_back(100 * bandwidth_fraction(l, n));
    t.row(row);
  }
  const Link nv = catalogue_link("nvlink4"), eth = catalogue_link("ethernet");
  t.check("NVLink 4 n_1/2", n_half_bytes(nv) / kB, "720", "KB")
      .check("256 KB on NVLink 4 (\"about a quarter\")", 100 * bandwidth_fraction(nv, 256 * kB), "about 25", "%", 0.06)
      .check("256 KB on Ethernet", 100 * bandwidth_fraction(eth, 256 * kB), "84", "%")
      .note("Faster links need larger messages to fill: below n_1/2 a message is latency-bound.");
  return t.to_json();
}

json inference_table() {
  DemoTable t("01-3", "Transfers in inference (Llama-3-70B, BF16)");
  const ModelPreset& m = *find_model("llama3_70b");
  const Link nv = catalogue_link("nvlink4"), ib = catalogue_link("ib_ndr"),
             nvme = catalogue_link("nvme"), pcie = catalogue_link("pcie5");
  t.columns({{"transfer", ""}, {"bytes", "MB"}, {"link", ""}, {"time", "ms"}});
  for (int batch : {1, 64}) {
    const double act = batch * m.hidden * m.activation_bytes;
    t.row({"TP decode activation, batch " + std::to_string(batch), act / MB, "NVLink 4",
           transfer_time_s(nv, act) / ms});
  }
  const double kv4k = 4096 * kv_bytes_per_token(m);
  const double one_nic = transfer_time_s(ib, kv4k);
  const double eight_nics = transfer_time_s(ib, kv4k / 8);
  t.row({"KV of a 4K prompt, one NIC", kv4k / MB, "InfiniBand NDR", one_nic / ms});
  t.row({"KV of a 4K prompt, eight NICs", kv4k / MB, "8 x InfiniBand NDR", eight_nics / ms});
  const double from_ssd = transfer_time_s(nvme, m.weight_bytes);
  const double from_host = transfer_time_s(pcie, m.weight_bytes / 8);
  t.row({"cold start from one NVMe SSD", m.weight_bytes / MB, "NVMe", from_ssd / ms});
  t.row({"cold start from CPU memory, 8 PCIe links", m.weight_bytes / MB, "8 x PCIe Gen5", from_host / ms});
  const double act1 = m.hidden * m.activation_bytes, act64 = 64 * act1;
  t.check("TP decode activation, batch 1 (\"tens of KB\")", act1 / kB, "16", "KB", 0.05)
      .check("TP decode activation, batch 64 (\"up to 1 MB\")", act64 / MB, "1", "MB", 0.05)
      .check("KV of a 4K prompt", kv4k / GB, "1.34", "GB")
      .check("one NIC", one_nic / ms, "33.6", "ms")
      .check("eight NICs", eight_nics / ms, "4.2", "ms")
      .check("141 GB from NVMe", from_ssd, "25", "s")
      .check("141 GB over 8 PCIe Gen5 links", from_host, "0.34", "s")
      .assume("The weights are split evenly over 8 PCIe Gen5 x16 links, one per GPU.");
  return t.to_json();
}

json gpudirect_table() {
  DemoTable t("01-4", "1 GB from a GPU to a GPU in another node");
  const GpuDirectPaths g = gpudirect_paths(1 * GB, 64, catalogue_link("pcie5"), catalogue_link("ib_ndr"), true);
  const double staged = g.paths[0].time_s, pipelined = g.paths[1].time_s, gpudirect = g.paths[2].time_s;
  t.columns({{"path", ""}, {"time", "ms"}});
  t.row({"through host memory, not pipelined", staged / ms});
  t.row({"through host memory, 64 chunks pipelined", pipelined / ms});
  t.row({"GPUDirect RDMA", gpudirect / ms});
  t.check("staged, not pipelined", staged / ms, "64", "ms")
      .check("staged, pipelined", pipelined / ms, "25", "ms", 0.05)
      .check("GPUDirect RDMA", gpudirect / ms, "25", "ms")
      .assume("Host staging crosses PCIe Gen5 x16 on both ends; the pipelined path uses 64 chunks.")
      .note("Pipelining through the host also keeps the CPU memory bus busy; GPUDirect does not.");
  return t.to_json();
}

json node_table() {
  DemoTable t("01-5", "Inside a DGX H100 node vs out of it (per direction, nominal)");
  const NodePreset& node = *find_node("dgx_h100");
  const double nvlink = node.gpus * find_link(node.intra_link)->nominal_Bps;
  const double nics = node.nics * find_link(node.nic_link)->nominal_Bps;
  t.columns({{"path", ""}, {"bandwidth", "GB/s"}});
  t.row({"8 GPUs on NVLink 4", nvlink / GB});
  t.row({"8 NICs of 400 Gb/s", nics / GB});
  t.check("NVLink in the node", nvlink / TB, "3.6", "TB/s")
      .check("NICs out of the node", nics / GB, "400", "GB/s")
      .check("ratio", nvlink / nics, "9", "x");
  return t.to_json();
}

}  // namespace

json demo_01() {
  return json::array({links_table(), alpha_beta_table(), inference_table(), gpudirect_table(), node_table()});
}

}  // namespace commlab
