"""release_tarball: the SDK's release archive (see //release)."""

load(":firmware.bzl", "FirmwareInfo")

def _impl(ctx):
    entries = {}  # destination -> File

    def put(dest, file):
        if dest in entries and entries[dest] != file:
            fail("two files for %s: %s and %s" % (dest, entries[dest].path, file.path))
        entries[dest] = file

    for f in ctx.files.wheel:
        put("python/" + f.basename, f)
    for target, cpu in ctx.attr.cc_libs.items():
        for f in target.files.to_list():
            put("lib/%s/%s" % (cpu, f.basename), f)
    for target in ctx.attr.cc_headers_from:
        for f in target[OutputGroupInfo].headers.to_list():
            put("include/" + f.short_path, f)
    for target in ctx.attr.firmware:
        info = target[FirmwareInfo]
        put("firmware/%s/%s" % (info.board, info.elf.basename), info.elf)
    for f in ctx.files.docs:
        put(f.basename, f)

    out = ctx.actions.declare_file("%s-%s.tar.gz" % (ctx.attr.package_name, ctx.attr.version))
    args = ctx.actions.args()
    args.add("--out=" + out.path)
    args.add("--prefix=%s-%s" % (ctx.attr.package_name, ctx.attr.version))
    for dest in sorted(entries):
        args.add("--file=%s=%s" % (dest, entries[dest].path))
    ctx.actions.run(
        executable = ctx.executable._make_tarball,
        arguments = [args],
        inputs = entries.values(),
        outputs = [out],
        mnemonic = "ReleaseTarball",
        progress_message = "Packing %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

release_tarball = rule(
    implementation = _impl,
    attrs = {
        "package_name": attr.string(default = "ethosu_sdk"),
        "version": attr.string(mandatory = True),
        "wheel": attr.label(allow_files = [".whl"]),
        "cc_libs": attr.label_keyed_string_dict(doc = "cortex_m_libraries -> CPU directory name"),
        "cc_headers_from": attr.label_list(doc = "cortex_m_libraries whose (our) headers ship in include/"),
        "firmware": attr.label_list(providers = [FirmwareInfo]),
        "docs": attr.label_list(allow_files = True),
        "_make_tarball": attr.label(
            default = Label("//tools/release:make_tarball"),
            executable = True,
            cfg = "exec",
        ),
    },
)

def _python_wheel_impl(ctx):
    files = {}
    for dep in ctx.attr.deps:
        for f in dep[PyInfo].transitive_sources.to_list():
            if f.owner.workspace_name != "":
                continue
            path = f.short_path
            for prefix in ctx.attr.strip_prefixes:
                if path.startswith(prefix + "/"):
                    path = path[len(prefix) + 1:]
                    break
            if path.split("/")[0] in ctx.attr.packages:
                files[path] = f
    out = ctx.actions.declare_file("%s-%s-py3-none-any.whl" % (ctx.attr.distribution, ctx.attr.version))
    args = ctx.actions.args()
    args.add_all([
        "--out=" + out.path,
        "--distribution=" + ctx.attr.distribution,
        "--version=" + ctx.attr.version,
        "--summary=" + ctx.attr.summary,
    ])
    args.add_all(ctx.attr.requires, format_each = "--requires=%s")
    args.add_all(ctx.attr.console_scripts, format_each = "--console_script=%s")
    args.add_all(["--file=%s=%s" % (p, files[p].path) for p in sorted(files)])
    ctx.actions.run(
        executable = ctx.executable._make_wheel,
        arguments = [args],
        inputs = files.values(),
        outputs = [out],
        mnemonic = "PythonWheel",
        progress_message = "Building wheel %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

python_wheel = rule(
    implementation = _python_wheel_impl,
    doc = "A pure-Python wheel of `deps`' sources in `packages`.",
    attrs = {
        "distribution": attr.string(mandatory = True),
        "version": attr.string(mandatory = True),
        "summary": attr.string(),
        "deps": attr.label_list(providers = [PyInfo]),
        "packages": attr.string_list(mandatory = True, doc = "Top-level packages to include."),
        "strip_prefixes": attr.string_list(doc = "Source directories that are not part of module paths."),
        "requires": attr.string_list(),
        "console_scripts": attr.string_list(doc = "NAME=module:function"),
        "_make_wheel": attr.label(
            default = Label("//tools/release:make_wheel"),
            executable = True,
            cfg = "exec",
        ),
    },
)
