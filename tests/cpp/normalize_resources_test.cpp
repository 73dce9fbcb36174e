// normalize_resources (SPEC §5.2) on its own: what the SDK sends for a `resources` value, and the
// QoS class it gives the container. The Python suite compares the sent values with cwsandbox's own
// normalize_resources; the class is sandgate's, so it is pinned here.
#include <gtest/gtest.h>

#include <string>

#include "sandgate/sandgate.h"

using namespace sandgate;

namespace {

Result normalize(const std::string& yaml) {
  Document doc = load_document(yaml, Format::yaml, "resources.yaml", "sandbox");
  EXPECT_TRUE(doc.loaded) << yaml;
  return normalize_resources(doc.root);
}

struct QosCase {
  const char* resources;
  const char* qos;
};

class NormalizeQos : public testing::TestWithParam<QosCase> {};

TEST_P(NormalizeQos, is_the_kubernetes_class_of_what_is_sent) {
  Result r = normalize(GetParam().resources);
  ASSERT_TRUE(r.ok()) << GetParam().resources;
  EXPECT_EQ(r.qos_class(), GetParam().qos) << GetParam().resources;
}

INSTANTIATE_TEST_SUITE_P(
    Classes, NormalizeQos,
    testing::Values(
        // The flat form sends each value as request and limit.
        QosCase{"{cpu: '1', memory: 1Gi}", "Guaranteed"},
        // One side given: the SDK copies it to the other.
        QosCase{"{requests: {cpu: '1', memory: 1Gi}}", "Guaranteed"},
        QosCase{"{limits: {memory: 1Gi}}", "Burstable"},
        // Equal on both sides, but memory unset: not every dimension is pinned.
        QosCase{"{cpu: '1'}", "Burstable"},
        QosCase{"{requests: {cpu: '1'}, limits: {cpu: '2'}}", "Burstable"},
        QosCase{"{requests: {cpu: '1', memory: 1Gi}, limits: {cpu: '1', memory: 2Gi}}", "Burstable"},
        // Equal values in different spellings are equal.
        QosCase{"{requests: {cpu: 1000m, memory: 1024Mi}, limits: {cpu: '1', memory: 1Gi}}", "Guaranteed"},
        // GPUs alone reserve no cpu or memory.
        QosCase{"{gpu: 1}", "BestEffort"},
        QosCase{"{gpu: {count: 1, memory_gb: 80}}", "BestEffort"}));

TEST(NormalizeResources, sends_requests_limits_and_the_gpu_as_given) {
  Result r = normalize("{requests: {cpu: 500m}, limits: {cpu: '1', memory: 2Gi}, gpu: {count: 2, type: H100}}");
  ASSERT_TRUE(r.ok());
  const Node& out = r.resolved();
  const Node* requests = out.find("requests");
  const Node* limits = out.find("limits");
  const Node* gpu = out.find("gpu");
  ASSERT_TRUE(requests && limits && gpu);
  ASSERT_TRUE(requests->find("cpu") && limits->find("cpu") && limits->find("memory"));
  EXPECT_EQ(requests->find("cpu")->text, "500m");
  EXPECT_EQ(requests->find("memory"), nullptr);  // both sides given: neither is filled from the other
  EXPECT_EQ(limits->find("cpu")->text, "1");
  EXPECT_EQ(limits->find("memory")->text, "2Gi");
  ASSERT_TRUE(gpu->find("count") && gpu->find("type"));
  EXPECT_EQ(gpu->find("count")->integer, 2);
  EXPECT_EQ(gpu->find("type")->text, "H100");
  EXPECT_EQ(gpu->find("memory_gb"), nullptr);  // not given: not sent
}

TEST(NormalizeResources, a_gpu_by_memory_sends_no_type) {
  Result r = normalize("{gpu: {count: 1, memory_gb: 80}}");
  ASSERT_TRUE(r.ok());
  const Node* gpu = r.resolved().find("gpu");
  const Node* requests = r.resolved().find("requests");
  ASSERT_TRUE(gpu && gpu->find("memory_gb") && requests);
  EXPECT_EQ(gpu->find("memory_gb")->integer, 80);
  EXPECT_EQ(gpu->find("type"), nullptr);
  EXPECT_TRUE(requests->is_null());
}

TEST(NormalizeResources, a_refused_value_is_not_sent) {
  Result r = normalize("{cpu: lots}");
  EXPECT_FALSE(r.ok());
  const Node* requests = r.resolved().find("requests");
  ASSERT_TRUE(requests);
  EXPECT_TRUE(requests->is_null());
  EXPECT_EQ(r.qos_class(), "BestEffort");
}

}  // namespace
