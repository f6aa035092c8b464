// Op crossover (P5 §5.3, §5.6): where the cheapest all-reduce algorithm or NCCL pair changes.
// Its own file so that the wasm build compiles it for size: it orchestrates a search whose cost
// formulas (model/collectives, model/nccl) stay on the speed list (CMakeLists.txt).
#include <algorithm>
#include <functional>
#include <string>

#include "api/ops.hpp"
#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/json_writer.hpp"
#include "base/work_meter.hpp"
#include "model/collectives.hpp"
#include "model/link_field.hpp"
#include "model/nccl.hpp"

namespace commlab {

namespace {
// A list field of names: a non-empty array of distinct names from `allowed`, returned in the
// order of `allowed` (the lecture's order, which also breaks ties).
std::vector<std::string> read_name_list(Request& r, const char* field, const std::vector<std::string>& allowed) {
  auto allowed_text = [&] {
    std::string s;
    for (const std::string& a : allowed) s += concat({(s.empty() ? "\"" : ", \""), a, "\""});
    return s;
  };
  const json& list = r.raw(field);
  if (!list.is_array() || list.empty())
    refuse("invalid_type", {"field '", r.path(field), "': value ", show_value(list),
                            " is not allowed; allowed: a non-empty array of distinct names from ", allowed_text()});
  std::vector<bool> seen(allowed.size(), false);
  for (const json& a : list) {
    const auto it = a.is_string() ? std::find(allowed.begin(), allowed.end(), a.get<std::string>()) : allowed.end();
    if (it == allowed.end())
      refuse("unknown_value",
             {"field '", r.path(field), "': unknown value ", show_value(a), "; allowed: ", allowed_text()});
    const size_t i = static_cast<size_t>(it - allowed.begin());
    if (seen[i])
      refuse("invalid_value",
             {"field '", r.path(field), "': value ", show_value(a), " is listed twice; allowed: each name once"});
    seen[i] = true;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < allowed.size(); ++i)
    if (seen[i]) out.push_back(allowed[i]);
  return out;
}

// About 1e8 units is half a second natively (core/README.md "Limits"); a cost formula is ~20 units,
// the double binary tree's shape ~20 a device (0.1 s for 2^20 devices, measured).
constexpr double kCrossoverWorkUnits = 1e8;
constexpr double kUnitsPerFormula = 20;
}  // namespace

// The sizes where the cheapest all-reduce algorithm, or NCCL (algorithm, protocol) pair, changes
// (P5 §5.3, §5.6): bracketed on a grid and bisected on the closed forms, not sampled.
void op_crossover(Request& r, JsonWriter& w) {
  static const std::vector<std::string> kinds = {"allreduce", "nccl"};
  const std::string kind = r.name_or("kind", "allreduce", kinds);
  const int devices = r.integer("devices", 2, kMaxDevices);
  const Link link = read_link(r, "link");
  const double from = r.bytes_or("from_bytes", 1);
  const double to = r.bytes_or("to_bytes", 1e9);
  if (!(to > from * (1 + 1e-6)))
    refuse("invalid_value", {"fields 'from_bytes' and 'to_bytes': values ", format_number(from), " and ",
                             format_number(to), " are not allowed; allowed: 'to_bytes' above 'from_bytes'"});
  const bool has_at = r.has("bytes");
  const double at = has_at ? r.bytes("bytes") : 0;
  if (!has_at) r.mark_read("bytes");

  std::vector<std::string> names;
  std::function<double(int, double)> cost;
  double work = 0;  // units of one evaluation of every candidate
  std::vector<AllreduceAlgorithm> algos;
  std::vector<std::pair<NcclAlgorithm, NcclProtocol>> pairs;
  NcclTransport transport = transport_of(link);
  if (kind == "allreduce") {
    static const std::vector<std::string> flat = allreduce_names(false);
    if (r.has("algorithms")) {
      if (r.has("in_switch_available"))
        refuse("invalid_request",
               {"fields 'algorithms' and 'in_switch_available': give one of them; allowed: "
                "\"in_switch\" listed in 'algorithms', or 'in_switch_available' without 'algorithms'"});
      names = read_name_list(r, "algorithms", flat);
    } else {
      // As the `auto` choice: every flat algorithm, in-switch only where the switch reduces.
      const bool in_switch = r.boolean_or("in_switch_available", false);
      for (const std::string& n : flat)
        if (n != "in_switch" || in_switch) names.push_back(n);
    }
    for (const std::string& n : names) {
      AllreduceAlgorithm a;
      parse_allreduce_algorithm(n, &a);
      algos.push_back(a);
      work += kUnitsPerFormula * allreduce_cost_work(a, devices);
    }
    cost = [&](int i, double bytes) { return allreduce_cost(algos[i], devices, bytes, link).time_s; };
  } else {
    static const std::vector<std::string> transports = {"nvlink", "pci", "net"};
    parse_transport(r.name_or("transport", transport_name(transport), transports), &transport);
    // As the nccl op: every algorithm the link's hardware allows (NVLS, CollNet only where a
    // switch reduces, P5 §5.4, §5.6).
    static const std::vector<std::string> nccl_algos = {"ring", "tree", "nvls", "collnet"};
    std::vector<std::string> allowed;
    for (NcclAlgorithm a : nccl_algorithms_for(link)) allowed.push_back(nccl_algorithm_name(a));
    const std::vector<std::string> chosen =
        r.has("algorithms") ? read_name_list(r, "algorithms", nccl_algos) : allowed;
    if (!r.has("algorithms")) r.mark_read("algorithms");
    std::vector<NcclAlgorithm> list;
    for (const std::string& n : chosen) {
      NcclAlgorithm a;
      parse_nccl_algorithm(n, &a);  // read_name_list took only these names
      if (!nccl_algorithm_allowed(a, link))
        refuse("invalid_request", {"field 'algorithms': \"", n, "\" needs ", nccl_algorithm_needs(a), "; link '", link.id,
                                   "' has none; allowed here: ", nccl_algorithms_text(link)});
      list.push_back(a);
    }
    pairs = nccl_pairs(list);
    for (const auto& pr : pairs) names.push_back(nccl_pair_name(pr.first, pr.second));
    work = kUnitsPerFormula * static_cast<double>(pairs.size());
    cost = [&](int i, double bytes) {
      return nccl_allreduce_estimate(pairs[i].first, pairs[i].second, devices, bytes, link, transport).time_s;
    };
  }
  r.finish();

  // The work budget, checked before running (core/README.md "Limits").
  const int n = static_cast<int>(names.size());
  const double evaluations = static_cast<double>(cheapest_changes_evaluations(n, from, to));
  const double units = evaluations * work + (kind == "allreduce" ? 20.0 * devices : 0);
  if (units > kCrossoverWorkUnits)
    refuse("too_large", {"field 'devices': value ", std::to_string(devices), " makes the crossover search take about ",
                         format_number(units), " units of work; the limit is ", format_number(kCrossoverWorkUnits),
                         ": narrow 'from_bytes'..'to_bytes' or leave \"double_binary_tree\" out of 'algorithms'"});
  charge_work(units);

  const CheapestMap map = cheapest_changes(n, cost, from, to);
  w.objects("boundaries", map.changes, [&](const CheapestChange& c) {
    w.member("bytes", c.bytes).member("from", names[c.from]).member("time_s", cost(c.from, c.bytes));
    w.member("to", names[c.to]);
  });
  w.key("candidates");
  w.begin_array();
  for (const std::string& name : names) w.value(name);
  w.end_array();
  if (has_at) {
    // The cheapest at the asked size, as `allreduce`/`nccl` and exercise 3 compare them.
    int best = 0;
    for (int i = 1; i < n; ++i)
      if (cost(i, at) < cost(best, at)) best = i;
    w.key("cheapest");
    w.begin_object();
    w.member("bytes", at).member("name", names[best]).member("time_s", cost(best, at));
    w.end_object();
  }
  w.member("devices", devices).member("from_bytes", from).member("kind", kind);
  write_link(w, "link", link);
  w.member("rel_tolerance", 1e-9).member("to_bytes", to);
  if (kind == "nccl") w.member("transport", transport_name(transport));
  w.objects("winners", map.bands, [&](const CheapestBand& b) {
    w.member("from_bytes", b.from_bytes).member("name", names[b.winner]).member("to_bytes", b.to_bytes);
  });
}

}  // namespace commlab
