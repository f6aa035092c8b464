// One string from pieces: concat({"field '", name, "': value ", shown, " is not allowed"}).
// A chain of operator+ makes a string per '+', and under wasm exceptions a cleanup path for each;
// the engine builds its messages in some 300 places (README "Page load and sizes": "Writers").
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

namespace commlab {

std::string concat(std::initializer_list<std::string_view> pieces);

}  // namespace commlab
