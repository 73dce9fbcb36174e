// The scratch stacks the JSON text loader (json_loader.cpp) builds trees on: every open
// container's finished children wait, in order, on one shared stack of items and one of members,
// and move into their container in one go when it closes (no vector per open container). The
// loader needs SAX events for positions; the reader without positions (json_value.cpp) sizes each
// container from RapidJSON's DOM instead.
#pragma once

#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

#include "sandgate/node.h"

namespace sandgate::detail {

// Moves the children an array or object collected since `first` off the stacks into `node`.
inline void take_children(Node& node, std::vector<Node>& items, std::vector<Member>& members, std::size_t first) {
  if (node.is_array()) {
    node.items.reserve(items.size() - first);
    std::move(items.begin() + static_cast<std::ptrdiff_t>(first), items.end(), std::back_inserter(node.items));
    items.resize(first);
  } else {
    node.members.reserve(members.size() - first);
    std::move(members.begin() + static_cast<std::ptrdiff_t>(first), members.end(), std::back_inserter(node.members));
    members.resize(first);
  }
}

// Closes the innermost open container (a frame with `node` and `first`): pops it off `stack` and
// returns its node with its children moved in.
template <typename Frame>
Node close_top(std::vector<Frame>& stack, std::vector<Node>& items, std::vector<Member>& members) {
  Node node = std::move(stack.back().node);
  take_children(node, items, members, stack.back().first);
  stack.pop_back();
  return node;
}

}  // namespace sandgate::detail
