// Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
// SPDX-License-Identifier: MIT

#include "IngestorKernelCode.hpp"
#include "IngestorPacks.hpp"
#include "packs/Gfx950AttentionDenseGeometry.hpp"

#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>

#include <string_view>
#include <vector>

namespace hipdnn_kernel_provider::ingestor
{
namespace
{

constexpr std::string_view GRAPH_MATCHER_SYMBOL = "hipkernel.gfx950_attention_dense.graph_match";
constexpr std::string_view KERNEL_MATCHER_SYMBOL = "hipkernel.gfx950_attention_dense.kernel_match";

constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
constexpr auto I32 = static_cast<uint32_t>(sizeof(int32_t));
constexpr auto F32 = static_cast<uint32_t>(sizeof(float));

constexpr std::string_view BLOCK_M_FIELD = "block_m";

// The eight-argument, non-persistent ABI of build_attention_dense.
std::vector<KernelArgument> attentionDenseKernelSignature()
{
    return {
        {"global_buffer", PTR, 0, "q_ptr"},
        {"global_buffer", PTR, 8, "k_ptr"},
        {"global_buffer", PTR, 16, "v_ptr"},
        {"global_buffer", PTR, 24, "o_ptr"},
        {"by_value", F32, 32, "scale"},
        {"by_value", I32, 36, "batch"},
        {"by_value", I32, 40, "seqlen_q"},
        {"by_value", I32, 44, "seqlen_kv"},
    };
}

} // namespace

void launchGfx950AttentionDense(const IngestorKernelCode& kernel,
                                hipStream_t stream,
                                const AttentionBuffers& q,
                                const AttentionBuffers& k,
                                const AttentionBuffers& v,
                                const AttentionBuffers& o,
                                const AttentionShape& shape)
{
    const auto blockM = kernel.getIntMetadata(std::string(BLOCK_M_FIELD));
    kernel.launch(stream,
                  q.ptr,
                  k.ptr,
                  v.ptr,
                  o.ptr,
                  shape.scale,
                  shape.batch,
                  shape.seqlenQ,
                  shape.seqlenKv);
    (void)blockM;
}

IngestorKernelCode prepareGfx950AttentionDense(const KernelBinary& binary)
{
    return buildIngestorKernelCode(binary, attentionDenseKernelSignature());
}

} // namespace hipdnn_kernel_provider::ingestor
