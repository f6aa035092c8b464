// Sorting where the order of equal elements cannot show (a total order, or equal elements that
// are the same value). std::sort's introsort is instantiated per element type with its 3-, 4-
// and 5-element networks and an insertion pass: 2-13 KB of wasm each under -O2 (28 KB for six
// types). Here one insertion loop (short ranges, the usual case: a request's names, a tree's
// shapes) and one heap sort (long ones: a pipeline's timeline) a type.
#pragma once
#include <algorithm>
#include <functional>
#include <utility>

namespace commlab {

/// Sorts [first, last) by `less`: O(n log n), and as fast as std::sort on a few elements.
template <class It, class Less>
void heap_sort(It first, It last, Less less) {
  if (last - first > 16) {
    std::make_heap(first, last, less);
    std::sort_heap(first, last, less);
    return;
  }
  for (It i = first; i != last; ++i)
    for (It j = i; j != first && less(*j, *(j - 1)); --j) std::iter_swap(j, j - 1);
}

template <class It>
void heap_sort(It first, It last) {
  heap_sort(first, last, std::less<>());
}

}  // namespace commlab
