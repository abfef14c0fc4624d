// Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
// SPDX-License-Identifier: MIT

#include "IngestorKernelCode.hpp"
#include "IngestorPacks.hpp"

#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>

#include <vector>

namespace hipdnn_kernel_provider::ingestor
{
namespace
{

constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
constexpr auto I32 = static_cast<uint32_t>(sizeof(int32_t));
constexpr auto F32 = static_cast<uint32_t>(sizeof(float));

constexpr std::string_view WITH_RESIDUAL_FIELD = "with_residual";

std::vector<KernelArgument> rmsNormKernelSignature(const IngestorKernelCode& kernel)
{
    std::vector<KernelArgument> args;
    uint32_t offset = 0;
    auto add = [&](const char* kind, uint32_t size, const char* name) {
        args.push_back(KernelArgument{kind, size, offset, name});
        offset += size;
    };

    for(const char* name : {"x_ptr", "weight_ptr", "y_ptr"})
    {
        add("global_buffer", PTR, name);
    }
    if(kernel.getIntMetadata(std::string(WITH_RESIDUAL_FIELD)) != 0)
    {
        add("global_buffer", PTR, "residual_ptr");
    }
    add("by_value", I32, "rows");
    add("by_value", F32, "eps");
    return args;
}

} // namespace

IngestorKernelCode prepareGfx950RmsNorm(const KernelBinary& binary, const IngestorKernelCode& probe)
{
    return buildIngestorKernelCode(binary, rmsNormKernelSignature(probe));
}

} // namespace hipdnn_kernel_provider::ingestor
