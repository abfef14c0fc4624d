// Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
// SPDX-License-Identifier: MIT

#include <gtest/gtest.h>

#include "IngestorKernelCode.hpp"

#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>

#include <vector>

using namespace hipdnn_kernel_provider::ingestor;

namespace
{

// Restated from kernels/gfx950/attention_dense.py:build_attention_dense (non-persistent arm).
std::vector<KernelArgument> expectedSignature()
{
    return {
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 8, ""},
        KernelArgument{"global_buffer", 8, 16, ""},
        KernelArgument{"global_buffer", 8, 24, ""},
        KernelArgument{"by_value", 4, 32, ""},
        KernelArgument{"by_value", 4, 36, ""},
        KernelArgument{"by_value", 4, 40, ""},
        KernelArgument{"by_value", 4, 44, ""},
    };
}

// The persistent arm: _build_attention_dense_persistent.
std::vector<KernelArgument> expectedPersistentSignature()
{
    return {
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 8, ""},
        KernelArgument{"global_buffer", 8, 16, ""},
        KernelArgument{"global_buffer", 8, 24, ""},
        KernelArgument{"by_value", 4, 32, ""},
    };
}

std::vector<KernelArgument> withArgument(std::vector<KernelArgument> sig, size_t i, KernelArgument arg)
{
    sig[i] = arg;
    return sig;
}

} // namespace

TEST(TestGfx950AttentionDenseSignature, AcceptsTheBuilderSignature)
{
    EXPECT_NO_THROW(requireSignatureMatch(expectedSignature(), expectedSignature()));
    EXPECT_NO_THROW(requireSignatureMatch(expectedPersistentSignature(), expectedPersistentSignature()));
}

TEST(TestGfx950AttentionDenseSignature, RefusesAnExtraArgument)
{
    auto wrong = expectedSignature();
    wrong.push_back(KernelArgument{"by_value", 4, 48, ""});
    EXPECT_THROW(requireSignatureMatch(expectedSignature(), wrong), HipdnnPluginException);
}

TEST(TestGfx950AttentionDenseSignature, RefusesAWidenedScalar)
{
    auto wrong = withArgument(expectedSignature(), 5, KernelArgument{"by_value", 8, 36, ""});
    EXPECT_THROW(requireSignatureMatch(expectedSignature(), wrong), HipdnnPluginException);
}
