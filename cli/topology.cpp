// commlab topology: what NCCL built, as its INFO lines say (the nccl.topology op), a few lines a
// communicator: ranks and hosts, channels and transports, the hops that cross nodes, the bound the
// lecture's model puts on the bus bandwidth and the nccl-tests measurement beside it.
#include "topology.hpp"

#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "bounded_read.hpp"

using nlohmann::json;

namespace commlab {

namespace {

constexpr ReadLimit kNcclLogLimit{static_cast<std::size_t>(kMaxLogBytes), "an NCCL log"};

std::string gbps(double Bps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g GB/s", Bps / 1e9);
  return buf;
}

// "0-7, 9, 12-15".
std::string ranges(const json& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1].get<long long>() == ranks[j].get<long long>() + 1) ++j;
    s += (s.empty() ? "" : ", ") + std::to_string(ranks[i].get<long long>()) +
         (j > i ? "-" + std::to_string(ranks[j].get<long long>()) : "");
    i = j + 1;
  }
  return s;
}

// "NET/IB/3/GDRDMA" -> "NET/IB/<n>/GDRDMA": one entry for every NIC.
std::string transport_kind(std::string t) {
  if (t.rfind("NET/", 0) != 0) return t;
  const size_t a = t.find('/', 4);
  size_t b = a == std::string::npos ? a : a + 1;
  while (b != std::string::npos && b < t.size() && t[b] >= '0' && t[b] <= '9') ++b;
  return a == std::string::npos || b == a + 1 ? t : t.substr(0, a + 1) + "<n>" + t.substr(b);
}

std::string ring_text(const json& ring, size_t limit) {
  std::string s;
  for (size_t i = 0; i < ring.size() && i < limit; ++i) s += " " + std::to_string(ring[i].get<long long>());
  if (ring.size() > limit) s += " ... (" + std::to_string(ring.size()) + " ranks)";
  return s;
}

void print_comm(const json& c, size_t index, bool all_rings) {
  std::cout << "communicator " << index + 1;
  if (c.contains("comm_id")) std::cout << " (commId " << c["comm_id"].get<std::string>() << ")";
  std::cout << ": " << c["ranks"] << " ranks";
  if (!c["nodes"].empty()) {
    std::cout << " on " << c["nodes"].size() << (c["nodes"].size() == 1 ? " node (" : " nodes (");
    for (size_t i = 0; i < c["nodes"].size() && i < 6; ++i)
      std::cout << (i ? ", " : "") << c["nodes"][i]["host"].get<std::string>() << ": " << ranges(c["nodes"][i]["ranks"]);
    std::cout << (c["nodes"].size() > 6 ? ", ...)" : ")");
  } else {
    std::cout << " (no host printed)";
  }
  if (c["ranks_from"] != "nRanks") std::cout << " [rank count: " << c["ranks_from"].get<std::string>() << "]";
  if (c.contains("version")) std::cout << ", NCCL " << c["version"].get<std::string>();
  std::cout << "\n";
  int complete = 0, rebuilt = 0;
  for (const json& ch : c["channels"]) {
    complete += ch["complete"].get<bool>();
    rebuilt += ch.contains("rebuilt_ring");
  }
  std::map<std::string, int> kinds;
  for (const json& k : c["connections"]) ++kinds[transport_kind(k["transport"])];
  std::cout << "  " << c["channels"].size() << " channels, " << complete << " complete rings";
  if (rebuilt) std::cout << " (" << rebuilt << " more rebuilt from every rank's Ring lines)";
  std::cout << "; " << c["trees"].size() << " tree entries; " << c["connections"].size() << " connections";
  size_t shown = 0;
  for (const auto& [kind, n] : kinds)
    if (shown++ < 5) std::cout << (shown == 1 ? ": " : ", ") << kind << " " << n;
  std::cout << "\n";
  for (size_t i = 0; i < c["channels"].size() && (all_rings || i < 2); ++i) {
    const json& ch = c["channels"][i];
    char name[16];
    std::snprintf(name, sizeof name, "%02d", ch["channel"].get<int>());
    std::cout << "  ring " << name << ":" << ring_text(ch.contains("rebuilt_ring") ? ch["rebuilt_ring"] : ch["ring"], all_rings ? 1u << 20 : 24)
              << (ch["complete"].get<bool>() || ch.contains("rebuilt_ring") ? "" : " (cut by NCCL)") << "\n";
  }
  const json& e = c["explanation"];
  if (!e["channels"].empty()) {
    const json& h = e["channels"][0];
    std::cout << "  hops a ring: " << h["hops"] << ", " << h["cross_node_hops"] << " cross nodes (network "
              << h["by_class"]["network"] << ", nvlink " << h["by_class"]["nvlink"] << ", shm " << h["by_class"]["shm"]
              << (h["by_class"]["unknown"].get<int>() ? ", unknown " + h["by_class"]["unknown"].dump() : "") << ")"
              << (e["channels"].size() > 1 ? " in ring " + h["channel"].dump() + " of " + std::to_string(e["channels"].size()) : "")
              << "\n";
  }
  if (e.contains("predicted_busbw_Bps")) {
    std::cout << "  bottleneck " << e["bottleneck"].get<std::string>() << ":";
    for (size_t i = 0; i < e["bounds"].size(); ++i) {
      const json& b = e["bounds"][i];
      char parallel[32];
      std::snprintf(parallel, sizeof parallel, "%.3g", b["links_in_parallel"].get<double>());
      std::cout << (i ? ";" : "") << " " << b["kind"].get<std::string>() << " " << b["link"].get<std::string>() << " "
                << gbps(b["beta_Bps"]) << " x " << parallel << " = " << gbps(b["busbw_Bps"]);
    }
    std::cout << "\n  predicted " << gbps(e["predicted_busbw_Bps"]) << " bus bandwidth";
    if (e.contains("measured")) {
      char dev[32];
      std::snprintf(dev, sizeof dev, "%+.1f%%", e["deviation_percent"].get<double>());
      std::cout << "; measured " << gbps(e["measured"]["busbw_Bps"]) << " (table " << e["measured"]["table"] << "): "
                << e["verdict"].get<std::string>() << " (" << dev << ")";
    }
    std::cout << "\n";
  }
  std::cout << "  " << e["sentence"].get<std::string>() << "\n";
  for (const json& a : e["assumptions"]) std::cout << "  assumed: " << a.get<std::string>() << "\n";
  for (const json& n : c["notes"]) std::cout << "  note: " << n.get<std::string>() << "\n";
}

}  // namespace

int topology_files(int argc, char** argv, int first) {
  json base = {{"op", "nccl.topology"}};
  bool as_json = false, all_rings = false;
  std::vector<std::string> files;
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if ((a == "--gpu" || a == "--nvlink" || a == "--nic") && has_value) base[a.substr(2)] = argv[++i];
    else if (a == "--json") as_json = true;
    else if (a == "--rings") all_rings = true;
    else if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::cerr << "commlab topology: unknown option '" << a << "' (or it needs a value); allowed: --gpu ID, --nvlink ID, "
                   "--nic ID, --rings, --json\n";
      return 2;
    } else files.push_back(a);
  }
  if (files.empty()) {
    std::cerr << "commlab topology: give one or more logs of a run with NCCL_DEBUG=INFO (- reads stdin)\n";
    return 2;
  }
  int bad = 0;
  for (const std::string& file : files) {
    std::string text, error;
    const bool read = file == "-" ? read_bounded(std::cin, "stdin", kNcclLogLimit, &text, &error)
                                  : read_file_bounded(file, kNcclLogLimit, &text, &error);
    const std::string name = file == "-" ? "stdin" : file;
    if (!read) {
      std::cerr << error << "\n";
      ++bad;
      continue;
    }
    json request = base;
    request["log"] = std::move(text);
    const json out = evaluate(request);
    if (out.contains("error")) {
      std::string m = out["error"]["message"];
      for (const char* field : {"gpu", "nvlink", "nic"}) {  // a value given as a flag reads "--nic: ..."
        const std::string said = std::string("field '") + field + "'";
        if (base.contains(field) && m.find(said) != std::string::npos) m.replace(m.find(said), said.size(), std::string("--") + field);
      }
      std::cerr << name << ": " << m << "\n";
      ++bad;
      continue;
    }
    if (as_json) {
      std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
      continue;
    }
    const json& comms = out["communicators"];
    std::cout << name << ": " << out["lines"] << " lines, " << comms.size()
              << (comms.size() == 1 ? " communicator, " : " communicators, ") << out["skipped_lines"] << " skipped";
    if (out["rejected_lines"].get<int>()) {
      std::cout << " (" << out["rejected_lines"] << " refused; first: line " << out["rejected"][0]["line"] << ": "
                << out["rejected"][0]["reason"].get<std::string>() << ")";
    }
    std::cout << "\n";
    for (const json& s : out["in_switch"])
      std::cout << "line " << s["line"] << " (" << s["says"].get<std::string>() << "): " << s["text"].get<std::string>() << "\n";
    for (size_t i = 0; i < comms.size(); ++i) print_comm(comms[i], i, all_rings);
  }
  return bad ? 1 : 0;
}

}  // namespace commlab
