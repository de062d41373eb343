"""npu_case: generate a lowered test case (cached) and compare the NPU model
with the TOSA reference model on it."""

load("@rules_cc//cc:defs.bzl", "cc_test")

def npu_case(name, case, target = "ethos-u85-256", size = "small", tags = [], layers = False,
             activations = "int8"):
    """Generates `case` for `target` and a cc_test comparing the model.

    Args:
      name: test name.
      case: case name in gen_case.py's CASES.
      target: Ethos-U accelerator config.
      size: test size.
      tags: test tags.
      layers: also keep the TOSA graph (<name>.tosa) and Vela's debug
        database (<name>.debug.xml) for a layer-by-layer comparison.
      activations: "int8" (A8W8) or "int16" (A16W8).
    """
    data_name = name + "_data"
    outs = [name + ".payload", name + ".tensors"]
    extra = "" if activations == "int8" else "--activations=%s " % activations
    if layers:
        outs += [name + ".tosa", name + ".debug.xml"]
        extra += "--tosa_out=$(execpath %s.tosa) --debug_db_out=$(execpath %s.debug.xml) " % (name, name)
    native.genrule(
        name = data_name,
        outs = outs,
        cmd = ("$(execpath //tests/npu:gen_case) --case=%s --target=%s " +
               "--payload_out=$(execpath %s.payload) --tensors_out=$(execpath %s.tensors) %s" +
               ">/dev/null 2>$(RULEDIR)/%s.log || (cat $(RULEDIR)/%s.log >&2; exit 1)") %
              (case, target, name, name, extra, name, name),
        tools = ["//tests/npu:gen_case"],
        tags = tags,
    )
    cc_test(
        name = name,
        size = size,
        srcs = [],
        args = ["$(rootpath %s.payload)" % name, "$(rootpath %s.tensors)" % name],
        data = [name + ".payload", name + ".tensors"],
        deps = ["//tests/npu:case_runner"],
        tags = tags,
    )
