// Copyright (c) Advanced Micro Devices, Inc., or its affiliates.
// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>

namespace hipdnn_kernel_provider::ingestor
{

constexpr uint32_t GFX950_ROWS_PER_WAVE = 32;
constexpr uint32_t GFX950_WAVE_LANES = 64;

inline std::array<uint32_t, 3> gfx950AttentionDenseGrid(uint32_t seqlenQ, uint32_t blockM, uint32_t heads, uint32_t batch)
{
    return {(seqlenQ + blockM - 1) / blockM, heads, batch};
}

inline std::array<uint32_t, 3> gfx950AttentionDenseBlock(uint32_t blockM)
{
    return {blockM / GFX950_ROWS_PER_WAVE * GFX950_WAVE_LANES, 1, 1};
}

} // namespace hipdnn_kernel_provider::ingestor
