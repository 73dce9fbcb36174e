// JSON text that stands for a binding's native value (a JS object made into text by one
// JSON.stringify), read into the tree the binding's own converter would build from that value:
// values without positions (ScalarStyle::native, no marks, so diagnostics say `source: null` as for
// any native value), members in text order, and every number read as the IEEE double a JS value
// holds: a fraction is a number, a whole number an integer (flagged past int64, as a JS double
// past 2^63 is). A converter walks a value property by property through its language's C API; one
// stringify and this parse cost a fraction of that.
#pragma once

#include <optional>
#include <string>

#include "sandgate/document.h"
#include "sandgate/node.h"

namespace sandgate {

// The tree of `text` (the string is consumed). nullopt — the caller then converts the value
// itself, which reports what is wrong where it is — when the text is not one JSON value, is not
// valid UTF-8, has a string or key holding a NUL or a lone surrogate (as \u escapes), an object
// with a duplicate key, a number past the double range (too large or too small), or comes within
// half of any of `limits` (nesting, nodes, bytes): the converter's own counting decides what
// happens near them.
std::optional<Node> node_from_json_value(std::string text, const Limits& limits = Limits{});
// The same over `size` bytes at `data`, followed by a NUL: a binding that reads the text into a
// buffer it keeps between calls (its contents may be overwritten).
std::optional<Node> node_from_json_in_place(char* data, std::size_t size, const Limits& limits = Limits{});

}  // namespace sandgate
