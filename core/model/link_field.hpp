// Reading a link field of a request: a catalogue id or an inline {"alpha_s", "beta_Bps"}.
#pragma once
#include <string>

#include "base/request.hpp"
#include "model/links.hpp"

namespace commlab {

/// A catalogue link id or an inline {"alpha_s", "beta_Bps"} (beta already effective).
/// Catalogue links use the request's "efficiency" (default 0.8, P5 §0.4).
Link read_link(Request& r, const std::string& field);
/// As read_link, the catalogue link `fallback_id` when the field is absent.
Link read_link_or(Request& r, const std::string& field, const std::string& fallback_id);

}  // namespace commlab
