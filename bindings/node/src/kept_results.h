// The native results of this environment's last lazy checks, so that a result's fields are made
// from the result itself when first read, not from a second check (issue 12, item 2: result
// objects wrap the native result). A check then hands over only its `ok` and an id; the diagnostics
// and the small fields (the head, result_head.h) and `resolved`, `provenance` and `rules_applied`
// are written when index.js first asks for them.
//
// A ring of the last k_kept_results, not a handle per result: a handle (an External) is freed only
// by its finalizer, after a GC and an event-loop turn, so a synchronous loop of checks piled them up
// (item 7). Here each check frees the result kept k_kept_results checks before it; a result read
// after that is checked again from its inputs, which index.js keeps (strings, immutable) for that.
// Main thread of each environment only (a worker thread has its own environment and ring).
#pragma once

#include <napi.h>

#include <cstddef>

#include "sandgate/result.h"

namespace sandgate_node {

constexpr std::size_t k_kept_results = 64;

// Keeps `r`; returns its id (1, 2, …: a JS number holds each exactly).
double keep_result(Napi::Env env, sandgate::Result&& r);

// The result kept under `id`, or null when later checks have taken its place (or `id` is none).
const sandgate::Result* kept_result(Napi::Env env, double id);

// Frees the result kept under `id`, if it is still kept.
void drop_result(Napi::Env env, double id);

}  // namespace sandgate_node
