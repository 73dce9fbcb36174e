// A sandbox request, compiled once: the layers (SandboxDefaults ◀ Sandbox.run() ◀ @session.function)
// read through the spelling layer and the schema, merged (N-LAYER), with the resources normalised
// (N-RES) and the placement read (N-PL), into typed fields that each remember where they were
// written. The twin of Policy: immutable after compile and safe to share between threads, so one
// request can be checked against many policies (a policy diff) without being read again.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sandgate/diagnostic.h"
#include "sandgate/document.h"

namespace sandgate {

namespace model {
struct RequestModel;
}

// The request layers, in precedence order (later wins).
enum class Layer : std::uint8_t { defaults, sandbox, function };
// How diagnostics name a layer's input ("defaults", "sandbox", "overrides").
std::string_view input_name(Layer layer);
// How provenance names a layer ("defaults", "sandbox", "function"; SPEC §7).
std::string_view provenance_name(Layer layer);

enum class Client : std::uint8_t { python, typescript };

// SPEC §1.3: a rule that only the other SDK checks before sending is a warning, not an error, for
// `client`; add_other_client_note then ends its hint with "only the Python SDK rejects this before
// sending" (in parentheses after a hint of its own). The request compiler and the engine both
// apply it through these two.
bool is_other_clients_rule(Side side, Client client);
void add_other_client_note(std::string& hint, Side side);

struct CheckOptions {
  std::string client = "python";  // "python" or "typescript" (SPEC §1.3)
  std::string placement;          // "", "serverless" or "cks": overrides the request's placement_mode
};

class Request {
 public:
  // The layers of one request; any of them may be absent (a missing sandbox layer is `{}`).
  // Documents come from text (load_document) or from a binding's native values
  // (document_from_node); either way positions, when known, reach the diagnostics.
  struct Layers {
    const Document* defaults = nullptr;
    const Document* sandbox = nullptr;
    const Document* overrides = nullptr;
  };

  // The same layers handed over: the request keeps their trees instead of copying them (what a
  // binding does with the values it has just converted).
  struct OwnedLayers {
    std::optional<Document> defaults;
    std::optional<Document> sandbox;
    std::optional<Document> overrides;
  };

  // Compiles a request. Never throws for anything in the inputs: problems of loading, spelling,
  // schema, merging, resources (N-RES) and placement (N-PL) become the request's diagnostics.
  static std::shared_ptr<const Request> compile(const Layers& layers, const CheckOptions& options = {});
  static std::shared_ptr<const Request> compile(OwnedLayers layers, const CheckOptions& options = {});

  ~Request();
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;

  // What compiling reported (loading, spelling, schema, N-LAYER, N-RES, N-PL), in input order.
  const Diagnostics& diagnostics() const;
  // False when a layer could not be read at all (not an object, or not loaded): nothing is checked.
  bool usable() const;
  bool has_errors() const;
  Client client() const;
  const model::RequestModel& model() const;

 private:
  struct Impl;
  explicit Request(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct RequestCompiler;
};

}  // namespace sandgate
