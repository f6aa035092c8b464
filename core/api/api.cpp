#include "api/api.hpp"

#include <cmath>
#include <exception>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/json_writer.hpp"
#include "api/ops.hpp"
#include "exercises/declared.hpp"

namespace commlab {

namespace {
json ops_list(Request& r);

// The lean module (wasm/CMakeLists.txt: commlab_lean, the exercise page's engine) is built with
// COMMLAB_LEAN and leaves out the ops that only the section views, the measured view and the
// authoring view ask: their code never reaches its .wasm. The page's worker moves to the full
// module the first time it is asked one of them (web/engine/worker.js).
#ifdef COMMLAB_LEAN
#define COMMLAB_FULL_ONLY(...)
#else
#define COMMLAB_FULL_ONLY(...) __VA_ARGS__,
#endif
// The lean module's `ops` lists its ops without their summaries: only the worker asks it, for
// the names (web/engine/worker.js); a page asking `ops` gets the full module's answer.
#ifdef COMMLAB_LEAN
#define COMMLAB_SUMMARY(text) ""
#else
#define COMMLAB_SUMMARY(text) text
#endif

// Every op: the built-in ones, then those a higher layer adds (the native CLI's demo tables).
std::vector<OpInfo>& ops() {
  static std::vector<OpInfo> table = {
      {"ops", ops_list, COMMLAB_SUMMARY("this list")},
      {"links", nullptr, COMMLAB_SUMMARY("the link catalogue of P5 §2.1 (nominal and effective bandwidth, alpha)"), op_links},
      COMMLAB_FULL_ONLY({"ladder", nullptr, COMMLAB_SUMMARY("the bandwidth ladder of P5 §2.1: each level's links, pairs compared (faster, by how much), a node inside vs outside (§2.3)"), op_ladder})
      COMMLAB_FULL_ONLY({"gpudirect", nullptr, COMMLAB_SUMMARY("a message between GPUs of two nodes: through host memory, chunked through it, or GPUDirect RDMA (§2.4)"), op_gpudirect})
      {"transfer", nullptr, COMMLAB_SUMMARY("one message on one link: alpha-beta time, n_1/2, bandwidth fraction (§3)"), op_transfer},
      {"allreduce", nullptr, COMMLAB_SUMMARY("all-reduce by algorithm, including hierarchical and auto (§5)"), op_allreduce},
      {"collective", nullptr, COMMLAB_SUMMARY("cost of any of the six collectives or send/recv (§4)"), op_collective},
      {"nccl", nullptr, COMMLAB_SUMMARY("NCCL protocols LL / LL128 / Simple and its (algorithm, protocol) choice (§5.6)"), op_nccl},
      COMMLAB_FULL_ONLY({"nccl.protocols", nullptr, COMMLAB_SUMMARY("what NCCL's protocols are: latencies, the unit carrying a flag, the payload share of the bandwidth (§5.6)"), op_nccl_protocols})
      {"crossover", nullptr, COMMLAB_SUMMARY("exact sizes where the cheapest all-reduce algorithm or NCCL pair changes (§5.3, §5.6)"), op_crossover},
      {"simulate", nullptr, COMMLAB_SUMMARY("the collective-step engine: explicit schedule run on buffers, verified, timed (§4-5)"), op_simulate},
      {"presets", nullptr, COMMLAB_SUMMARY("models, GPUs and nodes; any field can be overridden in a request (§1-2)"), op_presets},
      {"tp", nullptr, COMMLAB_SUMMARY("tensor / sequence parallel all-reduces of a decode step or a prefill (§6.2)"), op_tp},
      // P5 §1, §6.1: the memory view's op.
      COMMLAB_FULL_ONLY({"memory", nullptr, COMMLAB_SUMMARY("fits or not: weights and KV per GPU vs its memory, GPUs needed, KV room, batch-1 decode lower bound on 1 and n GPUs, replicas (§1, §6.1)"), op_memory})
      COMMLAB_FULL_ONLY({"sharding_check", nullptr, COMMLAB_SUMMARY("Megatron MLP / attention split run on random matrices vs one device (§6.2)"), op_sharding_check})
      {"pipeline", nullptr, COMMLAB_SUMMARY("pipeline decode simulator: token interval, utilisation, timeline (§6.3)"), op_pipeline},
      COMMLAB_FULL_ONLY({"moe", nullptr, COMMLAB_SUMMARY("expert parallel dispatch / combine bytes and time, with a hot expert (§6.4)"), op_moe})
      COMMLAB_FULL_ONLY({"parallelisms", nullptr, COMMLAB_SUMMARY("the comparison table of §6.6: each parallelism's traffic a step, pattern, time on the node's NVLink and NIC, where it belongs"), op_parallelisms})
      {"ring_attention", nullptr, COMMLAB_SUMMARY("ring attention: KV-hiding threshold, causal imbalance, zig-zag (§6.5)"), op_ring_attention},
      COMMLAB_FULL_ONLY({"ring_attention_check", nullptr, COMMLAB_SUMMARY("ring attention with online softmax run vs one device (§6.5)"), op_ring_attention_check})
      {"overlap", nullptr, COMMLAB_SUMMARY("chunked / TP prefill / two-batch overlap as compute and comm timelines (§7)"), op_overlap},
      COMMLAB_FULL_ONLY({"fit", nullptr, COMMLAB_SUMMARY("nccl-tests logs read and fitted to the ring model: alpha, bus bandwidth, residuals, collapses, nearest link (§0.5, §5.1)"), op_fit})
      COMMLAB_FULL_ONLY({"nccl.topology", nullptr, COMMLAB_SUMMARY("NCCL's own INFO lines read: each communicator's rings, trees, transports and hosts, the hops that cross nodes, the link that bounds the rings and the bus bandwidth it predicts, beside nccl-tests' (§4-5)"), op_nccl_topology})
      {"kv_transfer", nullptr, COMMLAB_SUMMARY("a prompt's KV over NICs: after prefill vs layer by layer (§2.5, §7.3)"), op_kv_transfer},
      {"exercise.list", op_exercise_list, COMMLAB_SUMMARY("the exercises of P5 §11: id and title")},
      {"exercise.get", op_exercise_get, COMMLAB_SUMMARY("one exercise document: statement, params, answers with their rule, hints")},
      {"exercise.solve", op_exercise_solve, COMMLAB_SUMMARY("an exercise's answers and filled worked solution for given params")},
      {"exercise.check", op_exercise_check, COMMLAB_SUMMARY("verdicts on typed answers: correct, incorrect or format-error")},
      {"exercise.variant", op_exercise_variant, COMMLAB_SUMMARY("fresh params for an exercise, deterministic for a seed")},
      {"exercise.install", op_exercise_install, COMMLAB_SUMMARY("installs the exercise documents the host ships (replacing all): ids, titles, problems")},
      COMMLAB_FULL_ONLY({"exercise.load", op_exercise_load, COMMLAB_SUMMARY("adds an exercise document (JSON, answers declared as requests) for this session")})
      COMMLAB_FULL_ONLY({"exercise.lint", op_exercise_lint, COMMLAB_SUMMARY("every problem of an exercise document, each naming its path in the file")})
      {"link.match", nullptr, COMMLAB_SUMMARY("the catalogue link whose effective figures are alpha_s and beta_Bps: matched, id, label"), op_link_match},
      {"model.match", nullptr, COMMLAB_SUMMARY("the model preset of this shape (layers, hidden, experts) and the name of bytes_per_value: matched, id, label, precision"), op_model_match},
  };
  return table;
}
}  // namespace

// Exercises whose answers are declared as requests (exercises/declared.hpp) are answered through
// this API; the exercises layer sits below it, so the api installs itself as their evaluator.
[[maybe_unused]] const bool kEvaluatorInstalled =
    (set_request_evaluator([](const json& request) { return evaluate(request); }), true);

const std::vector<OpInfo>& op_table() { return ops(); }

const std::vector<std::string>& error_codes() {
  static const std::vector<std::string> codes = {
      "invalid_json",  "invalid_type",     "missing_field", "unknown_field", "unknown_value",
      "unknown_op",    "out_of_range",     "not_integer",   "invalid_value", "invalid_request",
      "invalid_exercise", "not_installed", "no_route",      "too_large",     "out_of_memory", "internal"};
  return codes;
}

void add_op(const OpInfo& info) {
  for (const OpInfo& op : ops())
    if (std::string(op.name) == info.name) return;
  ops().push_back(info);
}

namespace {

COMMLAB_RARE json ops_list(Request& r) {
  r.finish();
  json list = json::array();
  for (const OpInfo& op : op_table()) {
    json& o = list.emplace_back(json::object());
    o["op"] = op.name;
    o["summary"] = op.summary;
  }
  json out = json::object();
  out["ops"] = std::move(list);
  return out;
}

// {"error": {"code", "message"}}, the message's pieces joined.
COMMLAB_RARE json error_json(std::string_view code, std::initializer_list<std::string_view> message) {
  json out = json::object();
  json& error = out["error"];
  error["code"] = code;
  error["message"] = concat(message);
  return out;
}

// Messages may quote invalid UTF-8 from the request; it is replaced rather than thrown on.
std::string to_text(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// A library's message quotes the text it choked on ("last read: '...'"), which may be the whole
// request: its start only, after `prefix`.
COMMLAB_RARE json error_json_capped(const char* code, const char* prefix, const char* what) {
  constexpr size_t kCap = 300;
  const std::string_view m(what);
  return m.size() <= kCap ? error_json(code, {prefix, m}) : error_json(code, {prefix, m.substr(0, kCap - 3), "..."});
}

std::string op_names() {
  std::string s;
  for (const OpInfo& op : op_table()) s += (s.empty() ? "" : ", ") + std::string(op.name);
  return s;
}

// Where the first number in an answer that is not finite sits (json would print it as null);
// run only for an answer that holds one. Iterative: answers can hold long arrays.
COMMLAB_RARE std::string first_non_finite_path(const json& out) {
  struct Frame {
    const json* value;
    std::string path;
  };
  std::vector<Frame> stack = {{&out, ""}};
  while (!stack.empty()) {
    Frame f = std::move(stack.back());
    stack.pop_back();
    const json& v = *f.value;
    if (v.is_number_float() && !std::isfinite(v.get<double>())) return f.path.empty() ? "answer" : f.path;
    if (v.is_object())
      for (auto it = v.begin(); it != v.end(); ++it)
        stack.push_back({&it.value(), concat({f.path, (f.path.empty() ? "" : "."), it.key()})});
    if (v.is_array())
      for (size_t i = 0; i < v.size(); ++i) stack.push_back({&v[i], concat({f.path, "[", std::to_string(i), "]"})});
  }
  return "";
}

// The path of the first number in an answer that is not finite, or "" when every number is
// finite: a cheap pass first, paths built only for an answer that has such a number.
std::string non_finite_path(const json& out) {
  for (std::vector<const json*> todo = {&out}; !todo.empty();) {
    const json* v = todo.back();
    todo.pop_back();
    if (v->is_number_float() && !std::isfinite(v->get<double>())) return first_non_finite_path(out);
    if (v->is_structured())
      for (const json& x : *v) todo.push_back(&x);
  }
  return "";
}

COMMLAB_RARE json too_deep() {
  return error_json("too_large",
                    {"request: value nests more than ", std::to_string(kMaxNestingDepth),
                     " levels of arrays and objects; allowed: at most ", std::to_string(kMaxNestingDepth), " levels"});
}

}  // namespace

namespace {

// An op that writes its answer, as a tree (a fresh Request over the same request).
json written_tree(const OpInfo& info, Request& r, const std::string& name) {
  JsonTreeWriter w;
  w.begin_object();
  info.writer(r, w);
  w.member("op", name);
  w.end_object();
  return w.take();
}

// A number of a written answer reads null: the answer again, as a tree, whose check below names
// it (a fresh Request over the same request).
COMMLAB_RARE json tree_again(const OpInfo& info, const json& request, const std::string& name) {
  Request again(request);
  again.raw("op");
  return written_tree(info, again, name);
}

// A request's answer: a tree, or (`as_text`: a request parsed from text, and an op that writes
// its answer) its text in `text`, with no tree built.
json answer(const json& request, bool as_text, std::string& text) {
  try {
    // Every later step (quoting a value, copying) may recurse over the value: bound it first
    // (a text request's depth was bounded before it was parsed).
    if (!as_text && nesting_depth(request, kMaxNestingDepth) > kMaxNestingDepth) return too_deep();
    if (!request.is_object())
      return error_json("invalid_type", {"request: value ", show_value(request),
                                         " is not allowed; allowed: a JSON object with an \"op\" field"});
    Request r(request);
    const json& op = r.raw("op");
    if (!op.is_string())
      return error_json("invalid_type",
                        {"field 'op': value ", show_value(op), " is not a string; allowed: one of ", op_names()});
    const std::string& name = op.get_ref<const std::string&>();
    for (const OpInfo& info : op_table())
      if (name == info.name) {
        json out;
        if (info.writer && as_text) {
          JsonTextWriter w("op", name);
          w.begin_object();
          info.writer(r, w);
          w.end_object();
          if (!w.saw_non_finite()) {
            text = w.take();
            return json();
          }
          out = tree_again(info, request, name);
        } else if (info.writer) {
          out = written_tree(info, r, name);
        } else {
          out = info.handler(r);
          out["op"] = name;
        }
        // A documented number never comes back as null: the handlers reject inputs that would
        // make a result infinite or NaN, and this is the last line of defence.
        const std::string bad = non_finite_path(out);
        if (!bad.empty())
          return error_json("out_of_range",
                            {"result '", bad,
                             "': the request's values make it infinite or not a number; allowed: values "
                             "that keep every result finite (larger bandwidths, efficiencies or rates)"});
        return out;
      }
    return error_json("unknown_op", {"field 'op': unknown value ", show_value(op), "; allowed: one of ", op_names()});
  } catch (const RequestError& e) {
    return error_json(e.code(), {e.what()});
  } catch (const json::exception& e) {
    return error_json_capped("invalid_request", "request could not be read: ", e.what());
  } catch (const std::bad_alloc&) {
    return error_json("out_of_memory", {"the request needs more memory than the engine may use"});
  } catch (const std::exception& e) {
    return error_json_capped("internal", "internal error: ", e.what());
  }
}

}  // namespace

json evaluate(const json& request) {
  std::string unused;
  return answer(request, false, unused);
}

std::string evaluate(const std::string& request_text) {
  // Before parsing: the parser itself copes, but nothing after it should see such a value.
  const int depth = text_nesting_depth(request_text, kMaxNestingDepth);
  if (depth > kMaxNestingDepth) return to_text(too_deep());
  json request;
  try {
    request = parse_request(request_text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for 1e999
    return to_text(error_json_capped("invalid_json", "request is not valid JSON: ", e.what()));
  } catch (const std::exception& e) {
    return to_text(error_json_capped("invalid_json", "request could not be read: ", e.what()));
  }
  std::string text;
  const json tree = answer(request, true, text);
  return text.empty() ? to_text(tree) : text;
}

}  // namespace commlab
