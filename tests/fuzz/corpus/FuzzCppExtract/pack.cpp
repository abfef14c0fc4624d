namespace hipdnn_kernel_provider::ingestor
{
constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
constexpr auto I32 = static_cast<uint32_t>(sizeof(int32_t));

std::vector<KernelArgument> scaleKernelSignature(const IngestorKernelCode& kernel)
{
    std::vector<KernelArgument> args;
    uint32_t offset = 0;
    auto add = [&](const char* kind, uint32_t size, const char* name) {
        args.push_back(KernelArgument{kind, size, offset, name});
        offset += size;
    };
    add("global_buffer", PTR, "x_ptr");
    if(kernel.getIntMetadata("with_bias") != 0)
    {
        add("global_buffer", PTR, "bias_ptr");
    }
    add("by_value", I32, "n");
    return args;
}

void launchScale(hipStream_t stream, const void* x, void* y, int32_t n)
{
    launch(stream, x, y, static_cast<int32_t>(0), n, 1.0F);
}
} // namespace hipdnn_kernel_provider::ingestor
