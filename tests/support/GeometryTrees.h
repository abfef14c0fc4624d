// The real gfx942 dense geometry family as the geometry tests assemble it (the e2e suite and the
// language server's): the real gfx942 dense files of shared/real-data/rocm-libraries (module,
// pack, header, profile) in a tree built from shared/real-data/rocke-cpu (the rocKE platform
// package and the gfx950 dense module the gfx942 one imports), with a stand-in for
// kernels.gfx942.attention_tiled_2d (not in the folder; two names are imported) and a KDP in the
// real format whose specs carry Gfx942DenseTuning fields (block_m, iglp, lds_row_pad) beside
// AttentionDenseSpec's.
#pragma once

#include <string>

#include "support/FixtureRepo.h"

namespace impact::testing {

namespace gfx942 {
inline constexpr const char* kModule = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx942/attention_dense.py";
inline constexpr const char* kPack =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseNative.cpp";
inline constexpr const char* kHeader =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx942AttentionDenseGeometry.hpp";
inline constexpr const char* kProfile = "projects/hipdnn/tools/IngestorGenerator/configs/gfx942_attention_dense.profile.yaml";
inline constexpr const char* kKdp =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx942_attention_dense/"
    "gfx942_attention_dense.kdp.json";
}  // namespace gfx942

// "" when shared/real-data holds what the family needs, else why the test skips.
std::string realGfx942Missing();
// Writes the family into the repository (uncommitted): six shipped variants, four on the
// default 3-D grid (seqlen_q/block_m, the head count and the batch pairwise different), two persistent.
void writeRealGfx942Family(FixtureRepo& repo);

}  // namespace impact::testing
