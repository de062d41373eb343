"""Hand-picked conformance cases run beside the generated sample
(sample.bzl): each guards a fix or a kind of input the stratum may miss
(non-tensor inputs, A16W8, Vela's split int32 copies).

(target name, case, NPU, quantization label: collect.Case.quantization)
"""

PINNED = [
    ("add_conv_residual_u55", "test_add::test_add_conv_residual_u55_INT[4d_randn]", "u55", "int8"),
    ("add_conv_residual_u85", "test_add::test_add_conv_residual_u85_INT[4d_randn]", "u85", "int8"),
    ("conv2d_reflect_u55", "test_conv2d::test_convolution_2d_u55_INT[3x3_1x3x12x12_st1_pd3_reflect,per_channel_quant=True]", "u55", "int8"),
    ("adaptive_avg_pool2d_u85", "test_mean_dim::test_adaptive_avg_pool2d_u85_INT[rand]", "u85", "int8 io_quantization=set_io"),
    # (tuple of tensors, int) inputs: the intake bakes the int in.
    ("cat_three_u55", "test_cat::test_cat_u55_INT[cat_ones_and_rand_three_tensors]", "u55", "int8"),
    ("cat_three_u85", "test_cat::test_cat_u85_INT[cat_ones_and_rand_three_tensors]", "u85", "int8"),
    ("softmax_neg_dim_u55", "test_softmax::test_softmax_u55_INT[ones_neg_dim]", "u55", "int8"),
    # A16W8 pipelines: 16-bit activations, 8-bit weights.
    ("add_a16w8_u55", "test_add::test_add_tensor_u55_INT_16a8w[1d_ones]", "u55", "a16w8 per_channel=False"),
    ("linear_a16w8_u85", "test_linear::test_linear_16a8w_u85_INT[model_linear_rank1_zeros,per_channel_quant=True]", "u85", "a16w8"),
    # U85 elementwise comparison (CMP_GT, then AND for TOSA's 0/1 bool) and
    # shift (SHL), once refused by the functional model (issue 34).
    ("gt_tensor_u85", "test_gt::test_gt_tensor_u85_INT[gt_tensor_rank2_rand]", "u85", "int8"),
    ("lshift_scalar_u85", "test_lshift::test_bitwise_left_shift_scalar_u85_INT[randint_neg_100_int16]", "u85", "int8"),
    # Vela copies its int32 tile in int16 halves (100 MemoryCopy operations):
    # verified as the readers see it (python/ethosu_sdk/verify/compare.py).
    ("arange_start_step_u55", "test_arange::test_arange_start_step_u55_INT[100]", "u55", "int8"),
    # U85 scalar operands: Vela puts a one-element constant in OP_SCALAR,
    # on the IFM for neg (0 - x) and scalar_tensor(c) + x (issue 34).
    ("neg_rank1_ramp_u85", "test_neg::test_neg_u85_INT[rank_1_ramp]", "u85", "int8"),
    ("scalar_tensor_float_u85", "test_scalar_tensor::test_scalar_tensor_u85_INT[scalar_tensor_float_1]", "u85", "int8"),
    # U85 compare against a scalar IFM (Vela swaps CMP_GE/CMP_GT operands;
    # the constant in OP_SCALAR / IFM_BROADCAST SCALAR) (issue 34).
    ("sign_mixed_signs_u85", "test_sign::test_sign_u85_INT[mixed_signs]", "u85", "int8"),
    ("le_scalar_rank2_rand_u85", "test_le::test_le_scalar_u85_INT[le_scalar_rank2_rand]", "u85", "int8"),
    ("lt_scalar_rank3_randn_u85", "test_lt::test_lt_scalar_u85_INT[lt_scalar_rank3_randn]", "u85", "int8"),
    # Found by the whole-set bench before the bool comparison fix: ne against
    # a scalar, NPU vs TOSA at the comparison's mask (issue 34).
    ("ne_scalar_rank1_ones_u85", "test_ne::test_ne_scalar_u85_INT[ne_scalar_rank1_ones]", "u85", "int8"),
    # U85 bool delegate inputs, verified as the NPU reads them (one byte
    # 0/1 per element) (issue 34).
    ("logical_and_rank2_u85", "test_logical::test_logical_and_u85_INT[rand_rank2]", "u85", "int8"),
    # U85 bool-mask index_put: verified on the host, once a fault on the
    # QEMU device (issue 34).
    ("index_put_bool_mask_u85", "test_index_put::test_index_put_u85_INT[bool_mask_scalar]", "u85", "int8"),
    # U85 CONV3D: one convolution per kernel depth slice, each after the
    # first starting from the previous one's accumulators (ACC_INPUT IFM2).
    ("conv3d_u85", "test_conv3d::test_convolution_3d_u85_INT[3x3_1x3x12x12_st2_pd1,per_channel_quant=True]", "u85", "int8"),
    # The lowering check inside a decomposed operator (issue 34): only the
    # source operator's result is compared, its steps map to no one TOSA
    # tensor (same-sized ones included).
    ("group_norm_groups_1_u55", "test_group_norm::test_native_group_norm_u55_INT[rand_4_6_groups_1]", "u55", "int8"),
    ("log_softmax_rand_u55", "test_logsoftmax::test_log_softmax_u55_INT[rand]", "u55", "int8"),
    ("softmax_rand_u85", "test_softmax::test_softmax_u85_INT[rand]", "u85", "int8"),
    ("mha_softmax_a16w8_u55", "test_softmax::test_mha_softmax_a16w8_u55_INT[range_neg5_to_5]", "u55", "a16w8 io_quantization=set_io"),
    # A constant computed at AOT time as a TOSA graph output (issue 34).
    ("div_int16_trunc_u55", "test_div_tensor_mode::test_div_tensor_mode_u55_INT[int16_trunc]", "u55", "int8"),
    # ExecuTorch's 16-bit NEGATE without the RESCALE between its scales,
    # given one by the SDK's lowering workaround (issue 34).
    ("neg_a16w8_u55", "test_neg::test_neg_u55_INT_a16w8[rank_4_randn_pos]", "u55", "a16w8 per_channel=False"),
    # A partition of only constants (a bool mask's two values) (issue 34).
    ("sdpa_bool_mask_u55", "test_sdpa::test_sdpa_u55_INT[randn_with_bool_mask_non_causal]", "u55", "int8"),
    # U85 CONV3D whose input ExecuTorch crops (stride 3, sizes 8x9x8): Vela
    # 5.1.0 reads a SLICE into CONV3D as dense, so the SDK crops on the CPU
    # (python/ethosu_sdk/aot/workarounds/vela_conv3d_crop.py) (issue 34).
    ("conv3d_st3_cropped_u85", "test_conv3d::test_convolution_3d_u85_INT[3x3_1x3x8x9_st3_pd0_dl1_needs_adjust_pass,per_channel_quant=False]", "u85", "int8 per_channel=False"),
    # U85 integer division: TOSA INTDIV as elementwise DIV (mode 11), once
    # refused by the functional model; floor mode corrects the truncated
    # quotient with further NPU steps (issue 34).
    ("div_int16_trunc_u85", "test_div_tensor_mode::test_div_tensor_mode_u85_INT[int16_trunc]", "u85", "int8"),
    ("div_int32_floor_u85", "test_div_tensor_mode::test_div_tensor_mode_u85_INT[int32_floor]", "u85", "int8"),
    # U85 while_loop: one NPU program whose command stream loops (NPU_OP_
    # BRANCH on COND_STATUS), once refused by the functional model; its
    # outputs verified against the TOSA reference model's WHILE_LOOP.
    ("while_loop_additional_arg_u85", "test_while::test_while_loop_u85_INT[additional_arg]", "u85", "int8"),
    # U85 CONV3D that Vela 5.1.0 lowers with the accumulators kept inside
    # the NPU between depth slices (ACC_OUTPUT disabled, then ACC_INPUT
    # KEEP), once refused by the functional model (issue 34).
    ("conv3d_a8w4_st5_chained_u85", "test_conv3d::test_convolution_3d_u85_INT_a8w4[5x5_1x3x14x14_st5_pd0_dl1_needs_adjust_pass,per_channel_quant=False]", "u85", "int8 weights=int4 per_channel=False"),
    # U55 conv3d stays on the CPU: the portable convolution kernel's 3-D
    # form (issue 34).
    ("conv3d_u55", "test_conv3d::test_convolution_3d_u55_INT[3x3_1x3x12x12_st2_pd1,per_channel_quant=True]", "u55", "int8"),
    # U85 2:4 sparse weights with 16-bit IFMs: two input channels padded
    # to four make the weights sparse (issue 34).
    ("conv2d_sparse_a16w8_u85", "test_conv2d::test_convolution_2d_u85_INT_a16w8[2x2_3x2x14x14_nobias_circular,per_channel_quant=True]", "u85", "a16w8"),
    # conv1(x) - conv2(x): ExecuTorch folds conv1's rescale into the sub,
    # and provenance maps conv1 onto the output's tensor, which the
    # lowering check no longer takes for conv1's (issue 34).
    ("sub_dual_conv_u55", "test_sub::test_sub_dual_conv_u55_INT[4d_randn]", "u55", "int8"),
    # A16W8 functions ExecuTorch lowers to an int16 TOSA TABLE (513
    # entries, interpolated): 2 steps off PyTorch, within the TABLE's
    # allowance of 16 steps (python/ethosu_sdk/tosa_tables.py; issue 34).
    ("tanh_a16w8_ramp_u85", "test_tanh::test_tanh_16a8w_u85_INT[ramp]", "u85", "a16w8 per_channel=False"),
    ("mha_softmax_a16w8_u85", "test_softmax::test_mha_softmax_a16w8_u85_INT[range_neg0p01_to_0p01]", "u85", "a16w8 io_quantization=set_io"),
    # U85 int32 unfold: Vela's Gather as DMA copies only, no NPU operation
    # and so no layer in its debug database: outputs verified (issue 34).
    ("unfold_copy_int32_u85", "test_unfold_copy::test_unfold_copy_u85_INT[test_int32_4d_dim_neg1]", "u85", "int8"),
    # U55 right shift: ExecuTorch rounds (TOSA round = True, the U55's only
    # SHR), PyTorch floors; the SDK's lowering workaround floors (issue 34).
    ("rshift_tensor_int32_u55", "test_rshift::test_bitwise_right_shift_tensor_u55_INT[randint_0_127_int32]", "u55", "int8"),
    ("rshift_scalar_int8_u55", "test_rshift::test_bitwise_right_shift_scalar_u55_INT[randint_neg_100_int8]", "u55", "int8"),
    # U85 A16W8 MatMul: 3 x 32767^2 needs TOSA's 48-bit accumulator, which
    # the functional model had wrapped at 32 bits (issue 34).
    ("addmm_a16w8_large_values_u85", "test_addmm::test_addmm_16a8w_u85_INT[large_values]", "u85", "a16w8 per_channel=False"),
    # ExecuTorch's 32-bit sigmoid: its test file's helper sets an int32
    # global config and int16-in/int32-out sigmoids (quantizer_setup,
    # pipeline_setup.py); Vela's U85 LUT_S16_S32, once refused by the
    # functional model, and an int32 output held to the TABLE's allowance.
    ("sigmoid_32bit_add_u85", "test_sigmoid_32bit::test_sigmoid_u85_INT_add_sigmoid[ramp]", "u85", "int8 quantizer_setup=pipeline_setup:ops.test_sigmoid_32bit.configure_32bit_sigmoid_quantizer"),
]
