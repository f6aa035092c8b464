#include "model/link_field.hpp"

#include "base/concat.hpp"
#include "base/error.hpp"

namespace commlab {

namespace {
// Below 1% (or 1 B/s) a transfer time stops being finite for large byte counts: rejected here,
// where the message can name the field, not as a null in the answer.
double efficiency(Request& r) { return r.number_or("efficiency", kDefaultEfficiency, Range{0.01, 1, false, ""}); }
}  // namespace

Link read_link(Request& r, const std::string& field) {
  const json& v = r.required(field, [] {
    return concat({"a link id (", link_ids(), ") or an object {\"alpha_s\", \"beta_Bps\"}"});
  });
  if (v.is_string()) {
    // The field's path is spelled out only for the message of an unknown id.
    const double eff = efficiency(r);
    const std::string& id = v.get_ref<const std::string&>();
    if (const LinkSpec* spec = find_link(id)) return effective_link(*spec, eff);
    return catalogue_link(id, r.path(field), eff);
  }
  if (v.is_object()) {
    Request inline_link(v, r.path(field) + ".");
    Link l;
    l.alpha_s = inline_link.number("alpha_s", Range{0, 10, false, "seconds"});
    l.beta_Bps = inline_link.number("beta_Bps", Range{1, 1e15, false, "bytes per second"});
    l.id = "custom";
    inline_link.finish();
    return l;
  }
  refuse("invalid_type", {"field '", r.path(field), "': value ", show_value(v), " is ", type_name(v),
                          "; allowed: a link id (", link_ids(), ") or an object {\"alpha_s\", \"beta_Bps\"}"});
}

Link read_link_or(Request& r, const std::string& field, const std::string& fallback_id) {
  if (!r.has(field)) {
    r.mark_read(field);
    return catalogue_link(fallback_id, r.path(field), efficiency(r));
  }
  return read_link(r, field);
}

}  // namespace commlab
