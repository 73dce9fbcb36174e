// Loading the runner inventory and the org entitlements: the same pipeline as policies
// (load → spelling layer → schema → typed model), with each runner's policy compiled once.
#include "model/runners_model.h"
#include "model/policy_build.h"
#include "sandgate/engine.h"
#include "schema/shape.h"
#include "schema/validate.h"
#include "util/diagnostics.h"

namespace sandgate {

namespace model {

const Runner& builtin_serverless_runner() {
  static const Runner runner = [] {
    Runner r;
    r.id = "serverless";
    r.mode = "serverless";
    r.gpu_types = {{"NVIDIA RTX PRO 6000 Blackwell Server Edition", 96}};
    r.max_gpu_count = 1;
    r.builtin = true;
    return r;
  }();
  return runner;
}

const Runner& anonymous_cks_runner() {
  static const Runner runner = [] {
    Runner r;
    r.mode = "cks";
    r.builtin = true;
    r.offers_every_gpu = true;
    return r;
  }();
  return runner;
}

}  // namespace model

struct Runners::Impl {
  std::string file;
  Node root;
  model::RunnersModel model;
  Diagnostics diagnostics;
};

Runners::Runners(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Runners::~Runners() = default;
const model::RunnersModel& Runners::model() const { return impl_->model; }
const std::string& Runners::file() const { return impl_->file; }
const Diagnostics& Runners::diagnostics() const { return impl_->diagnostics; }

struct Org::Impl {
  std::string file;
  model::OrgModel model;
  Diagnostics diagnostics;
};
Org::Org(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Org::~Org() = default;
const model::OrgModel& Org::model() const { return impl_->model; }
const Diagnostics& Org::diagnostics() const { return impl_->diagnostics; }
const std::string& Org::file() const { return impl_->file; }

namespace {

using model::Cursor;

void read_runner(const Cursor& c, std::size_t index, const std::string& file, model::RunnersModel& m,
                 DiagnosticSink& sink) {
  model::Runner r;
  r.origin = origin_of(c);
  r.id = c["runner_id"].str();
  r.id_origin = origin_of(c["runner_id"]);
  r.mode = c["mode"].str("cks");
  Cursor gpus = c["gpu_types"];
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    Cursor g = gpus.at(i);
    if (!g.node->is_object()) continue;
    r.gpu_types.push_back({g["type"].str(), g["memory_gb"].integer(0)});
  }
  if (c["max_gpu_count"].is_int()) r.max_gpu_count = c["max_gpu_count"].integer();
  r.runtime_class_cpu = c["runtime_classes"]["cpu"].str();
  r.runtime_class_gpu = c["runtime_classes"]["gpu"].str();
  if (Cursor sunk = c["sunk"]; sunk && sunk.node->is_object()) {
    if (Cursor s = sunk["scheduler_name"]; s && s.node->is_string()) r.sunk_scheduler = s.node->text;
    if (sunk["kill_wait_seconds"].is_int()) {
      r.kill_wait_seconds = sunk["kill_wait_seconds"].integer();
      r.kill_wait_origin = origin_of(sunk["kill_wait_seconds"]);
    }
  }
  if (const model::Runner* first = m.find(r.id); first && !r.id.empty()) {
    Diagnostic& d = sink.add(Code::DUPLICATE_KEY, c["runner_id"].path(), c["runner_id"].mark(),
                             "runner_id \"" + r.id + "\" appears twice in the inventory", "runner ids are unique");
    Related related;
    related.input = sink.input();
    related.path = first->id_origin.path.str();
    if (first->id_origin.mark.known()) related.source = SourceLocation{file, first->id_origin.mark.line, first->id_origin.mark.column};
    related.message = "the first occurrence";
    d.related.push_back(std::move(related));
  }
  if (Cursor p = c["policy"]) {
    // In the runners input a scheduler is Slurm only when it is the runner's sunk.scheduler_name
    // (SPEC §6.8): a runner without a sunk block has none, and the "contains slurm" guess is for a
    // policy read without runners.
    PolicyContext ctx;
    ctx.sunk_scheduler = r.sunk_scheduler.value_or("");
    PolicyLoad load = build_policy(*p.node, file, p.path(), "runners", ctx);
    for (auto& d : load.diagnostics) sink.diagnostics().push_back(std::move(d));
    r.policy = load.policy;
  }
  (void)index;
  m.add(std::move(r));
}

// The schema walked a bare list wrapped in {"runners": …}: its paths lose that first step.
void unwrap_paths(Diagnostics& diags, std::size_t from, std::string_view input) {
  constexpr std::string_view wrapper = "/runners";
  auto unwrap = [&](std::string& path) {
    if (path.compare(0, wrapper.size(), wrapper) == 0) path.erase(0, wrapper.size());
  };
  for (std::size_t i = from; i < diags.size(); ++i) {
    unwrap(diags[i].path);
    for (Related& r : diags[i].related) {
      if (r.input == input) unwrap(r.path);
    }
  }
}

}  // namespace

struct RunnersBuilder {
  static RunnersLoad build(Node root, std::string file, Diagnostics prior) {
    auto impl = std::make_unique<Runners::Impl>();
    impl->file = std::move(file);
    impl->root = std::move(root);
    RunnersLoad out;
    out.diagnostics = std::move(prior);
    DiagnosticSink sink(out.diagnostics, impl->file, "runners");
    // A bare list of runners is accepted too (the Python binding documents it). It is checked as
    // the `runners:` it stands for, but its diagnostics and origins point into the document as
    // written: /0/mode, not /runners/0/mode.
    const bool bare = impl->root.is_array();
    if (bare) {
      Node wrapped = Node::make_object();
      wrapped.add("runners", std::move(impl->root));
      impl->root = std::move(wrapped);
    }
    const auto& cs = schema::get("runners");
    schema::ReportedPaths reported;
    const std::size_t before_schema = out.diagnostics.size();
    schema::shape(impl->root, cs, "", sink, reported);
    schema::validate(impl->root, cs, "", sink, reported);
    if (bare) unwrap_paths(out.diagnostics, before_schema, sink.input());
    Cursor runners = Cursor{&impl->root, nullptr, ""}["runners"];
    if (bare) runners = Cursor{runners.node, nullptr, ""};
    for (std::size_t i = 0; i < runners.size(); ++i) {
      if (runners.at(i).node->is_object()) read_runner(runners.at(i), i, impl->file, impl->model, sink);
    }
    impl->diagnostics = out.diagnostics;
    out.runners = std::shared_ptr<const Runners>(new Runners(std::move(impl)));
    return out;
  }
};

// Text that does not load answers with its load diagnostics alone; text that does is built as a
// binding's value is, after the problems its loader read past.
template <typename Load, typename Builder>
Load load_then_build(std::string_view text, Format format, std::string file, const char* input, const Limits& limits) {
  Document doc = load_document(text, format, file, input, limits);
  if (!doc.loaded) {
    Load out;
    out.diagnostics = std::move(doc.diagnostics);
    return out;
  }
  return Builder::build(std::move(doc.root), std::move(file), std::move(doc.diagnostics));
}

RunnersLoad Runners::parse(std::string_view text, Format format, std::string file, const Limits& limits) {
  return load_then_build<RunnersLoad, RunnersBuilder>(text, format, std::move(file), "runners", limits);
}

RunnersLoad Runners::from_node(Node root, std::string file) {
  place_in_walk_order(root);
  return RunnersBuilder::build(std::move(root), std::move(file), {});
}

struct OrgBuilder {
  static OrgLoad build(Node root, std::string file, Diagnostics prior) {
    auto impl = std::make_unique<Org::Impl>();
    impl->file = file;
    OrgLoad out;
    out.diagnostics = std::move(prior);
    DiagnosticSink sink(out.diagnostics, file, "org");
    const auto& cs = schema::get("org");
    schema::ReportedPaths reported;
    schema::shape(root, cs, "", sink, reported);
    schema::validate(root, cs, "", sink, reported);
    Cursor c{&root, nullptr, ""};
    auto& m = impl->model;
    m.gpu_allowed = c["gpu_allowed"].boolean(false);
    m.gpu_allowed_origin = origin_of(c["gpu_allowed"]);
    if (c["max_gpus_per_sandbox"].is_int()) {
      m.max_gpus_per_sandbox = c["max_gpus_per_sandbox"].integer();
      m.max_gpus_origin = origin_of(c["max_gpus_per_sandbox"]);
    }
    m.serverless_allowed = c["serverless_allowed"].boolean(true);
    m.serverless_origin = origin_of(c["serverless_allowed"]);
    impl->diagnostics = out.diagnostics;
    out.org = std::shared_ptr<const Org>(new Org(std::move(impl)));
    return out;
  }
};

OrgLoad Org::parse(std::string_view text, Format format, std::string file, const Limits& limits) {
  return load_then_build<OrgLoad, OrgBuilder>(text, format, std::move(file), "org", limits);
}

OrgLoad Org::from_node(Node root, std::string file) {
  place_in_walk_order(root);
  return OrgBuilder::build(std::move(root), std::move(file), {});
}

}  // namespace sandgate
