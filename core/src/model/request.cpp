// Request::compile — layers → spelling and schema → merge (N-LAYER) → placement (N-PL) →
// resources (N-RES) → the other families, each read into the typed RequestModel once.
#include "sandgate/request.h"

#include <algorithm>

#include "model/replaced_defaults.h"
#include "model/request_compiler.h"

namespace sandgate {

std::string_view input_name(Layer layer) {
  switch (layer) {
    case Layer::defaults: return "defaults";
    case Layer::sandbox: return "sandbox";
    case Layer::function: return "overrides";
  }
  return "sandbox";
}

std::string_view provenance_name(Layer layer) {
  switch (layer) {
    case Layer::defaults: return "defaults";
    case Layer::sandbox: return "sandbox";
    case Layer::function: return "function";
  }
  return "sandbox";
}

struct Request::Impl {
  model::RequestModel model;
  Diagnostics diagnostics;
  bool usable = true;
  bool has_errors = false;
};

Request::Request(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Request::~Request() = default;
const Diagnostics& Request::diagnostics() const { return impl_->diagnostics; }
bool Request::usable() const { return impl_->usable; }
bool Request::has_errors() const { return impl_->has_errors; }

bool is_other_clients_rule(Side side, Client client) {
  return (side == Side::python && client == Client::typescript) || (side == Side::typescript && client == Client::python);
}

void add_other_client_note(std::string& hint, Side side) {
  std::string note = std::string("only the ") + (side == Side::python ? "Python" : "TypeScript") + " SDK rejects this before sending";
  hint = hint.empty() ? std::move(note) : hint + " (" + note + ")";
}

Client Request::client() const { return impl_->model.client; }
const model::RequestModel& Request::model() const { return impl_->model; }

struct RequestCompiler {
  // `owned`: documents whose trees the compiler may take instead of copying (may be null).
  static std::shared_ptr<const Request> compile(const Request::Layers& layers, const CheckOptions& options,
                                                Request::OwnedLayers* owned = nullptr) {
    // `new Impl`, not make_unique<Impl>(): value-initialization would zero the 2.7 KB model
    // before its members' initializers ran.
    std::unique_ptr<Request::Impl> impl(new Request::Impl);
    model::RequestModel& m = impl->model;
    m.client = options.client == "typescript" ? Client::typescript : Client::python;
    model::RequestCompiler c(m, impl->diagnostics, options);
    c.docs = {layers.defaults, layers.sandbox, layers.overrides};
    if (owned) c.owned = {owned->defaults ? &*owned->defaults : nullptr, owned->sandbox ? &*owned->sandbox : nullptr,
                          owned->overrides ? &*owned->overrides : nullptr};
    // A layer without a document of its own labels its diagnostics with the sandbox's file.
    const Document* fallback = layers.sandbox ? layers.sandbox : layers.defaults ? layers.defaults : layers.overrides;
    for (std::size_t i = 0; i < 3; ++i) {
      const Document* d = c.docs[i] ? c.docs[i] : fallback;
      if (d) m.files[i] = d->file;
    }
    try {
      impl->usable = model::prepare_layers(c);
      if (impl->usable) {
        model::merge_layers(c);
        model::read_placement(c);
        model::read_resources(c);
        model::read_annotations(c);
        model::read_lifetime(c);
        model::read_volumes(c);
        model::read_network(c);
        model::read_image_security(c);
        model::check_misc(c);
        model::check_replaced(c);
      }
    } catch (const std::exception& e) {
      // A bug, not an input problem: say so instead of crashing the host process.
      Diagnostic d;
      d.code = Code::SCHEMA_VIOLATION;
      d.severity = Severity::error;
      d.input = "sandbox";
      d.message = std::string("internal error while reading the request: ") + e.what();
      impl->diagnostics.push_back(std::move(d));
      impl->usable = false;
    }
    if (m.containers.empty()) {
      m.containers.emplace_back().name = "main";
      m.containers.back().at = m.root;
    }
    impl->has_errors = sandgate::has_errors(impl->diagnostics);
    return std::shared_ptr<const Request>(new Request(std::move(impl)));
  }
};

std::shared_ptr<const Request> Request::compile(const Layers& layers, const CheckOptions& options) {
  return RequestCompiler::compile(layers, options);
}

std::shared_ptr<const Request> Request::compile(OwnedLayers layers, const CheckOptions& options) {
  Layers view{layers.defaults ? &*layers.defaults : nullptr, layers.sandbox ? &*layers.sandbox : nullptr,
              layers.overrides ? &*layers.overrides : nullptr};
  return RequestCompiler::compile(view, options, &layers);
}

namespace model {

const MergedField* RequestModel::field(std::string_view key) const {
  if ((field_bits_ & field_bit(key)) == 0) return nullptr;
  for (const auto& f : fields) {
    if (f.member.key == key) return &f;
  }
  return nullptr;
}

void RequestModel::index_fields() {
  field_bits_ = 0;
  for (const auto& f : fields) field_bits_ |= field_bit(f.member.key);
}

const Container* RequestModel::gpu_container() const {
  for (const auto& c : containers) {
    if (c.gpu && c.gpu->count > 0) return &c;
  }
  return nullptr;
}

const GpuRequest* RequestModel::gpu() const {
  const Container* c = gpu_container();
  return c ? &*c->gpu : nullptr;
}

bool RequestModel::any_invalid() const {
  return std::any_of(containers.begin(), containers.end(), [](const Container& c) { return c.invalid; });
}

}  // namespace model
}  // namespace sandgate
