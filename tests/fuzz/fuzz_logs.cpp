// libFuzzer target over the nccl-tests reader and the `fit` op, and NCCL's topology reader and
// the `nccl.topology` op (`./lab fuzz`, "logs"): the input is a log's text. Beyond the
// sanitizers' findings it checks the readers' promises (every row and skipped line inside the
// text, sizes rising within a table after its rows of size 0, times positive, the skipped count
// the sum of the tables' when there is one; channels below MAXCHANNELS, a complete or rebuilt
// ring holding every rank once, tree entries and connections inside their communicator, line
// counts adding up), the API's (answer_checks.hpp) for `fit` and `nccl.topology` with options
// taken from the input, and that parse_request (the long-string path) gives what parse_json
// gives for a request of 64 KB and more around the raw bytes. The same function replays the
// fixtures and tests/fuzz/logs/ in the native suite (replay_main.cpp).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "answer_checks.hpp"
#include "base/request.hpp"
#include "measured/fit.hpp"
#include "measured/nccl_topology.hpp"

namespace {

using commlab_fuzz::fail;
using nlohmann::json;

void check_reader(const std::string& text) {
  const commlab::ParsedLog p = commlab::parse_nccl_log(text);
  int skipped = 0;
  for (const commlab::LogTable& t : p.tables) {
    if (t.rows.empty()) fail("fuzz_logs", "a table without rows", text, "");
    skipped += static_cast<int>(t.skipped.size());
    for (size_t i = 0; i < t.rows.size(); ++i) {
      const commlab::LogRow& r = t.rows[i];
      if (r.line < 1 || r.line > p.lines || r.last_line < r.line || r.last_line > p.lines)
        fail("fuzz_logs", "a row outside the text", text, std::to_string(r.line));
      // Rows of size 0 repeat at a table's small end (all-to-all's first sizes).
      if (i > 0 && !(r.bytes > t.rows[i - 1].bytes || (r.bytes == 0 && t.rows[i - 1].bytes == 0)))
        fail("fuzz_logs", "sizes not rising in a table", text, "");
      for (const commlab::LogGroup* g : {&r.out_of_place, &r.in_place})
        if (!(g->time_us > 0) || !std::isfinite(g->time_us) || !std::isfinite(g->algbw_GBps) || !(g->busbw_GBps >= 0))
          fail("fuzz_logs", "a row with a time not positive or a value not finite", text, "");
    }
    for (const commlab::LogSkip& s : t.skipped) {
      if (s.line < 1 || s.line > p.lines) fail("fuzz_logs", "a skipped line outside the text", text, s.reason);
      if (s.reason.size() > 400) fail("fuzz_logs", "a skip reason over 400 bytes", text, s.reason);
    }
  }
  // Without a table the skipped lines have nowhere to go (fit answers an error then).
  if (!p.tables.empty() && skipped != p.skipped_lines)
    fail("fuzz_logs", "skipped_lines is not the tables' skipped lines", text, "");
}

// A ring that lists ranks 0..n-1 once each.
bool whole(const std::vector<int>& ring, int n) {
  if (static_cast<int>(ring.size()) != n) return false;
  std::vector<bool> seen(ring.size(), false);
  for (int r : ring) {
    if (r < 0 || r >= n || seen[static_cast<size_t>(r)]) return false;
    seen[static_cast<size_t>(r)] = true;
  }
  return true;
}

void check_topology(const std::string& text) {
  const commlab::TopologyLog t = commlab::read_nccl_topology(text);
  if (t.lines != commlab::log_line_count(text)) fail("fuzz_logs", "topology: lines is not the text's", text, "");
  if (t.topology_lines + t.skipped_lines > t.lines || t.rejected_lines > t.skipped_lines ||
      t.rejected.size() > static_cast<size_t>(commlab::kMaxTopologyRejectedShown))
    fail("fuzz_logs", "topology: line counts do not add up", text, "");
  if (t.too_many_communicators) return;
  for (const commlab::TopoComm& c : t.communicators) {
    if (c.ranks < 1 || c.ranks > commlab::kMaxDevices) fail("fuzz_logs", "topology: a rank count out of range", text, "");
    for (const commlab::TopoChannel& ch : c.channels) {
      if (ch.channel < 0 || ch.channel >= commlab::kMaxNcclChannels)
        fail("fuzz_logs", "topology: a channel past MAXCHANNELS", text, "");
      if (ch.complete != whole(ch.ring, c.ranks)) fail("fuzz_logs", "topology: complete is not a whole ring", text, "");
      if (!ch.rebuilt.empty() && (ch.complete || !whole(ch.rebuilt, c.ranks)))
        fail("fuzz_logs", "topology: a rebuilt ring that is not whole", text, "");
    }
    for (const commlab::TopoTree& tr : c.trees)
      if (tr.rank < 0 || tr.rank >= c.ranks || tr.parent >= c.ranks || tr.children.size() > 3)
        fail("fuzz_logs", "topology: a tree entry outside its communicator", text, "");
    for (const commlab::TopoConnection& k : c.connections)
      if (k.from >= c.ranks || k.to >= c.ranks || k.transport.empty() || k.transport.size() > commlab::kMaxTransportChars)
        fail("fuzz_logs", "topology: a connection outside its communicator", text, "");
  }
}

// The topology request's text, options chosen by the input's first byte.
std::string topology_request(const std::string& log, unsigned char choice) {
  json r = {{"op", "nccl.topology"}, {"log", log}};
  if (choice & 1) r["gpu"] = "b200";
  if (choice & 2) r["nic"] = (choice & 4) ? "ethernet" : "roce400";
  if (choice & 8) r["nvlink"] = "pcie5";
  return r.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The request's text, options chosen by the input's first byte.
std::string request_text(const std::string& log, unsigned char choice) {
  json r = {{"op", "fit"}, {"log", log}};
  static const char* const collectives[] = {"all_reduce", "all_gather", "broadcast", "alltoall"};
  if (choice & 1) r["collective"] = collectives[(choice >> 1) & 3];
  if (choice & 8) r["ranks"] = 2 + (choice >> 4);
  if (choice & 0x40) r["link"] = "nvlink4";
  if (choice & 0x80) r["columns"] = "in_place";
  return r.dump(-1, ' ', false, json::error_handler_t::replace);
}

// parse_request and parse_json agree on a request of 64 KB and more: both throw, or the same value.
void check_long_strings(const std::string& raw) {
  const std::string pad(66000, 'x');
  for (const std::string& text : {"{\"op\":\"fit\",\"log\":\"" + raw + pad + "\"}", "{\"log\":\"" + pad + raw + "\",\"op\":1}",
                                  "{\"a\":[\"" + pad + "\"],\"log\":\"" + pad + "\\n" + raw + "\"}"}) {
    json slow, fast;
    bool slow_threw = false, fast_threw = false;
    try {
      slow = commlab::parse_json(text);
    } catch (const std::exception&) {
      slow_threw = true;
    }
    try {
      fast = commlab::parse_request(text);
    } catch (const std::exception&) {
      fast_threw = true;
    }
    if (slow_threw != fast_threw || (!slow_threw && slow != fast))
      fail("fuzz_logs", "parse_request differs from parse_json", raw, slow_threw ? "slow threw" : "fast threw");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_reader(text);
  const unsigned char choice = size ? data[0] : 0;
  for (const std::string& request : {request_text(text, 0), request_text(text, choice)}) {
    const std::string answer = commlab::evaluate(request);
    const json out = commlab_fuzz::checked_answer("fuzz_logs", request, answer);
    if (out.contains("error")) continue;
    if (!out.contains("tables") || out["tables"].empty()) fail("fuzz_logs", "an answer without tables", request, answer);
    for (const json& t : out["tables"])
      if (t["fit"]["rows"].get<int>() < 2 || !(t["fit"]["beta_Bps"].get<double>() > 0))
        fail("fuzz_logs", "a table fitted on fewer than 2 sizes or without a bandwidth", request, answer);
  }
  check_topology(text);
  for (const std::string& request : {topology_request(text, 0), topology_request(text, choice)}) {
    const std::string answer = commlab::evaluate(request);
    const json out = commlab_fuzz::checked_answer("fuzz_logs", request, answer);
    if (out.contains("error")) continue;
    if (!out.contains("communicators") || out["communicators"].empty())
      fail("fuzz_logs", "a topology answer without communicators", request, answer);
    for (const json& c : out["communicators"]) {
      const json& e = c["explanation"];
      if (e.contains("predicted_busbw_Bps") && !(e["predicted_busbw_Bps"].get<double>() > 0))
        fail("fuzz_logs", "a predicted bus bandwidth not above 0", request, answer);
      if (e.contains("verdict") && e["verdict"] != "matches" && e["verdict"] != "below" && e["verdict"] != "above")
        fail("fuzz_logs", "a verdict outside matches, below, above", request, answer);
    }
  }
  // A quarter of the small inputs: the three requests of 66 KB are most of an input's time.
  if (size < 4096 && choice % 4 == 0) check_long_strings(text);
  return 0;
}
