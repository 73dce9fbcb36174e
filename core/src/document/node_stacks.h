// The scratch stacks the two JSON readers (json_loader.cpp, json_value.cpp) build trees on: every
// open container's finished children wait, in order, on one shared stack of items and one of
// members, and move into their container in one go when it closes (no vector per open container).
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

}  // namespace sandgate::detail
