// Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
// SPDX-License-Identifier: MIT

#include <gtest/gtest.h>

#include "IngestorKernelCode.hpp"

#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>

using namespace hipdnn_kernel_provider::ingestor;

TEST(TestGfx950RmsNormSignature, MatchesTheSignatureFactory)
{
    const std::vector<KernelArgument> expected = {
        {"global_buffer", 8, 0, "x_ptr"},
        {"global_buffer", 8, 8, "weight_ptr"},
        {"global_buffer", 8, 16, "y_ptr"},
        {"by_value", 4, 24, "rows"},
        {"by_value", 4, 28, "eps"},
    };
    EXPECT_EQ(expected.size(), 5U);
}
