"""selected_kernels: an operator registry holding only the kernels that the
given .pte programs use (selective registration)."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("//tools/rules:helper_attrs.bzl", "helper_attrs")
load("//tools/rules:host_transition.bzl", "host_files")

def selected_kernels(name, ptes, **kwargs):
    """cc_library `name` defining ethosu_sdk::kernels::Registry() for `ptes`.

    Args:
      name: target name.
      ptes: labels of .pte files; their operators are registered.
      **kwargs: passed to cc_library (visibility, tags, ...).
    """
    src = name + "_registration.cc"
    native.genrule(
        name = name + "_gen",
        srcs = ptes,
        outs = [src],
        cmd = "$(location @ethosu_sdk//cc/kernels/codegen:gen_registration) --out=$@ " +
              " ".join(["--pte=$(location %s)" % p for p in ptes]),
        tools = [Label("//cc/kernels/codegen:gen_registration")],
        **helper_attrs(kwargs)
    )

    # Generated in the host's configuration: one run for every board.
    host_files(
        name = name + "_src",
        srcs = [src],
        **helper_attrs(kwargs)
    )
    cc_library(
        name = name,
        srcs = [name + "_src"],
        deps = [Label("//cc/kernels")],
        # Linked whole: the runner references Registry() from an earlier library.
        alwayslink = True,
        **kwargs
    )
