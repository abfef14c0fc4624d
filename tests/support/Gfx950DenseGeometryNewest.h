// The newest gfx950 dense geometry form of the monorepo (Gfx950AttentionDenseNative.cpp at
// 78071ca4, Gfx950AttentionDenseGeometry.hpp of the same generation), written for the tests in
// exactly that form (not copied): the profile's mirror names the header only; prepare() passes
// the selected candidate's own `tile->blockM` (candidateTile returns
// `AttentionDenseTile{*blockM, *blockN}` read by a metadata reader function), the graph's
// `problem.seqLenQ`, `problem.numQueryHeads` (kernelMatches equates it with
// `intField(NUM_QUERY_HEADS_FIELD)`), `problem.batch`, and the descriptor's id.
#pragma once

namespace impact::testing {

inline constexpr const char* kDenseNewestHeader = R"(// Fixture in the form of Gfx950AttentionDenseGeometry.hpp (newest generation).
#pragma once

#include <cstdint>
#include <string>

#include <hipdnn_plugin_sdk/PluginException.hpp>

namespace hip_kernel_provider::kernel_ingestor_engine
{

inline constexpr int64_t GFX950_WAVE_LANES = 64;
inline constexpr int64_t GFX950_ROWS_PER_WAVE = 32;
inline constexpr int64_t GFX950_ATTENTION_DENSE_BLOCK_M_SMALL = 128;
inline constexpr int64_t GFX950_ATTENTION_DENSE_BLOCK_M_LARGE = 256;

inline bool isSupportedGfx950AttentionDenseTile(int64_t headSize, int64_t blockM, int64_t blockN)
{
    if(headSize != 64 && headSize != 128)
    {
        return false;
    }
    if(blockM != GFX950_ATTENTION_DENSE_BLOCK_M_SMALL && blockM != GFX950_ATTENTION_DENSE_BLOCK_M_LARGE)
    {
        return false;
    }
    return blockN > 0 && blockN % 32 == 0 && blockM % blockN == 0;
}

struct Gfx950AttentionDenseGeometry
{
    unsigned gridX = 0;
    unsigned gridY = 0;
    unsigned gridZ = 0;
    unsigned blockX = 0;
};

inline Gfx950AttentionDenseGeometry gfx950AttentionDenseGeometry(int64_t blockM,
                                                                 int64_t seqLenQ,
                                                                 int64_t numQueryHeads,
                                                                 int64_t batch,
                                                                 const std::string& kernelName)
{
    if(blockM != GFX950_ATTENTION_DENSE_BLOCK_M_SMALL && blockM != GFX950_ATTENTION_DENSE_BLOCK_M_LARGE)
    {
        throw hipdnn_plugin_sdk::HipdnnPluginException(
            HIPDNN_PLUGIN_STATUS_BAD_PARAM,
            "gfx950 attention_dense: kernel '" + kernelName + "' declares block_m " + std::to_string(blockM));
    }
    if(seqLenQ <= 0 || numQueryHeads <= 0 || batch <= 0)
    {
        throw hipdnn_plugin_sdk::HipdnnPluginException(
            HIPDNN_PLUGIN_STATUS_BAD_PARAM,
            "gfx950 attention_dense: kernel '" + kernelName + "' declares a non-positive dimension");
    }
    Gfx950AttentionDenseGeometry geometry;
    geometry.blockX = static_cast<unsigned>(blockM / GFX950_ROWS_PER_WAVE * GFX950_WAVE_LANES);
    geometry.gridX = static_cast<unsigned>((seqLenQ + blockM - 1) / blockM);
    geometry.gridY = static_cast<unsigned>(numQueryHeads);
    geometry.gridZ = static_cast<unsigned>(batch);
    return geometry;
}

} // namespace hip_kernel_provider::kernel_ingestor_engine
)";

inline constexpr const char* kDenseNewestPack = R"(// Fixture in the form of Gfx950AttentionDenseNative.cpp (78071ca4).
#include "Gfx950AttentionDenseGeometry.hpp"

namespace hip_kernel_provider::kernel_ingestor_engine
{
namespace
{

constexpr std::string_view HEAD_SIZE_FIELD = "head_size";
constexpr std::string_view NUM_QUERY_HEADS_FIELD = "num_query_heads";
constexpr std::string_view BLOCK_M_FIELD = "block_m";
constexpr std::string_view BLOCK_N_FIELD = "block_n";

struct AttentionDenseProblem
{
    int64_t batch = 0;
    int64_t seqLenQ = 0;
    int64_t seqLenKv = 0;
    int64_t numQueryHeads = 0;
    int64_t headSize = 0;
};

AttentionDenseProblem problemFor(const TensorAttributes& q, const TensorAttributes& k)
{
    AttentionDenseProblem problem;
    problem.batch = q.dims()->Get(0);
    problem.numQueryHeads = q.dims()->Get(1);
    problem.seqLenQ = q.dims()->Get(2);
    problem.seqLenKv = k.dims()->Get(2);
    problem.headSize = q.dims()->Get(3);
    return problem;
}

std::optional<int64_t> integerMetadata(const KernelDefinition& kernel, std::string_view field)
{
    const auto it = kernel.metadata.find(std::string(field));
    if(it == kernel.metadata.end())
    {
        return std::nullopt;
    }
    const auto* value = std::get_if<int64_t>(&it->second);
    if(value == nullptr)
    {
        return std::nullopt;
    }
    return *value;
}

struct AttentionDenseTile
{
    int64_t blockM = 0;
    int64_t blockN = 0;
};

std::optional<AttentionDenseTile> candidateTile(const KernelDefinition& kernel)
{
    const auto headSize = integerMetadata(kernel, HEAD_SIZE_FIELD);
    const auto blockM = integerMetadata(kernel, BLOCK_M_FIELD);
    const auto blockN = integerMetadata(kernel, BLOCK_N_FIELD);
    if(!headSize.has_value() || !blockM.has_value() || !blockN.has_value()
       || !isSupportedGfx950AttentionDenseTile(*headSize, *blockM, *blockN))
    {
        return std::nullopt;
    }
    return AttentionDenseTile{*blockM, *blockN};
}

bool tileDivides(const AttentionDenseTile& tile, const AttentionDenseProblem& problem)
{
    return problem.seqLenQ % tile.blockM == 0 && problem.seqLenKv % tile.blockN == 0;
}

bool kernelMatches(const MatchContext& context, const BoundTokens& bound, const KernelDefinition& kernel)
{
    const auto* q = findTensor(context, 1);
    const auto* k = findTensor(context, 2);
    const auto problem = problemFor(*q, *k);
    const auto tile = candidateTile(kernel);
    if(!tile.has_value())
    {
        return false;
    }
    const auto intField
        = [&kernel](std::string_view field) { return kernel.getIntMetadata(std::string(field)); };
    if(intField(HEAD_SIZE_FIELD) != problem.headSize
       || intField(NUM_QUERY_HEADS_FIELD) != problem.numQueryHeads)
    {
        return false;
    }
    return tileDivides(*tile, problem);
}

class Gfx950AttentionDenseDispatchHandler : public IKernelDispatchHandler<Handle>
{
public:
    std::unique_ptr<PreparedDispatch> prepare(const MatchContext& context,
                                              const BoundTokens& bound,
                                              const KernelDefinition& kernel) const override
    {
        const auto binding = attentionDenseBinding(bound);
        const auto tile = candidateTile(kernel);
        if(!tile.has_value())
        {
            throw hipdnn_plugin_sdk::HipdnnPluginException(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "no tile");
        }
        auto code = buildIngestorKernelCode(_kernelCompiler, _kpackLoader, context, kernel, options,
                                            attentionDenseKernelSignature());
        const auto* q = findTensor(context, binding.q);
        const auto* k = findTensor(context, binding.k);
        const auto problem = problemFor(*q, *k);
        const auto geometry = gfx950AttentionDenseGeometry(tile->blockM,
                                                           problem.seqLenQ,
                                                           problem.numQueryHeads,
                                                           problem.batch,
                                                           toString(kernel.kernelId));

        code.setBlockSize(geometry.blockX, 1, 1);
        code.setGridSize(geometry.gridX, geometry.gridY, geometry.gridZ);

        return std::make_unique<PreparedGfx950AttentionDense>(std::move(code), binding, problem);
    }
};

} // namespace
} // namespace hip_kernel_provider::kernel_ingestor_engine
)";

}  // namespace impact::testing
