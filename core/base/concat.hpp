// One string from pieces: concat({"field '", name, "': value ", shown, " is not allowed"}).
// A chain of operator+ makes a string per '+', and under wasm exceptions each of them a cleanup
// path; the engine's messages are built in hundreds of places, so this is one call instead
// (about half the code of such a message; README "Page load and sizes").
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

namespace commlab {

std::string concat(std::initializer_list<std::string_view> pieces);

}  // namespace commlab
