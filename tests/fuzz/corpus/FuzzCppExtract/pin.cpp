TEST(TestGfx950ScaleSignature, Matches)
{
    const std::vector<KernelArgument> expectedSignature = {
        {"global_buffer", 8, 0, "x_ptr"},
        {"global_buffer", 8, 8, "y_ptr"},
        {"by_value", 4, 16, "n"},
    };
    EXPECT_EQ(signature(), expectedSignature);
}
